import Foundation
import Testing
import Decoding
import PlayerCore
@testable import TestSupport

/// The FLAC bad corpus: each file gives an error or a short decode — never a crash, a hang,
/// or memory without bound.
@Suite struct FLACBadInputTests {
    static func tone(seconds: Double = 1, tags: [String] = []) throws -> (path: String, bytes: [UInt8]) {
        let (path, _) = try FLACTests.tone(seconds: seconds, tags: tags)
        return (path, try Fixtures.contents(of: path))
    }

    /// Decodes what there is, or the error; never more frames than `limit`.
    static func decode(_ path: String) -> Result<Int, DecodingError> {
        Result { () throws(DecodingError) -> Int in
            let decoder = try AudioDecoders.open(path: FilePath(path)!)
            var frames = 0
            try withUnsafeTemporaryAllocation(byteCount: 8192, alignment: 16) { buffer throws(DecodingError) in
                for _ in 0..<10_000 {
                    let count = try decoder.read(into: buffer)
                    if count == 0 { return }
                    frames += count / decoder.format.bytesPerFrame
                }
                Issue.record("the decoder did not end")
            }
            return frames
        }
    }

    @Test func cutInHalfPlaysTheFirstHalf() throws {
        let (path, bytes) = try Self.tone(seconds: 2)
        try Fixtures.write(Array(bytes.prefix(bytes.count / 2)), to: path)
        // The length is STREAMINFO's; the audio ends where the data ends.
        #expect(try TrackReader.read(path: FilePath(path)!).length == 2_000_000)
        let frames = try Self.decode(path).get()
        #expect(frames > 20_000 && frames < 88_200, "decoded \(frames) frames of a half file")
    }

