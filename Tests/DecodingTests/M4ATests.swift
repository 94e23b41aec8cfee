import Foundation
import Testing
@testable import Decoding
import PlayerCore
@testable import TestSupport

/// M4A (AAC-LC, ALAC) and ADTS files through the FFmpeg helper process: exact (gapless)
/// sample counts from the edit list and from iTunSMPB, tags, ReplayGain and the cover from the
/// MP4 atoms, header-only reads wherever `moov` sits, seeking. Real files made by ffmpeg.
@Suite struct M4ATests {
    let directory: String

    init() throws {
        directory = try Fixtures.makeDirectory()
    }

    private func path(_ name: String) -> String { directory + "/" + name }

    static func frames(of decoder: any AudioDecoder) throws -> Int {
        try FLACTests.decodeAll(decoder).count / decoder.format.channels
    }

    @Test(arguments: [Fixtures.M4ACodec.aac, .alac], [true, false])
    func decodesToTheExactSampleCount(codec: Fixtures.M4ACodec, moovAtEnd: Bool) throws {
        let file = path("tone-\(codec)-\(moovAtEnd).m4a")
        try Fixtures.makeM4A(at: file, codec: codec, seconds: 3, moovAtEnd: moovAtEnd)
        #expect(try AudioFileKind.sniff(path: FilePath(file)!) == .m4a)
        let decoder = try AudioDecoders.open(path: FilePath(file)!)
        #expect(decoder is FFmpegDecoder)
        #expect(decoder.format == PCMFormat(sampleRate: 44100, channels: 2))
        // 3.000 s at 44.1 kHz: the encoder's priming and padding are gone.
        #expect(try Self.frames(of: decoder) == 132_300)
    }

    @Test func iTunSMPBGivesTheExactLengthWithoutAnEditList() throws {
        let file = path("itunes.m4a")
        try Fixtures.makeITunesM4A(at: file, seconds: 3)
        #expect(try Self.frames(of: AudioDecoders.open(path: FilePath(file)!)) == 132_300)
        let track = try TrackReader.read(path: FilePath(file)!)
        #expect(track.length == 3_000_000)
        #expect(!track.lengthIsEstimate)
    }

    @Test func adtsFilesAreFoundByContentAndPlay() throws {
        let file = path("tone.mp3")  // the name says MP3; the content says ADTS
        try Fixtures.makeADTS(at: file, seconds: 2)
        #expect(try AudioFileKind.sniff(path: FilePath(file)!) == .aac)
        let decoder = try AudioDecoders.open(path: FilePath(file)!)
        let frames = try Self.frames(of: decoder)
        // ADTS carries no gapless information: the encoder's priming and padding stay.
        #expect(frames >= 88_200 && frames <= 88_200 + 3 * 1024)
        let track = try TrackReader.read(path: FilePath(file)!)
        #expect(track.lengthIsEstimate)
        #expect(abs((track.length ?? 0) - 2_000_000) < 100_000)
        // Measured when it plays (as an MP3 without a Xing header is): every decoded sample.
        let measured = try #require(try TrackReader.measureLength(path: FilePath(file)!))
        #expect(measured == decoder.format.duration(ofFrames: Int64(frames)))
    }

    @Test(arguments: [Fixtures.M4ACodec.aac, .alac])
    func tagsReplayGainAndLengthComeFromTheAtoms(codec: Fixtures.M4ACodec) throws {
        let file = path("tagged-\(codec).m4a")
        try Fixtures.makeM4A(at: file, codec: codec, seconds: 2, title: "Tagged \(codec)", tagged: true)
        let track = try TrackReader.read(path: FilePath(file)!)
        #expect(track.title == "Tagged \(codec)")
        #expect(track.artists == ["Ann"])
        #expect(track.albumArtists == ["Various"])
        #expect(track.album == "M4A Demo")
        #expect(track.trackNumber == 3)
        #expect(track.discNumber == 1)
        #expect(track.date == "2011")
        #expect(track.genres == ["Jazz"])
        #expect(track.length == 2_000_000)
        #expect(!track.lengthIsEstimate)
        #expect(track.replayGain?.trackGain == -6.02)
        #expect(track.replayGain?.trackPeak == 0.5)
    }

    @Test func theCoverIsTheCovrAtom() throws {
        let file = path("cover.m4a")
        try Fixtures.makeM4A(at: file, tagged: true)
        let art = try #require(try TrackReader.coverArt(path: FilePath(file)!))
        #expect(art.mimeType == "image/png")
        #expect(art.data == Fixtures.tinyPNG)
        let plain = path("plain.m4a")
        try Fixtures.makeM4A(at: plain)
        #expect(try TrackReader.coverArt(path: FilePath(plain)!) == nil)
    }

    /// Queueing reads the header only: a four-minute file's tags cost its `moov` atom and a
    /// few KiB, at the end of the file as at its start — never the audio.
    @Test(arguments: [true, false])
    func readingTagsReadsTheHeaderOnly(moovAtEnd: Bool) throws {
        let file = try Fixtures.fourMinuteM4A(moovAtEnd: moovAtEnd).path
        let size = try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? 0
        let facts = try FFmpegTrackReader.facts(path: FilePath(file)!, kind: .m4a)
        print("M4A tags of a \(size / 1024) KiB file (moov at the \(moovAtEnd ? "end" : "start")): \(facts.bytesRead / 1024) KiB read")
        #expect(size > 3_000_000)
        #expect(facts.bytesRead <= 256 * 1024)
        #expect(facts.lengthMicroseconds == 240_000_000)
    }

    @Test func aSeekLandsOnTheSampleAsked() throws {
        let file = path("seek.m4a")
        try Fixtures.makeM4A(at: file, seconds: 3, frequency: 440)
        let whole = try FLACTests.decodeAll(try AudioDecoders.open(path: FilePath(file)!))
        let decoder = try AudioDecoders.open(path: FilePath(file)!)
        try decoder.seek(to: 1_000_000)
        let rest = try FLACTests.decodeAll(decoder)
        // From 1.000 s (frame 44100) to the end, the same samples as decoding from the start.
        #expect(rest.count == whole.count - 44_100 * 2)
        let compared = zip(rest.prefix(8192), whole[(44_100 * 2)...].prefix(8192))
        let largest = compared.map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(largest <= 2, "after a seek the samples differ by up to \(largest)")
        // Past the end: nothing more.
        try decoder.seek(to: 10_000_000)
        #expect(try FLACTests.decodeAll(decoder).isEmpty)
    }
}
