import AudioFixtures
import Foundation
import Testing
import Decoding
import PlayerCore

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
            return (path, "not an MP3 file")
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
        #expect(error?.reason.contains(reason) == true, "reason was: \(error?.reason ?? "-")")
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
