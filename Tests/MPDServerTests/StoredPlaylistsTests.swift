import Foundation
import Library
import MPDProtocol
import PlayerCore
import Testing
@testable import MPDServer
@testable import TestSupport

/// Stored playlists as mpd 0.23 answers for them, where the side-by-side test found Aubade's
/// answers otherwise (IntegrationTests.MPDSideBySideTests): a playlist file of the music
/// folder read by its path, the edits' errors in mpd's words, a load past the end.
@Suite struct StoredPlaylistsTests {
    /// Where an entry points, as text (stations here).
    static func text(_ location: MediaLocation) -> String {
        switch location {
        case .stream(let url): url.text
        case .file(let path): path.displayString
        }
    }

    /// A playlists folder with `mix` (three stations) and a music folder with `Lists/trip.m3u`
    /// (two).
    struct Folders {
        let playlists: StoredPlaylists
        let libraryPlaylist: FilePath

        init() throws {
            let root = try Fixtures.makeDirectory()
            try FileManager.default.createDirectory(atPath: root + "/playlists", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: root + "/music/Lists", withIntermediateDirectories: true)
            try "http://127.0.0.1:9/a\nhttp://127.0.0.1:9/b\nhttp://127.0.0.1:9/c\n"
                .write(toFile: root + "/playlists/mix.m3u", atomically: true, encoding: .utf8)
            try "http://127.0.0.1:9/x\nhttp://127.0.0.1:9/y\n"
                .write(toFile: root + "/music/Lists/trip.m3u", atomically: true, encoding: .utf8)
            playlists = StoredPlaylists(folder: root + "/playlists", loader: QueueLoader())
            libraryPlaylist = try #require(FilePath(root + "/music/Lists/trip.m3u"))
        }

        func urls(_ name: String) throws -> [String] {
            try playlists.locations(of: name, inLibrary: nil).map(StoredPlaylistsTests.text)
        }
    }

    @Test func aPlaylistOfTheMusicFolderIsReadByItsPath() throws {
        let folders = try Folders()
        let trip = try folders.playlists.locations(of: "Lists/trip.m3u", inLibrary: folders.libraryPlaylist)
        #expect(trip.map(StoredPlaylistsTests.text) == ["http://127.0.0.1:9/x", "http://127.0.0.1:9/y"])
        // A stored playlist of that name comes first, as in mpd.
        #expect(try folders.playlists.locations(of: "mix", inLibrary: folders.libraryPlaylist).count == 3)
        // A path the library has no playlist at is no such playlist, not a bad name (ACK 50).
        #expect(throws: MPDError.noSuchPlaylist) { try folders.playlists.locations(of: "Lists/none.m3u", inLibrary: nil) }
    }

    @Test func aLoadPastTheEndLoadsNothing() throws {
        let folders = try Folders()
        #expect(try folders.playlists.locations(of: "mix", inLibrary: nil, range: SongRange(start: 9, end: 10)).isEmpty)
        #expect(try folders.playlists.locations(of: "mix", inLibrary: nil, range: SongRange(start: 1, end: 9)).count == 2)
    }

    @Test func editsAnswerInMPDsWords() throws {
        let folders = try Folders()
        let playlists = folders.playlists
        try playlists.write("other", [])
        #expect(throws: MPDError(.exist, "Playlist exists already")) { try playlists.rename("other", to: "mix") }
        #expect(throws: MPDError(.argument, "Bad range")) { try playlists.move(0, to: 9, in: "mix", snapshot: nil) }
        #expect(throws: MPDError.noSuchPlaylist) { try playlists.clear("nowhere") }
        #expect(!playlists.exists("nowhere"), "clearing made a playlist")
        try playlists.move(0, to: 2, in: "mix", snapshot: nil)
        #expect(try folders.urls("mix") == ["http://127.0.0.1:9/b", "http://127.0.0.1:9/c", "http://127.0.0.1:9/a"])
        try playlists.clear("mix")
        #expect(try folders.urls("mix").isEmpty)
    }
}
