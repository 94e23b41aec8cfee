import Foundation
import Testing
@testable import Decoding
import PlayerCore
@testable import TestSupport

/// Files that are not playable MP3 audio must fail with a reason a user understands,
/// from both entry points.
@Suite struct BadInputTests {
    enum Case: String, CaseIterable, CustomTestStringConvertible {
        case missing, empty, randomBytes, wavRenamed, tagOnly, directory
        var testDescription: String { rawValue }
    }

    /// Makes the bad file and says which words the reason must contain.
    static func make(_ kind: Case, in dir: String) throws -> (path: String, reason: String) {
        let path = dir + "/bad.mp3"
        switch kind {
        case .missing:
            return (dir + "/does-not-exist.mp3", "file not found")
        case .empty:
            try Fixtures.write([], to: path)
            return (path, "empty file")
        case .randomBytes:
            // Fixed pseudo-random bytes (an LCG): the same junk every run, no flaky false syncs.
            var state: UInt32 = 12345
            try Fixtures.write((0..<65536).map { _ in
                state = state &* 1_103_515_245 &+ 12345
                return UInt8(truncatingIfNeeded: state >> 16)
            }, to: path)
            return (path, "not an MP3 file")
        case .wavRenamed:
            try Fixtures.makeWAV(at: dir + "/x.wav", seconds: 1)
            try FileManager.default.moveItem(atPath: dir + "/x.wav", toPath: path)
            return (path, "a WAV file: Aubade does not play WAV")
        case .tagOnly:
            try Fixtures.write(Fixtures.id3v2Tag(frames: [("TIT2", ["Only a tag"])]), to: path)
            return (path, "no audio frames")
        case .directory:
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            return (path, "directory")
        }
    }

    @Test(arguments: Case.allCases)
    func trackReaderRejects(_ kind: Case) throws {
        let dir = try Fixtures.makeDirectory()
        let (path, reason) = try Self.make(kind, in: dir)
        let error = #expect(throws: DecodingError.self) { try TrackReader.read(path: path) }
        #expect(error?.path == FilePath(path))
        #expect(error?.reason.contains(reason) == true, "reason was: \(error?.reason ?? "-")")
        #expect(error?.description.hasPrefix(path + ": ") == true)
    }

    @Test(arguments: [Case.missing, .randomBytes, .wavRenamed, .directory])
    func decoderRejectsAtOpen(_ kind: Case) throws {
        let dir = try Fixtures.makeDirectory()
        let (path, reason) = try Self.make(kind, in: dir)
        let error = #expect(throws: DecodingError.self) { try MP3Decoder(path: path) }
        // The MP3 decoder alone (the daemon sniffs first, see UnsupportedFormatTests) knows only MP3.
        let expected = kind == .wavRenamed ? "not an MP3 file" : reason
        #expect(error?.reason.contains(expected) == true, "reason was: \(error?.reason ?? "-")")
    }

    @Test(.enabled(if: getuid() != 0, "root reads files whatever their mode"))
    func unreadableFileIsPermissionDenied() throws {
        let dir = try Fixtures.makeDirectory()
        let path = dir + "/locked.mp3"
        try Fixtures.makeMP3(at: path, seconds: 1)
        chmod(path, 0)
        defer { chmod(path, 0o644) }
        let error = #expect(throws: DecodingError.self) { try TrackReader.read(path: path) }
        #expect(error?.reason == "permission denied")
    }

    @Test func truncatedFileStillReadsWhatIsThere() throws {
        let dir = try Fixtures.makeDirectory()
        let full = dir + "/full.mp3"
        try Fixtures.makeMP3(at: full, seconds: 3)
        let bytes = try Fixtures.contents(of: full)
        let path = dir + "/truncated.mp3"
        try Fixtures.write(Array(bytes[..<(bytes.count / 2)]), to: path)
        let track = try TrackReader.read(path: path)
        let length = try #require(track.length)
        #expect(length > 1_000_000 && length < 2_000_000)
        // The Info frame counted 3 s: what is left is an estimate, measured when it plays.
        #expect(track.lengthIsEstimate)
    }
}

