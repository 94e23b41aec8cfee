import Decoding
import Foundation
import Testing
@testable import MusicDatabase
import PlayerCore
import TestSupport

/// The library with the daemon's own reader on real files (lame, flac): tags, lengths, the
/// album order they give, and a broken file among them.
@Suite struct RealFileTests {
    @Test func realFilesAreReadOrderedAndSearchable() throws {
        let folder = try Fixtures.makeDirectory()
        defer { Fixtures.remove(folder) }
        try FileManager.default.createDirectory(atPath: folder + "/Album", withIntermediateDirectories: true)
        try Fixtures.makeMP3(at: folder + "/Album/b.mp3", seconds: 1, lameOptions: Fixtures.tagOptions(
            title: "First", artist: "Band", album: "Record", track: "1", disc: "1", year: "1999", genre: "Rock"))
        try Fixtures.makeMP3(at: folder + "/Album/a.mp3", seconds: 1, lameOptions: Fixtures.tagOptions(
            title: "Second", artist: "Band", album: "Record", track: "2", disc: "1", albumArtist: "Various"))
        try Fixtures.makeFLAC(at: folder + "/Album/c.flac", seconds: 1)
        try Fixtures.write(Array(repeating: 0x55, count: 5000), to: folder + "/Album/broken.mp3")
        let log = LogRecorder()
        let snapshot = MusicLibrary.build(configuration: LibraryConfiguration(folders: [FilePath(folder)!]),
                                          reader: { path throws(Decoding.DecodingError) in try TrackReader.read(path: path) },
                                          log: log.sink)
        let album = try #require(snapshot.directory(uri: "Album"))
        // The untagged FLAC has no album: it comes first (mpd's order); then tracks 1 and 2.
        #expect(render(snapshot.contents(of: album)) == "file: Album/c.flac\nfile: Album/b.mp3\nfile: Album/a.mp3")
        let first = try #require(snapshot.song(uri: "Album/b.mp3"))
        #expect(first.values(of: .title) == ["First"] && first.values(of: .artist) == ["Band"])
        #expect(first.values(of: .track) == ["1"] && first.values(of: .date) == ["1999"])
        #expect(abs((first.duration ?? 0) - 1_000_000) < 100_000)
        #expect(snapshot.songs(matching: .tag(.kind(.albumArtist), StringMatch("Band"))).map(\.uri) == ["Album/b.mp3"])
        #expect(snapshot.values(of: .albumArtist) == [["Band"], ["Various"], [""]].sorted { $0[0] < $1[0] })
        #expect(log.all.count == 1 && log.all.first?.contains("broken.mp3") == true)
    }
}
