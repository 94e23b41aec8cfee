import PlayerCore
import Foundation
import Testing
import Library
@testable import TestSupport

/// The loader with the real `TrackReader`, on MP3s made by lame.
@Suite struct RealFileLoadingTests {
    let loader = QueueLoader()

    @Test func albumOrderFromRealTags() throws {
        let dir = try Fixtures.makeDirectory()
        // File names disagree with the tags on purpose: tags win.
        try Fixtures.makeMP3(at: dir + "/a.mp3", seconds: 1, lameOptions: Fixtures.tagOptions(title: "Disc 2 Track 1", track: "1/5", disc: "2/2"))
        try Fixtures.makeMP3(at: dir + "/b.mp3", seconds: 1, lameOptions: Fixtures.tagOptions(title: "Disc 1 Track 10", track: "10/12", disc: "1/2"))
        try Fixtures.makeMP3(at: dir + "/c.mp3", seconds: 1, lameOptions: Fixtures.tagOptions(title: "Disc 1 Track 2", track: "2/12", disc: "1/2"))
        let (tracks, problems) = loader.load([dir])
        #expect(problems.isEmpty)
        #expect(tracks.map(\.title) == ["Disc 1 Track 2", "Disc 1 Track 10", "Disc 2 Track 1"])
        #expect(tracks.allSatisfy { $0.length == 1_000_000 })
    }

    @Test func mixedGoodAndBadFiles() throws {
        let dir = try Fixtures.makeDirectory()
        try Fixtures.makeMP3(at: dir + "/01 good.mp3", seconds: 1)
        try Fixtures.write(Array(repeating: 0x41, count: 5000), to: dir + "/02 junk.mp3")
        try Fixtures.write([], to: dir + "/03 empty.mp3")
        try Fixtures.makeWAV(at: dir + "/wave.wav", seconds: 1)
        try FileManager.default.moveItem(atPath: dir + "/wave.wav", toPath: dir + "/04 wave.mp3")
        try Fixtures.makeMP3(at: dir + "/05 good.mp3", seconds: 1)
        let (tracks, problems) = loader.load([dir])
        #expect(tracks.map(\.displayTitle) == ["01 good", "05 good"])
        #expect(problems.compactMap(\.path) == [dir + "/02 junk.mp3", dir + "/03 empty.mp3", dir + "/04 wave.mp3"])
        #expect(problems[1].reason == "empty file")
        #expect(problems[0].reason.contains("MP3"))
        #expect(problems[2].reason == "a WAV file: Aubade does not play WAV", "named for what it is")
    }

    @Test func openURI() throws {
        let dir = try Fixtures.makeDirectory() + "/with space"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Fixtures.makeMP3(at: dir + "/ü.mp3", seconds: 1, lameOptions: ["--tt", "Song"])
        let tracks = try loader.load(uri: FileURI.uri(forPath: dir + "/ü.mp3"))
        #expect(tracks.map(\.title) == ["Song"])
        #expect(tracks.first?.path == FilePath(dir + "/ü.mp3"))
        #expect(try loader.load(uri: FileURI.uri(forPath: dir)).count == 1)

        #expect(try loader.load(uri: "https://example.com/a.mp3").map(\.streamURL?.text) == ["https://example.com/a.mp3"])
        let ftp = #expect(throws: LoadProblem.self) { try loader.load(uri: "ftp://example.com/a.mp3") }
        #expect(ftp?.reason.contains("unsupported URI scheme \"ftp\"") == true)
        let spaced = #expect(throws: LoadProblem.self) { try loader.load(uri: "http://example.com/a b.mp3") }
        #expect(spaced?.reason.contains("spaces") == true)
        let missing = #expect(throws: LoadProblem.self) { try loader.load(uri: "file:///no/such/file.mp3") }
        #expect(missing == LoadProblem(path: "/no/such/file.mp3", reason: "file not found"))
        let malformed = #expect(throws: LoadProblem.self) { try loader.load(uri: "file:///bad%zz") }
        #expect(malformed?.reason == "malformed file URI")
        let notURI = #expect(throws: LoadProblem.self) { try loader.load(uri: "just words") }
        #expect(notURI?.reason == "not a URI")
        try touch(dir, ["nothing/readme.txt"])
        let empty = #expect(throws: LoadProblem.self) { try loader.load(uri: FileURI.uri(forPath: dir + "/nothing")) }
        #expect(empty?.reason == "no playable music files in directory")
    }
}

/// Issue 12: one album in four formats is queued in its tags' order, whatever the names say.
@Suite struct MixedFormatFolderTests {
    @Test func anAlbumOfFourFormatsIsInTrackOrder() throws {
        let dir = try Fixtures.makeDirectory()
        try Fixtures.makeOpus(at: dir + "/a.opus", seconds: 1, tags: [("TITLE", "Four"), ("TRACKNUMBER", "4")])
        try Fixtures.makeFLAC(at: dir + "/b.flac", seconds: 1, tags: ["TITLE=One", "TRACKNUMBER=1"])
        try Fixtures.makeMP3(at: dir + "/c.mp3", seconds: 1, lameOptions: Fixtures.tagOptions(title: "Three", track: "3"))
        try Fixtures.makeVorbis(at: dir + "/d.ogg", seconds: 1, tags: [("TITLE", "Two"), ("TRACKNUMBER", "2/4")])
        let (tracks, problems) = QueueLoader().load([dir])
        #expect(problems.isEmpty)
        #expect(tracks.map(\.title) == ["One", "Two", "Three", "Four"])
        #expect(tracks.allSatisfy { abs(($0.length ?? 0) - 1_000_000) < 1_000 })
    }
}
