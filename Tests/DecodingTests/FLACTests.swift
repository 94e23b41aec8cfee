import Foundation
import Testing
import Decoding
import PlayerCore
@testable import TestSupport

/// FLAC through libFLAC: exact (gapless) sample counts, every bit depth and channel count,
/// seeking, tags, ReplayGain, covers, and the bad corpus.
@Suite struct FLACTests {
    static func decodeAll(_ decoder: any AudioDecoder, bufferBytes: Int = 32768) throws -> [Int16] {
        var samples: [Int16] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferBytes, alignment: 16)
        defer { buffer.deallocate() }
        // Bounded: a decoder that never ends fails the test instead of hanging it.
        for _ in 0..<100_000 {
            let count = try decoder.read(into: buffer)
            if count == 0 { return samples }
            #expect(count % decoder.format.bytesPerFrame == 0)
            samples += UnsafeRawBufferPointer(rebasing: buffer[..<count]).bindMemory(to: Int16.self)
        }
        Issue.record("the decoder did not end")
        return samples
    }

    /// A tone as WAV and as FLAC made from it; returns the FLAC's path and the WAV's samples.
    static func tone(seconds: Double = 1.5, rate: Int = 44100, channels: Int = 2, bits: Int = 16,
                     tags: [String] = [], name: String = "tone.flac") throws -> (path: String, samples: [Int16]) {
        let dir = try Fixtures.makeDirectory()
        let wav = dir + "/source.wav"
        let path = dir + "/" + name
        try Fixtures.makeToneWAV(at: wav, seconds: seconds, rate: rate, channels: channels, bits: bits)
        try Fixtures.encodeFLAC(wav, to: path, tags: tags)
        return (path, try Fixtures.rawSamples(ofWAV: wav))
    }

    @Test func decodesExactlyTheSamplesOfTheWAV() throws {
        let (path, expected) = try Self.tone(seconds: 1.5)
        let decoder = try FLACDecoder(path: FilePath(path)!)
        #expect(decoder.format == PCMFormat(sampleRate: 44100, channels: 2))
        #expect(decoder.lengthInFrames == 66150)
        let samples = try Self.decodeAll(decoder, bufferBytes: 4099)
        #expect(samples.count == 66150 * 2)
        #expect(samples == expected, "lossless: the very samples of the WAV")
        #expect(decoder.position == 1_500_000)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 16)
        defer { buffer.deallocate() }
        #expect(try decoder.read(into: buffer) == 0)
    }

    @Test(arguments: [(bits: 24, rate: 48000, channels: 2), (bits: 16, rate: 48000, channels: 1),
                      (bits: 8, rate: 22050, channels: 1), (bits: 32, rate: 44100, channels: 2),
                      (bits: 16, rate: 44100, channels: 6)])
    func everyDepthAndChannelCountComesOutAs16Bit(_ source: (bits: Int, rate: Int, channels: Int)) throws {
        let (path, expected) = try Self.tone(seconds: 1, rate: source.rate, channels: source.channels, bits: source.bits)
        let decoder = try FLACDecoder(path: FilePath(path)!)
        #expect(decoder.format == PCMFormat(sampleRate: source.rate, channels: source.channels))
        let samples = try Self.decodeAll(decoder, bufferBytes: 5000)
        #expect(samples.count == source.rate * source.channels)
        // A shift down (no dither) against sox's rounding: within one step.
        let worst = zip(samples, expected).map { abs(Int($0) - Int($1)) }.max() ?? .max
        #expect(worst <= 1, "largest difference to the source: \(worst)")
        #expect((samples.map { abs(Int($0)) }.max() ?? 0) > 10000, "real audio, not silence")
    }

    @Test func seekLandsOnTheSample() throws {
        let (path, expected) = try Self.tone(seconds: 1.5)
        let decoder = try FLACDecoder(path: FilePath(path)!)
        try decoder.seek(to: 1_000_000)
        #expect(decoder.position == 1_000_000)
        let rest = try Self.decodeAll(decoder)
        #expect(rest == Array(expected[(44100 * 2)...]))
        // Back to an odd spot after the end, and past the end.
        try decoder.seek(to: 123_457)
        let frame = Int(PCMFormat(sampleRate: 44100, channels: 2).frames(in: 123_457))
        #expect(try Self.decodeAll(decoder) == Array(expected[(frame * 2)...]))
        try decoder.seek(to: 99_000_000)
        #expect(try Self.decodeAll(decoder).isEmpty)
        try decoder.seek(to: -5)
        #expect(try Self.decodeAll(decoder).count == expected.count)
    }

    @Test func tagsLengthAndReplayGain() throws {
        let (path, _) = try Self.tone(seconds: 1.5, tags: [
            "TITLE=Flake", "ARTIST=Ann", "ARTIST=Bob", "ALBUM=Snow", "ALBUMARTIST=Various",
            "TRACKNUMBER=3/12", "DISCNUMBER=2", "DATE=2011-02-03", "GENRE=Ambient",
            "REPLAYGAIN_TRACK_GAIN=-6.50 dB", "REPLAYGAIN_TRACK_PEAK=0.501", "REPLAYGAIN_ALBUM_GAIN=-7.25 dB",
            "REPLAYGAIN_ALBUM_PEAK=0.9"])
        let track = try TrackReader.read(path: FilePath(path)!)
        #expect(track.title == "Flake")
        #expect(track.artists == ["Ann", "Bob"])
        #expect(track.album == "Snow")
        #expect(track.albumArtists == ["Various"])
        #expect(track.trackNumber == 3)
        #expect(track.discNumber == 2)
        #expect(track.date == "2011-02-03")
        #expect(track.genres == ["Ambient"])
        #expect(track.length == 1_500_000)
        #expect(track.lengthIsEstimate == false)
        let gain = try #require(track.replayGain)
        #expect(abs((gain.trackGain ?? 0) - -6.5) < 0.001)
        #expect(abs((gain.trackPeak ?? 0) - 0.501) < 0.001)
        #expect(abs((gain.albumGain ?? 0) - -7.25) < 0.001)
        #expect(abs((gain.albumPeak ?? 0) - 0.9) < 0.001)
    }

    @Test func lengthIsExactForAnOddSampleCount() throws {
        // 12345 frames at 48 kHz: 257.1875 ms.
        let (path, _) = try Self.tone(seconds: 12345.0 / 48000, rate: 48000)
        #expect(try TrackReader.read(path: FilePath(path)!).length == 257_188)
        #expect(try Self.decodeAll(FLACDecoder(path: FilePath(path)!)).count == 12345 * 2)
    }

    @Test func frontCoverIsChosenOverTheFirstPicture() throws {
        let (path, _) = try Self.tone(seconds: 0.2)
        let dir = (path as NSString).deletingLastPathComponent
        let other = dir + "/other.png", front = dir + "/front.png"
        try Fixtures.write(Fixtures.tinyPNG + [1], to: other)  // trailing byte: tell them apart
        try Fixtures.write(Fixtures.tinyPNG, to: front)
        try Fixtures.addFLACPicture(other, type: 0, to: path)
        #expect(try TrackReader.coverArt(path: FilePath(path)!)?.data == Fixtures.tinyPNG + [1], "the only picture")
        try Fixtures.addFLACPicture(front, type: 3, to: path)
        let art = try #require(try TrackReader.coverArt(path: FilePath(path)!))
        #expect(art.mimeType == "image/png")
        #expect(art.data == Fixtures.tinyPNG)
    }

    @Test func coverFromAMetadataBlockPictureComment() throws {
        // The PICTURE block's content, base64, as a comment (what Ogg files carry).
        let png = Fixtures.tinyPNG
        let mime = Array("image/png".utf8)
        let block = Fixtures.bigEndian32(3) + Fixtures.bigEndian32(UInt32(mime.count)) + mime + Fixtures.bigEndian32(0)
            + [UInt8](repeating: 0, count: 16) + Fixtures.bigEndian32(UInt32(png.count)) + png
        let (path, _) = try Self.tone(seconds: 0.2, tags: ["TITLE=Inline", "METADATA_BLOCK_PICTURE=" + Data(block).base64EncodedString()])
        #expect(try TrackReader.read(path: FilePath(path)!).title == "Inline")
        #expect(try TrackReader.coverArt(path: FilePath(path)!) == CoverArt(mimeType: "image/png", data: png))
    }

    @Test func noCoverIsNil() throws {
        let (path, _) = try Self.tone(seconds: 0.2)
        #expect(try TrackReader.coverArt(path: FilePath(path)!) == nil)
    }

    @Test func aFLACNamedMP3Plays() throws {
        let (path, expected) = try Self.tone(seconds: 0.5, tags: ["TITLE=Disguised"], name: "really-flac.mp3")
        let decoder = try AudioDecoders.open(path: FilePath(path)!)
        #expect(decoder is FLACDecoder)
        #expect(try Self.decodeAll(decoder) == expected)
        let track = try TrackReader.read(path: FilePath(path)!)
        #expect(track.title == "Disguised")
        #expect(track.length == 500_000)
    }

    @Test func queueingReadsOnlyTheMetadataNotThePicturesOrAudio() throws {
        let (path, _) = try Self.tone(seconds: 5, tags: ["TITLE=Big"])  // ~400 KB of audio
        let dir = (path as NSString).deletingLastPathComponent
        // A 2 MB picture before the comments would be read by anything that reads blocks whole.
        var picture = Fixtures.tinyPNG
        picture += [UInt8](repeating: 7, count: 2 << 20)
        try Fixtures.write(picture, to: dir + "/big.png")
        try Fixtures.addFLACPicture(dir + "/big.png", to: path)
        let before = try Self.bytesReadByThisThread()
        let track = try TrackReader.read(path: FilePath(path)!)
        let read = try Self.bytesReadByThisThread() - before
        #expect(track.title == "Big")
        #expect(read <= 256 << 10, "read \(read) bytes to queue one FLAC file")
        // The measure itself works: reading the cover does read the picture.
        let beforeCover = try Self.bytesReadByThisThread()
        #expect(try TrackReader.coverArt(path: FilePath(path)!)?.data.count == picture.count)
        #expect(try Self.bytesReadByThisThread() - beforeCover >= picture.count)
    }

    /// `rchar` of /proc/thread-self/io: bytes this thread read (tests run in parallel on other threads).
    static func bytesReadByThisThread() throws -> Int {
        let text = try String(contentsOfFile: "/proc/thread-self/io", encoding: .utf8)
        let line = text.split(separator: "\n").first { $0.hasPrefix("rchar:") } ?? ""
        return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces)) ?? 0
    }
}
