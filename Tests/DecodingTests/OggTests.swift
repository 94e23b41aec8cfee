import Foundation
import OpusKit
import Testing
import VorbisKit
@testable import Decoding
import PlayerCore
@testable import TestSupport

/// Ogg Vorbis (vorbisfile) and Opus (opusfile): exact lengths from the granule positions, seek,
/// tags, ReplayGain, covers, mislabeled names, chained files and a bad corpus per format.
@Suite struct OggTests {
    enum Codec: String, CaseIterable, CustomTestStringConvertible {
        case vorbis, opus
        var testDescription: String { rawValue }
        var fileExtension: String { self == .vorbis ? "ogg" : "opus" }
        /// Frames per second of the decoded PCM for a file made at `rate`.
        func outputRate(_ rate: Int) -> Int { self == .vorbis ? rate : 48_000 }

        func make(at path: String, seconds: Double = 1.5, rate: Int = 44_100, channels: Int = 2,
                  tags: [(String, String)] = [], frequency: Int = 440) throws {
            switch self {
            case .vorbis: try Fixtures.makeVorbis(at: path, seconds: seconds, rate: rate, channels: channels, tags: tags,
                                                  frequency: frequency)
            case .opus: try Fixtures.makeOpus(at: path, seconds: seconds, rate: rate, channels: channels, tags: tags,
                                              frequency: frequency)
            }
        }

        func decoder(_ path: String) throws(DecodingError) -> any AudioDecoder {
            switch self {
            case .vorbis: try VorbisDecoder(path: FilePath(path)!)
            case .opus: try OpusDecoder(path: FilePath(path)!)
            }
        }

        var notThisFormat: String { self == .vorbis ? "not an Ogg Vorbis file" : "not an Opus file" }
    }

