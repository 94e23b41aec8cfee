import Decoding
import Foundation
import MusicDatabase
import PlayerCore
import Testing
import TestSupport
@testable import WebFrontEnd

/// The library's pages on a real `MusicLibrary` (files with tags given by a fake reader): albums
/// by album artist, artists, an album in disc and track order, folders, search, all paged.
@Suite struct LibraryPagesTests {
    final class Files: @unchecked Sendable {
        let folder: String
        private let lock = NSLock()
        private var tags: [String: Track] = [:]
        init() throws { folder = try Fixtures.makeDirectory() }
        deinit { Fixtures.remove(folder) }

        func add(_ relative: String, title: String, artist: String, album: String, albumArtist: String? = nil,
                 track: Int, disc: Int? = nil) throws {
            let full = folder + "/" + relative
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Fixtures.write([], to: full)
            let value = Track(path: FilePath(full)!, title: title, artists: [artist], album: album,
                              albumArtists: albumArtist.map { [$0] } ?? [], trackNumber: track, discNumber: disc, length: 1_000_000)
            lock.withLock { tags[full] = value }
        }

        var reader: @Sendable (FilePath) throws(DecodingError) -> Track {
            { [self] (path: FilePath) throws(DecodingError) -> Track in
                guard let track = lock.withLock({ tags[path.displayString] }) else { throw DecodingError(path: path, reason: "fake") }
                return track
            }
        }
    }

    func makeLibrary(_ files: Files) -> MusicLibrary {
        let library = MusicLibrary(configuration: LibraryConfiguration(folders: [FilePath(files.folder)!], watch: false),
                                   reader: files.reader, log: { _, _ in })
        library.start()
        return library
    }

    func waitForSongs(_ library: MusicLibrary, _ count: Int) -> Bool {
        for _ in 0..<500 {
            if library.snapshot.songCount == count, library.runningJob == nil { return true }
            usleep(10_000)
        }
        return false
    }

    @Test func albumsArtistsAndAnAlbumsTracks() throws {
        let files = try Files()
        try files.add("b/2.mp3", title: "Second", artist: "Bea", album: "Blue", track: 2)
        try files.add("b/1.mp3", title: "First", artist: "Bea", album: "Blue", track: 1)
        try files.add("b/cd2/1.mp3", title: "Disc two", artist: "Bea", album: "Blue", track: 1, disc: 2)
        try files.add("a/1.mp3", title: "Alone", artist: "guest", album: "Amber", albumArtist: "ann", track: 1)
        try files.add("loose.mp3", title: "No album", artist: "x", album: "", track: 1)
        let library = makeLibrary(files)
        defer { library.stop() }
        #expect(waitForSongs(library, 5))
        let harness = WebHarness(library: library)

        let albums = harness.document("/api/albums")
        #expect(albums["total"] as? Int == 2)
        let items = try #require(albums["items"] as? [[String: Any]])
        // By album artist, case aside: ann before Bea; the album artist, not the track's artist.
        #expect(items.map { $0["album"] as? String } == ["Amber", "Blue"])
        #expect(items.map { $0["artist"] as? String } == ["ann", "Bea"])
        #expect(items.last?["tracks"] as? Int == 3)
        #expect((items.first?["cover"] as? String)?.hasPrefix("/cover?uri=a/1.mp3") == true)

        let artists = try #require(harness.document("/api/artists")["items"] as? [[String: Any]])
        #expect(artists.map { $0["name"] as? String } == ["ann", "Bea"])
        #expect(harness.document("/api/albums", ["artist": "Bea"])["total"] as? Int == 1)

        let tracks = try #require(harness.document("/api/album", ["album": "Blue", "artist": "Bea"])["items"] as? [[String: Any]])
        #expect(tracks.map { $0["title"] as? String } == ["First", "Second", "Disc two"])
        let page = try #require(harness.document("/api/album", ["album": "Blue", "offset": "1", "limit": "1"])["items"] as? [[String: Any]])
        #expect(page.map { $0["title"] as? String } == ["Second"])
    }

    @Test func foldersSearchAndAddingAnAlbum() throws {
        let files = try Files()
        for index in 1...30 {
            try files.add("many/\(String(format: "%02d", index)).mp3", title: "Tune \(index)", artist: "Cleo", album: "Many", track: index)
        }
        let library = makeLibrary(files)
        defer { library.stop() }
        #expect(waitForSongs(library, 30))
        let harness = WebHarness(library: library)

        let root = try #require(harness.document("/api/folder")["items"] as? [[String: Any]])
        #expect(root.first?["type"] as? String == "folder" && root.first?["uri"] as? String == "many")
        let folder = harness.document("/api/folder", ["path": "many", "offset": "25", "limit": "10"])
        #expect(folder["total"] as? Int == 30)
        #expect((folder["items"] as? [[String: Any]])?.count == 5)
        #expect(harness.send("GET", "/api/folder", query: ["path": "../.."])?.status == 404)

        let found = harness.document("/api/search", ["q": "TUNE 2", "limit": "5"])
        // Case aside, as a substring: Tune 2 and Tune 20…29.
        #expect(found["total"] as? Int == 11)
        #expect((found["items"] as? [[String: Any]])?.count == 5)
        #expect(harness.document("/api/search", ["q": "nothing like it"])["total"] as? Int == 0)

        #expect(harness.send("POST", "/api/queue", json: #"{"action":"addAlbum","album":"Many","at":"end"}"#)?.status == 200)
        #expect(harness.document("/api/queue")["total"] as? Int == 30)
        #expect(harness.send("POST", "/api/queue", json: #"{"action":"add","uris":["many/01.mp3","many"],"at":"next"}"#)?.status == 200)
        #expect(harness.document("/api/queue")["total"] as? Int == 61)
        #expect(harness.send("POST", "/api/queue", json: #"{"action":"addAlbum","album":"Nope"}"#)?.status == 404)

        // Covers only of library songs, at the fixed sizes.
        #expect(harness.send("GET", "/cover", query: ["uri": "../../../etc/passwd"])?.status == 404)
        #expect(harness.send("GET", "/cover", query: ["uri": "/etc/passwd"])?.status == 404)
        #expect(harness.send("GET", "/cover", query: ["uri": "many/01.mp3", "size": "7"])?.status == 400)
        #expect(harness.send("GET", "/cover", query: ["uri": "many/01.mp3", "size": "96"])?.status == 404) // no picture
    }
}