/// Formats Aubade does not play are named, in one line, without a library's internal message:
/// an M4A was "not an MP3 file (mpg123_getformat: …)".
@Suite struct UnsupportedFormatTests {
    static let cases: [(name: String, head: [UInt8], reason: String)] = [
        ("song.wma", [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11, 0xA6, 0xD9, 0x00, 0xAA, 0x00, 0x62, 0xCE, 0x6C] + Array(repeating: 0, count: 50),
         "a WMA file (Windows Media): Aubade does not play WMA"),
        ("clip.webm", [0x1A, 0x45, 0xDF, 0xA3] + Array(repeating: 0x42, count: 60), "a Matroska or WebM file: Aubade does not play Matroska or WebM"),
        ("live.mp3", Array("#EXTM3U\n#EXT-X-TARGETDURATION:6\n".utf8),
         "an HLS playlist on disk: Aubade does not play HLS from files (HLS stations play from their http(s) URL)"),
    ]

    @Test(arguments: 0..<cases.count)
    func aFormatAubadeDoesNotPlayIsNamed(_ index: Int) throws {
        let (name, head, reason) = Self.cases[index]
        let dir = try Fixtures.makeDirectory()
        // An ID3v2 tag in front changes nothing (some tools add one to anything).
        for (label, bytes) in [("bare", head), ("tagged", Fixtures.id3v2Tag(frames: [("TIT2", ["x"])]) + head)] {
            let path = dir + "/\(label)-\(name)"
            try Fixtures.write(bytes + Array(repeating: 0, count: 4096), to: path)
            let error = #expect(throws: DecodingError.self) { try TrackReader.read(path: path) }
            #expect(error?.reason == reason, "\(label) \(name)")
            #expect(error?.description.split(separator: "\n").count == 1)
            #expect(error.map { !$0.reason.contains("mpg123") } == true)
            let opened = #expect(throws: DecodingError.self) { try AudioDecoders.open(path: FilePath(path)!) }
            #expect(opened?.reason == reason)
        }
    }

    /// M4A, M4B and ADTS heads with nothing playable behind them go to the FFmpeg helper, which
    /// says so in one line (not libmpg123's words, not "does not play").
    @Test(arguments: [
        ("song.m4a", [0, 0, 0, 0x20] + Array("ftypM4A ".utf8) + [0, 0, 2, 0] + Array("M4A mp42isom".utf8) + [0, 0, 0, 8] + Array("free".utf8)),
        ("book.m4b", [0, 0, 0, 0x18] + Array("ftypM4B ".utf8) + [0, 0, 2, 0] + Array("M4B isom".utf8)),
        ("radio.aac", [0xFF, 0xF1, 0x50, 0x80, 0x02, 0x1F, 0xFC] + Array(repeating: 0x21, count: 100)),
    ] as [(String, [UInt8])])
    func mpeg4HeadsGoToTheFFmpegHelper(name: String, head: [UInt8]) throws {
        let path = try Fixtures.makeDirectory() + "/" + name
        try Fixtures.write(head + Array(repeating: 0, count: 4096), to: path)
        #expect(try AudioFileKind.sniff(path: FilePath(path)!).usesFFmpegHelper)
        let error = #expect(throws: DecodingError.self) { try TrackReader.read(path: path) }
        #expect(error?.description.split(separator: "\n").count == 1)
        #expect(error.map { !$0.reason.contains("mpg123") && !$0.reason.contains("does not play") } == true, "\(String(describing: error))")
    }

    /// MP3 frames (MPEG-1 and MPEG-2 layer III syncs) are still MP3, not AAC.
    @Test func mp3FrameSyncsAreNotTakenForADTS() {
        for second: UInt8 in [0xFB, 0xFA, 0xF3, 0xF2, 0xE3] {
            #expect(UnsupportedFormat.reason(for: [0xFF, second, 0x90, 0x00]) == nil, "0xFF \(second)")
        }
    }
}