    /// Everything left in `decoder`, as (format, frames) runs; checks whole frames per read.
    static func decodeRuns(_ decoder: any AudioDecoder, bufferBytes: Int = 32_768,
                           readLimit: Int = 100_000) throws -> [(format: PCMFormat, frames: Int)] {
        var runs: [(format: PCMFormat, frames: Int)] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferBytes, alignment: 16)
        defer { buffer.deallocate() }
        for _ in 0..<readLimit {
            let count = try decoder.read(into: buffer)
            if count == 0 { return runs }
            let format = decoder.format
            #expect(count % format.bytesPerFrame == 0, "a partial frame")
            if runs.last?.format == format { runs[runs.count - 1].frames += count / format.bytesPerFrame } else {
                runs.append((format, count / format.bytesPerFrame))
            }
        }
        Issue.record("the decoder did not end within \(readLimit) reads")
        return runs
    }

    static func decodeAll(_ decoder: any AudioDecoder, bufferBytes: Int = 32_768) throws -> [Int16] {
        var samples: [Int16] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferBytes, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try decoder.read(into: buffer)
            if count == 0 { return samples }
            samples += UnsafeRawBufferPointer(rebasing: buffer[..<count]).bindMemory(to: Int16.self)
        }
    }

    static func file(_ codec: Codec, _ name: String = "tone") throws -> String {
        try Fixtures.makeDirectory() + "/\(name).\(codec.fileExtension)"
    }

    // MARK: exact lengths

    @Test func vorbisOfOnePointFiveSecondsAt44100HasExactly66150Frames() throws {
        let path = try Self.file(.vorbis)
        try Fixtures.makeVorbis(at: path, seconds: 1.5, rate: 44_100, channels: 2)
        let decoder = try VorbisDecoder(path: FilePath(path)!)
        #expect(decoder.format == PCMFormat(sampleRate: 44_100, channels: 2))
        let runs = try Self.decodeRuns(decoder)
        #expect(runs.count == 1)
        #expect(runs.first?.frames == 66_150)
        #expect(try TrackReader.read(path: path).length == 1_500_000)
    }

    @Test(arguments: [(48_000, 2), (44_100, 1)])
    func opusOfOnePointFiveSecondsHasExactly72000FramesAt48kHz(rate: Int, channels: Int) throws {
        let path = try Self.file(.opus)
        try Fixtures.makeOpus(at: path, seconds: 1.5, rate: rate, channels: channels)
        let decoder = try OpusDecoder(path: FilePath(path)!)
        #expect(decoder.format == PCMFormat(sampleRate: 48_000, channels: channels))
        let runs = try Self.decodeRuns(decoder)
        #expect(runs.count == 1)
        #expect(runs.first?.frames == 72_000)
        #expect(try TrackReader.read(path: path).length == 1_500_000)
    }

    @Test(arguments: Codec.allCases)
    func tinyBuffersGetTheSameSamples(_ codec: Codec) throws {
        let path = try Self.file(codec)
        try codec.make(at: path, seconds: 0.5)
        let large = try Self.decodeAll(codec.decoder(path))
        // One stereo frame per read: smaller than a frame of the largest channel count.
        let small = try Self.decodeAll(codec.decoder(path), bufferBytes: 4)
        #expect(large.count == codec.outputRate(44_100) / 2 * 2)
        #expect(small == large)
    }

    @Test(arguments: Codec.allCases)
    func lengthIsReadFromTheEndNotTheWholeFile(_ codec: Codec) throws {
        // ~2 MB of noise; the length comes from the last page, found with a seek.
        let dir = try Fixtures.makeDirectory()
        let wav = dir + "/noise.wav", path = dir + "/noise.\(codec.fileExtension)"
        try Fixtures.run("sox", ["-q", "-n", "-r", "48000", "-c", "2", "-b", "16", wav, "synth", "40", "whitenoise", "vol", "0.5"])
        switch codec {
        case .vorbis: try Fixtures.run("oggenc", ["-Q", "-q", "8", "-o", path, wav])
        case .opus: try Fixtures.run("opusenc", ["--quiet", "--bitrate", "400", wav, path])
        }
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        #expect(size > 1 << 20, "the fixture is too small to tell: \(size) bytes")
        let bytesRead: Int64
        switch codec {
        case .vorbis:
            let file = try path.withCString { try OggVorbisFile(path: $0) }
            _ = try VorbisDecoder.links(of: file, path: FilePath(path)!)
            _ = OggComments.pairs { file.forEachComment(link: 0, $0) }
            bytesRead = file.bytesRead
        case .opus:
            let file = try path.withCString { try OggOpusFile(path: $0) }
            _ = try OpusDecoder.links(of: file, path: FilePath(path)!)
            _ = OggComments.pairs { file.forEachComment(link: 0, $0) }
            bytesRead = file.bytesRead
        }
        #expect(bytesRead <= 256 << 10, "\(bytesRead) bytes read of \(size) for the length and tags")
        #expect(try TrackReader.read(path: path).length == 40_000_000)
    }

    // MARK: seek

    @Test(arguments: Codec.allCases)
    func seekLandsOnTheExactFrame(_ codec: Codec) throws {
        let path = try Self.file(codec)
        try codec.make(at: path, seconds: 1.5)
        let decoder = try codec.decoder(path)
        let rate = codec.outputRate(44_100)
        try decoder.seek(to: 1_000_000)
        #expect(try Self.decodeRuns(decoder).first?.frames == rate / 2)
        // Back to the start after the end.
        try decoder.seek(to: -5)
        #expect(try Self.decodeRuns(decoder).first?.frames == rate * 3 / 2)
        // Past the end: nothing more, no error.
        try decoder.seek(to: .max)
        #expect(try Self.decodeRuns(decoder).isEmpty)
        try decoder.seek(to: 500_000)
        #expect(try Self.decodeRuns(decoder).first?.frames == rate)
    }

    // MARK: tags and ReplayGain

    @Test(arguments: Codec.allCases)
    func tagsWithTwoArtistsAndReplayGain(_ codec: Codec) throws {
        let path = try Self.file(codec)
        try codec.make(at: path, tags: [("TITLE", "Für Élise"), ("ARTIST", "First"), ("ARTIST", "Second"),
                                        ("ALBUM", "Album"), ("TRACKNUMBER", "3/12"), ("DISCNUMBER", "2"),
                                        ("DATE", "2009"), ("GENRE", "Rock"),
                                        ("REPLAYGAIN_TRACK_GAIN", "-6.50 dB"), ("REPLAYGAIN_TRACK_PEAK", "0.988"),
                                        ("REPLAYGAIN_ALBUM_GAIN", "-7.25 dB"), ("R128_TRACK_GAIN", "2560")])
        let track = try TrackReader.read(path: path)
        #expect(track.title == "Für Élise")
        #expect(track.artists == ["First", "Second"])
        #expect(track.album == "Album")
        #expect(track.trackNumber == 3)
        #expect(track.discNumber == 2)
        #expect(track.date == "2009")
        #expect(track.genres == ["Rock"])
        // REPLAYGAIN_* win over R128_* when both are there.
        #expect(track.replayGain == ReplayGainTags(trackGain: -6.5, trackPeak: 0.988, albumGain: -7.25))
    }

    @Test func opusR128GainsBecomeReplayGain() throws {
        let path = try Self.file(.opus)
        // −512/256 = −2 dB below −23 LUFS = +3 dB ReplayGain; 256 → +6 dB.
        try Fixtures.makeOpus(at: path, tags: [("R128_TRACK_GAIN", "-512"), ("R128_ALBUM_GAIN", "256")])
        let track = try TrackReader.read(path: path)
        #expect(track.replayGain == ReplayGainTags(trackGain: 3, albumGain: 6))
    }

    @Test func r128ValuesFromOutsideAreChecked() {
        #expect(R128Gain.replayGain(parsing: "-512") == 3)
        #expect(R128Gain.replayGain(parsing: " 0 ") == 5)
        #expect(R128Gain.replayGain(parsing: "-6 dB") == nil)
        #expect(R128Gain.replayGain(parsing: "99999999999") == nil)
        #expect(R128Gain.replayGain(parsing: "1.5") == nil)
    }

    @Test(arguments: Codec.allCases)
    func untaggedFileHasNoReplayGain(_ codec: Codec) throws {
        let path = try Self.file(codec)
        try codec.make(at: path)
        let track = try TrackReader.read(path: path)
        #expect(track.replayGain == nil)
        #expect(track.artists.isEmpty)
    }

    // MARK: covers

    @Test func vorbisCoverIsTheFrontOneElseTheFirst() throws {
        let other = Fixtures.tinyPNG + [1], front = Fixtures.tinyPNG + [2]
        let both = try Self.file(.vorbis, "both")
        try Fixtures.makeVorbis(at: both, tags: [("METADATA_BLOCK_PICTURE", Fixtures.pictureComment(type: 0, data: other)),
                                                 ("METADATA_BLOCK_PICTURE", Fixtures.pictureComment(type: 3, data: front))])
        #expect(try TrackReader.coverArt(path: both) == CoverArt(mimeType: "image/png", data: front))
        let one = try Self.file(.vorbis, "one")
        try Fixtures.makeVorbis(at: one, tags: [("METADATA_BLOCK_PICTURE", Fixtures.pictureComment(type: 0, mimeType: "image/PNG", data: other))])
        #expect(try TrackReader.coverArt(path: one) == CoverArt(mimeType: "image/png", data: other))
        // The picture is no tag: it does not show among the comments.
        #expect(try TrackReader.read(path: one).title == nil)
        let none = try Self.file(.vorbis, "none")
        try Fixtures.makeVorbis(at: none)
        #expect(try TrackReader.coverArt(path: none) == nil)
    }

    @Test func opusCoverFromOpusencPicture() throws {
        let dir = try Fixtures.makeDirectory()
        try Fixtures.write(Fixtures.tinyPNG, to: dir + "/cover.png")
        let path = dir + "/covered.opus"
        try Fixtures.makeOpus(at: path, tags: [("TITLE", "Covered")], pictures: ["3||||\(dir)/cover.png"])
        #expect(try TrackReader.coverArt(path: path) == CoverArt(mimeType: "image/png", data: Fixtures.tinyPNG))
        #expect(try TrackReader.read(path: path).title == "Covered")
        let none = dir + "/plain.opus"
        try Fixtures.makeOpus(at: none)
        #expect(try TrackReader.coverArt(path: none) == nil)
    }

    // MARK: mislabeled names

    @Test(arguments: [(Codec.opus, "mp3"), (Codec.vorbis, "flac"), (Codec.vorbis, "opus"), (Codec.opus, "ogg")])
    func mislabeledFilesPlayByTheirContent(_ codec: Codec, named fileExtension: String) throws {
        let dir = try Fixtures.makeDirectory()
        let path = dir + "/mislabeled.\(fileExtension)"
        try codec.make(at: dir + "/real.\(codec.fileExtension)", tags: [("TITLE", "Real")])
        try FileManager.default.moveItem(atPath: dir + "/real.\(codec.fileExtension)", toPath: path)
        let decoder = try AudioDecoders.open(path: FilePath(path)!)
        #expect(codec == .vorbis ? decoder is VorbisDecoder : decoder is OpusDecoder)
        #expect(try Self.decodeRuns(decoder).first?.frames == codec.outputRate(44_100) * 3 / 2)
        let track = try TrackReader.read(path: path)
        #expect(track.title == "Real")
        #expect(track.length == 1_500_000)
    }

    // MARK: special files

    /// The wrappers open the file themselves: a FIFO must not block, a directory or a missing
    /// file gets the usual words (the decoders are also used without `AudioDecoders.open`).
    @Test(arguments: Codec.allCases)
    func specialFilesAreRefusedWithoutBlocking(_ codec: Codec) throws {
        let dir = try Fixtures.makeDirectory()
        let fifo = dir + "/fifo.\(codec.fileExtension)"
        #expect(mkfifo(fifo, 0o600) == 0)
        let cases = [(fifo, "not a regular file"), (dir, "not a regular file"),
                     (dir + "/missing.\(codec.fileExtension)", "file not found")]
        for (path, reason) in cases {
            let error = #expect(throws: DecodingError.self) { try codec.decoder(path) }
            #expect(error?.reason == reason, "\(path): \(error?.reason ?? "-")")
        }
        let random = dir + "/random.\(codec.fileExtension)"
        try Fixtures.write(OggBadInputTests.junk(4_096), to: random)
        let error = #expect(throws: DecodingError.self) { try codec.decoder(random) }
        #expect(error?.reason.hasPrefix(codec.notThisFormat) == true, "\(error?.reason ?? "-")")
    }

    // MARK: chained files

    @Test(arguments: Codec.allCases)
    func chainedFileChangingFormatNeverMixesFormats(_ codec: Codec) throws {
        let dir = try Fixtures.makeDirectory()
        let first = dir + "/first.\(codec.fileExtension)", second = dir + "/second.\(codec.fileExtension)"
        try codec.make(at: first, seconds: 1, rate: 44_100, channels: 2, tags: [("TITLE", "First link")])
        try codec.make(at: second, seconds: 0.5, rate: 22_050, channels: 1, tags: [("TITLE", "Second link")])
        let chained = dir + "/chained.\(codec.fileExtension)"
        try Fixtures.write(try Fixtures.contents(of: first) + Fixtures.contents(of: second), to: chained)

        let runs = try Self.decodeRuns(codec.decoder(chained))
        let rates = codec == .vorbis ? (44_100, 22_050) : (48_000, 48_000)
        #expect(runs.map(\.format) == [PCMFormat(sampleRate: rates.0, channels: 2), PCMFormat(sampleRate: rates.1, channels: 1)])
        #expect(runs.map(\.frames) == [rates.0, rates.1 / 2])
        // A read with a buffer of exactly one stereo frame: the mono link still comes whole.
        let small = try Self.decodeRuns(codec.decoder(chained), bufferBytes: 4, readLimit: 1_000_000)
        #expect(small.map(\.frames) == [rates.0, rates.1 / 2])

        let track = try TrackReader.read(path: chained)
        #expect(track.title == "First link")
        #expect(track.length == 1_500_000)
        // A seek into the second link, 0.25 s into it.
        let decoder = try codec.decoder(chained)
        try decoder.seek(to: 1_250_000)
        #expect(decoder.format == PCMFormat(sampleRate: rates.1, channels: 1))
        #expect(try Self.decodeRuns(decoder).map(\.frames) == [rates.1 / 2 - rates.1 / 4])
    }
}