    @Test(arguments: [10, 30, 42, 60, 100])
    func cutInsideTheMetadataIsAnError(_ length: Int) throws {
        let (path, bytes) = try Self.tone(tags: ["TITLE=" + String(repeating: "t", count: 200)])
        try Fixtures.write(Array(bytes.prefix(length)), to: path)
        let error = #expect(throws: DecodingError.self) { try TrackReader.read(path: FilePath(path)!) }
        #expect(error?.reason.contains("FLAC") == true || error?.reason.contains("metadata") == true,
                "reason: \(error?.reason ?? "-")")
        switch Self.decode(path) {
        case .success(let frames): #expect(frames == 0)
        case .failure(let error): #expect(!error.reason.isEmpty)
        }
    }

    @Test func randomBytesBehindTheMagic() throws {
        let dir = try Fixtures.makeDirectory()
        var state: UInt32 = 4242
        for size in [3, 40, 65_536, 1 << 20] {
            let path = dir + "/junk-\(size).flac"
            try Fixtures.write(Array("fLaC".utf8) + (0..<size).map { _ in
                state = state &* 1_103_515_245 &+ 12345
                return UInt8(truncatingIfNeeded: state >> 16)
            }, to: path)
            let error = #expect(throws: DecodingError.self) { try TrackReader.read(path: FilePath(path)!) }
            #expect(error?.reason.hasPrefix("not a FLAC file") == true || error?.reason.contains("metadata") == true,
                    "reason: \(error?.reason ?? "-")")
            #expect(throws: DecodingError.self) { _ = try Self.decode(path).get() }
        }
    }

    @Test func junkBehindAValidStreamInfo() throws {
        // A real header, then the audio replaced by junk: no frame survives, none is invented.
        let (path, bytes) = try Self.tone()
        let (_, audioStart) = try #require(Fixtures.flacBlocks(bytes))
        var state: UInt32 = 99
        let junk = (0..<(bytes.count - audioStart)).map { _ in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
        try Fixtures.write(Array(bytes[..<audioStart]) + junk, to: path)
        switch Self.decode(path) {
        case .success(let frames): #expect(frames < 44_100)
        case .failure(let error): #expect(error.reason.contains("decoding"), "reason: \(error.reason)")
        }
    }

    @Test func damagedFramesInTheMiddleAreSteppedOver() throws {
        let (path, bytes) = try Self.tone(seconds: 2)
        var damaged = bytes
        for index in (bytes.count / 2)..<(bytes.count / 2 + 3000) { damaged[index] ^= 0x5A }
        try Fixtures.write(damaged, to: path)
        let frames = try Self.decode(path).get()
        // Whole frames around the damage are lost or silenced, the rest plays.
        #expect(frames > 60_000 && frames <= 88_200, "decoded \(frames) frames")
    }

    @Test func aHugeCommentBlockIsNotRead() throws {
        let (path, _) = try Self.tone(tags: ["TITLE=Lost"])
        let huge = "COMMENT=" + String(repeating: "x", count: 5 << 20)
        try Fixtures.replaceFLACMetadata(at: path, with: [(4, Fixtures.vorbisCommentBody(["TITLE=Lost", huge]))])
        let before = try FLACTests.bytesReadByThisThread()
        let track = try TrackReader.read(path: FilePath(path)!)
        #expect(try FLACTests.bytesReadByThisThread() - before < 1 << 20)
        #expect(track.title == nil, "the tags of a 5 MB comment block are ignored")
        #expect(track.length == 1_000_000)
        #expect(try Self.decode(path).get() == 44_100, "and the file still plays")
        #expect(try TrackReader.coverArt(path: FilePath(path)!) == nil)
    }

    @Test func manyCommentsAreCapped() throws {
        let (path, _) = try Self.tone()
        let comments = ["TITLE=Many"] + (0..<50_000).map { "ARTIST=A\($0)" }
        try Fixtures.replaceFLACMetadata(at: path, with: [(4, Fixtures.vorbisCommentBody(comments))])
        let track = try TrackReader.read(path: FilePath(path)!)
        #expect(track.title == "Many")
        #expect(track.artists.count <= VorbisCommentMapping.listLimit)
    }

    @Test func zeroLengthAudioIsNoAudio() throws {
        let dir = try Fixtures.makeDirectory()
        let raw = dir + "/empty.raw", path = dir + "/empty.flac"
        try Fixtures.write([], to: raw)
        // flac refuses an empty WAV, not empty raw input: STREAMINFO with 0 samples, no frame.
        try Fixtures.run("flac", ["--silent", "-f", "--force-raw-format", "--endian=little", "--sign=signed",
                                  "--channels=2", "--bps=16", "--sample-rate=44100", "-T", "TITLE=Nothing", "-o", path, raw])
        let error = #expect(throws: DecodingError.self) { try TrackReader.read(path: FilePath(path)!) }
        #expect(error?.reason == "no audio in it", "reason: \(error?.reason ?? "-")")
        #expect(try Self.decode(path).get() == 0)
    }

    @Test func metadataWithoutFramesIsNoAudio() throws {
        // Cut right after the metadata: STREAMINFO promises 44 100 frames, none is there.
        let (path, bytes) = try Self.tone()
        let (_, audioStart) = try #require(Fixtures.flacBlocks(bytes))
        try Fixtures.write(Array(bytes[..<audioStart]), to: path)
        let error = #expect(throws: DecodingError.self) { try TrackReader.read(path: FilePath(path)!) }
        #expect(error?.reason == "no audio in it", "reason: \(error?.reason ?? "-")")
        #expect(try Self.decode(path).get() == 0)
    }

    @Test func anID3v2TagBeforeTheMarkerIsSkipped() throws {
        let (path, bytes) = try Self.tone(tags: ["TITLE=Behind a tag"])
        try Fixtures.write(Fixtures.id3v2Tag(frames: [("TIT2", ["ID3 title"])]) + bytes, to: path)
        #expect(try TrackReader.read(path: FilePath(path)!).title == "Behind a tag")
        #expect(try Self.decode(path).get() == 44_100)
    }

    @Test func metadataOnlyWithUnknownLengthIsNoAudio() throws {
        // STREAMINFO says "length unknown" (0) and no frame follows.
        let (path, bytes) = try Self.tone()
        var (blocks, _) = try #require(Fixtures.flacBlocks(bytes))
        var info = blocks[0].body
        for index in 13..<18 { info[index] = index == 13 ? info[index] & 0xF0 : 0 }  // 36-bit total_samples = 0
        blocks[0].body = info
        var output = Array("fLaC".utf8)
        for (index, block) in blocks.enumerated() {
            output += Fixtures.flacMetadataBlock(type: block.type, body: block.body, isLast: index == blocks.count - 1)
        }
        try Fixtures.write(output, to: path)
        let error = #expect(throws: DecodingError.self) { try TrackReader.read(path: FilePath(path)!) }
        #expect(error?.reason == "no audio in it", "reason: \(error?.reason ?? "-")")
        // With its audio back, a FLAC of unknown length plays, its length unknown.
        try Fixtures.write(output + bytes[(Fixtures.flacBlocks(bytes)!.audioStart)...], to: path)
        #expect(try TrackReader.read(path: FilePath(path)!).length == nil)
        #expect(try Self.decode(path).get() == 44_100)
    }

    @Test func aFIFONamedFLACIsNotOpened() throws {
        let dir = try Fixtures.makeDirectory()
        let path = dir + "/pipe.flac"
        #expect(mkfifo(path, 0o644) == 0)
        let error = #expect(throws: DecodingError.self) { try TrackReader.read(path: FilePath(path)!) }
        #expect(error?.reason == "not a regular file")
        #expect(throws: DecodingError.self) { try FLACDecoder(path: FilePath(path)!) }
    }
}
