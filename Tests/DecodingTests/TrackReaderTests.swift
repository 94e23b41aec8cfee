import Foundation
import Testing
@testable import Decoding
import PlayerCore
@testable import TestSupport

@Suite struct TrackReaderTests {
    /// One MP3 frame at 44.1 kHz: the tolerance the brief allows for the length.
    static let oneFrame: Microseconds = 1152 * 1_000_000 / 44100

    @Test func lengthOfThreeSecondFileIsExact() throws {
        let dir = try Fixtures.makeDirectory()
        let path = dir + "/three.mp3"
        try Fixtures.makeMP3(at: path, seconds: 3)
        let track = try TrackReader.read(path: path)
        let length = try #require(track.length)
        #expect(abs(length - 3_000_000) <= Self.oneFrame)
        // Gapless: 132300 samples at 44.1 kHz is exactly 3 s.
        #expect(length == 3_000_000)
    }

    @Test func monoFileAtOtherRate() throws {
        let dir = try Fixtures.makeDirectory()
        let path = dir + "/mono.mp3"
        try Fixtures.makeMP3(at: path, seconds: 2, rate: 22050, channels: 1)
        let track = try TrackReader.read(path: path)
        #expect(track.length == 2_000_000)
    }

    @Test func lameTagsAreMappedIntoTrack() throws {
        let dir = try Fixtures.makeDirectory()
        let path = dir + "/tagged.mp3"
        try Fixtures.makeMP3(at: path, lameOptions: Fixtures.tagOptions(
            title: "Title", artist: "Artist", album: "Album", track: "3/12", disc: "1/2",
            year: "2009", genre: "Rock", albumArtist: "AlbumArtist"))
        let track = try TrackReader.read(path: path)
        #expect(track.path == FilePath(path))
        #expect(track.title == "Title")
        #expect(track.displayTitle == "Title")
        #expect(track.artists == ["Artist"])
        #expect(track.album == "Album")
        #expect(track.albumArtists == ["AlbumArtist"])
        #expect(track.genres == ["Rock"])
        #expect(track.trackNumber == 3)
        #expect(track.discNumber == 1)
        #expect(track.date == "2009")
    }

    @Test func nonASCIITagsSurvive() throws {
        let dir = try Fixtures.makeDirectory()
        let path = dir + "/unicode.mp3"
        try Fixtures.makeMP3(at: path, lameOptions: ["--id3v2-utf16", "--tt", "Für Élise — 夜", "--ta", "AC/DC"])
        let track = try TrackReader.read(path: path)
        #expect(track.title == "Für Élise — 夜")
        // "/" is part of the name, not a separator.
        #expect(track.artists == ["AC/DC"])
    }

    @Test func untaggedFileHasNoTitleAndShowsFileName() throws {
        let dir = try Fixtures.makeDirectory()
        let path = dir + "/Plain Song.mp3"
        try Fixtures.makeMP3(at: path)
        let track = try TrackReader.read(path: path)
        #expect(track.title == nil)
        #expect(track.artists.isEmpty)
        #expect(track.album == nil)
        #expect(track.trackNumber == nil)
        #expect(track.displayTitle == "Plain Song")
        #expect(track.length == 3_000_000)
    }

    @Test func id3v1OnlyTagsAreUsed() throws {
        let dir = try Fixtures.makeDirectory()
        let path = dir + "/v1.mp3"
        try Fixtures.makeMP3(at: path, lameOptions: ["--id3v1-only"] + Fixtures.tagOptions(
            title: "Old Title", artist: "Old Artist", album: "Old Album", track: "7", year: "1999", genre: "Jazz"))
        let track = try TrackReader.read(path: path)
        #expect(track.title == "Old Title")
        #expect(track.artists == ["Old Artist"])
        #expect(track.album == "Old Album")
        #expect(track.trackNumber == 7)
        #expect(track.date == "1999")
        #expect(track.genres == ["Jazz"])
    }

    @Test func id3v24MultipleValuesAndNumericGenres() throws {
        let dir = try Fixtures.makeDirectory()
        let audio = dir + "/audio.mp3"
        try Fixtures.makeMP3(at: audio, seconds: 1)
        let tag = Fixtures.id3v2Tag(version: 4, frames: [
            ("TIT2", ["Duet"]),
            ("TPE1", ["Alice", "Bob"]),
            ("TCON", ["(17)", "Jazz"]),
            ("TDRC", ["2010-05-01"]),
            ("TRCK", ["04"]),
            ("TPOS", ["2"]),
        ])
        let path = dir + "/v24.mp3"
        try Fixtures.write(tag + Fixtures.contents(of: audio), to: path)
        let track = try TrackReader.read(path: path)
        #expect(track.title == "Duet")
        #expect(track.artists == ["Alice", "Bob"])
        #expect(track.genres == ["Rock", "Jazz"])
        #expect(track.date == "2010-05-01")
        #expect(track.trackNumber == 4)
        #expect(track.discNumber == 2)
        #expect(track.length == 1_000_000)
    }

    @Test func coverArtIsExtracted() throws {
        let dir = try Fixtures.makeDirectory()
        let png: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + Array("0000IHDR fake image".utf8)
        try Fixtures.write(png, to: dir + "/cover.png")
        let path = dir + "/cover.mp3"
        try Fixtures.makeMP3(at: path, seconds: 1, lameOptions: ["--ti", dir + "/cover.png", "--tt", "Pic"])
        let cover = try #require(try TrackReader.coverArt(path: path))
        #expect(cover.mimeType == "image/png")
        #expect(cover.data == png)
        // And no picture in an untagged file.
        let plain = dir + "/plain.mp3"
        try Fixtures.makeMP3(at: plain, seconds: 1)
        #expect(try TrackReader.coverArt(path: plain) == nil)
    }
}
