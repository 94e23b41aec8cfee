import Foundation
import Testing
@testable import Library
@testable import TestSupport

@Suite struct PlaylistLoadingTests {
    let loader = QueueLoader(reader: fakeReader)

    @Test func m3uEntriesInOrder() throws {
        let root = try Fixtures.makeDirectory()
        try touch(root, ["lists/sub/rel.mp3", "other/up.mp3", "abs.mp3", "with space/é ü.mp3",
                         "album/t2.mp3", "album/t1.mp3"])
        let playlist = [
            "\u{FEFF}#EXTM3U",
            "#EXTINF:123,Artist - Relative",
            "sub/rel.mp3",
            "",
            "   ",
            "../other/up.mp3",
            root + "/abs.mp3",
            "file://" + root.replacingOccurrences(of: " ", with: "%20") + "/with%20space/%C3%A9%20%C3%BC.mp3",
            "http://example.com/stream.mp3",
            "missing.mp3",
            "../album",
        ].joined(separator: "\r\n") + "\r\n"
        try Fixtures.write(Array(playlist.utf8), to: root + "/lists/mix.m3u8")
        let (tracks, problems) = loader.load([root + "/lists/mix.m3u8"])
        #expect(names(tracks.filter { !$0.isStream }, relativeTo: root) == ["lists/sub/rel.mp3", "other/up.mp3", "abs.mp3",
                                                    "with space/é ü.mp3", "album/t1.mp3", "album/t2.mp3"])
        // The stream keeps its place in the order.
        #expect(tracks[4].streamURL?.text == "http://example.com/stream.mp3")
        #expect(problems.count == 1)
        #expect(problems.last == LoadProblem(path: root + "/lists/missing.mp3", reason: "file not found"))
    }

    @Test func latin1PlaylistAndLoneCR() throws {
        let root = try Fixtures.makeDirectory()
        try touch(root, ["caf\u{E9}.mp3", "b.mp3"])
        // "café.mp3" in Latin-1 (0xE9), lines ended by a bare CR (old Mac style).
        let bytes: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".mp3\rb.mp3".utf8)
        try Fixtures.write(bytes, to: root + "/old.M3U")
        let (tracks, problems) = loader.load([root + "/old.M3U"])
        #expect(problems.isEmpty)
        #expect(names(tracks, relativeTo: root) == ["caf\u{E9}.mp3", "b.mp3"])
    }

    @Test func playlistWithNothingPlayableIsAProblem() throws {
        let root = try Fixtures.makeDirectory()
        try touch(root, ["bad.mp3"])
        try Fixtures.write(Array("#EXTM3U\nbad.mp3\n".utf8), to: root + "/p.m3u")
        let (tracks, problems) = loader.load([root + "/p.m3u"])
        #expect(tracks.isEmpty)
        #expect(problems.compactMap(\.path) == [root + "/bad.mp3", root + "/p.m3u"])
        #expect(problems.last?.reason == "no playable files in playlist")
    }

    @Test func selfIncludingPlaylistTerminates() throws {
        let root = try Fixtures.makeDirectory()
        try touch(root, ["a.mp3"])
        try Fixtures.write(Array("a.mp3\nloop.m3u\n".utf8), to: root + "/loop.m3u")
        let (tracks, problems) = loader.load([root + "/loop.m3u"])
        #expect(tracks.count == 1)
        #expect(problems == [LoadProblem(path: root + "/loop.m3u", reason: "playlist includes itself")])
    }
}
