import Foundation
import OpusKit
import VorbisKit
import Testing
@testable import Decoding
import PlayerCore
@testable import TestSupport

/// The bad corpus per Ogg format: each file gets an error or a short decode from both entry
/// points, never a crash, a hang or unbounded memory.
@Suite struct OggBadInputTests {
    typealias Codec = OggTests.Codec

    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case truncatedHalf, truncatedInHeaders, randomBehindHeader, hugeComments, noAudio
        var testDescription: String { rawValue }
    }

    /// Fixed pseudo-random bytes (an LCG): the same junk every run.
    static func junk(_ count: Int, seed: UInt32 = 12_345) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_103_515_245 &+ 12_345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
    }

    /// The first Ogg page (the codec's identification header) of `bytes`.
    static func firstPage(of bytes: [UInt8]) -> [UInt8] {
        let segments = Int(bytes[26])
        let body = bytes[27..<27 + segments].reduce(0) { $0 + Int($1) }
        return Array(bytes[..<(27 + segments + body)])
    }

    static func make(_ damage: Damage, _ codec: Codec) throws -> String {
        let dir = try Fixtures.makeDirectory()
        let good = dir + "/good.\(codec.fileExtension)"
        let path = dir + "/bad.\(codec.fileExtension)"
        switch damage {
        case .noAudio:
            try codec.make(at: path, seconds: 0, tags: [("TITLE", "Nothing")])
            return path
        case .hugeComments:
            try codec.make(at: path, seconds: 1, tags: [("TITLE", "Huge"), ("ARTIST", "Real")])
            switch codec {
            case .vorbis:
                // 50 ARTIST comments of 100 KB: 5 MB of comment header.
                try Fixtures.appendHugeVorbisComments(to: path, key: "ARTIST", count: 50, bytes: 100_000)
            case .opus:
                // A 5 MB "picture" (a PNG header and zeros) and a 100 KB ARTIST comment.
                try Fixtures.write(Fixtures.tinyPNG + [UInt8](repeating: 0, count: 5_000_000), to: dir + "/big.png")
                try Fixtures.makeOpus(at: path, seconds: 1, tags: [("TITLE", "Huge"), ("ARTIST", "Real"),
                                                                   ("ARTIST", String(repeating: "x", count: 100_000))],
                                      pictures: ["\(dir)/big.png"])
            }
            return path
        default:
            break
        }
        try codec.make(at: good, seconds: 1)
        let bytes = try Fixtures.contents(of: good)
        switch damage {
        case .truncatedHalf: try Fixtures.write(Array(bytes[..<(bytes.count / 2)]), to: path)
        case .truncatedInHeaders: try Fixtures.write(Array(bytes[..<(Self.firstPage(of: bytes).count + 20)]), to: path)
        case .randomBehindHeader: try Fixtures.write(Self.firstPage(of: bytes) + Self.junk(200_000), to: path)
        case .noAudio, .hugeComments: break
        }
        return path
    }

    @Test(arguments: Damage.allCases, Codec.allCases)
    func trackReaderFailsCleanlyOrReadsWhatIsThere(_ damage: Damage, _ codec: Codec) throws {
        let path = try Self.make(damage, codec)
        do {
            let track = try TrackReader.read(path: path)
            switch damage {
            case .hugeComments:
                #expect(track.title == "Huge")
                // The 100 KB values are skipped, not cut down and kept.
                #expect(track.artists == ["Real"])
                #expect(track.length == 1_000_000)
            case .truncatedHalf:
                #expect((track.length ?? 0) <= 1_000_000)
            default:
                Issue.record("\(damage) read as a track: \(track)")
            }
        } catch {
            #expect(damage != .hugeComments, "\(error)")
            #expect(error.path == FilePath(path))
            switch damage {
            case .noAudio: #expect(error.reason == "no audio in it")
            case .randomBehindHeader, .truncatedInHeaders: #expect(error.reason.hasPrefix(codec.notThisFormat), "\(error.reason)")
            default: break
            }
            #expect(!error.reason.isEmpty && error.reason.count < 120, "\(error.reason)")
        }
        // The cover: a picture or nothing, never a crash.
        if let cover = try? TrackReader.coverArt(path: path) {
            #expect(cover.data.count <= FLACPictureBlock.sizeLimit)
        }
    }

    /// The decoder frees the megabytes of a huge comment header as soon as it has opened the
    /// file (a playing track keeps no tags), and decodes on without them.
    @Test(arguments: Codec.allCases)
    func hugeCommentHeaderIsFreedForDecoding(_ codec: Codec) throws {
        let path = try Self.make(.hugeComments, codec)
        var before = 0, after = 0
        switch codec {
        case .vorbis:
            let file = try path.withCString { try OggVorbisFile(path: $0) }
            file.forEachComment { before += $0.count; return true }
            file.discardComments()
            file.forEachComment { after += $0.count; return true }
        case .opus:
            let file = try path.withCString { try OggOpusFile(path: $0) }
            file.forEachComment { before += $0.count; return true }
            file.discardComments()
            file.forEachComment { after += $0.count; return true }
        }
        #expect(before > 4_000_000)
        #expect(after == 0)
        let runs = try OggTests.decodeRuns(codec.decoder(path))
        #expect(runs.map(\.frames) == [codec.outputRate(44_100)])
    }

    /// Headers beyond what a 16 MiB cover needs are refused while opening: the library would
    /// keep all of them in memory, and a hostile file could make that gigabytes.
    @Test(arguments: Codec.allCases)
    func headersOverTheLimitAreRefused(_ codec: Codec) throws {
        let dir = try Fixtures.makeDirectory()
        let path = dir + "/headers.\(codec.fileExtension)"
        switch codec {
        case .vorbis:
            try Fixtures.makeVorbis(at: path, seconds: 0.5, tags: [("TITLE", "Heavy")])
            try Fixtures.appendHugeVorbisComments(to: path, count: 260, bytes: 100_000)
        case .opus:
            try Fixtures.write(Fixtures.tinyPNG + [UInt8](repeating: 0, count: 20_000_000), to: dir + "/big.png")
            try Fixtures.makeOpus(at: path, seconds: 0.5, tags: [("TITLE", "Heavy")], pictures: ["\(dir)/big.png"])
        }
        let expected = "headers larger than 24 MiB"
        let read = #expect(throws: DecodingError.self) { try TrackReader.read(path: path) }
        #expect(read?.reason == "\(codec.notThisFormat): \(expected)")
        let cover = #expect(throws: DecodingError.self) { try TrackReader.coverArt(path: path) }
        #expect(cover?.reason.hasSuffix(expected) == true, "\(cover?.reason ?? "-")")
        let open = #expect(throws: DecodingError.self) { try AudioDecoders.open(path: FilePath(path)!) }
        #expect(open?.reason.hasSuffix(expected) == true, "\(open?.reason ?? "-")")
    }

    @Test(arguments: Damage.allCases, Codec.allCases)
    func decoderFailsCleanlyOrDecodesShort(_ damage: Damage, _ codec: Codec) throws {
        let path = try Self.make(damage, codec)
        let decoder: any AudioDecoder
        do {
            decoder = try AudioDecoders.open(path: FilePath(path)!)
        } catch {
            #expect(damage != .hugeComments, "\(error)")
            return
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16_384, alignment: 16)
        defer { buffer.deallocate() }
        var frames = 0
        do {
            for _ in 0..<100_000 {
                let count = try decoder.read(into: buffer)
                if count == 0 { break }
                #expect(count % decoder.format.bytesPerFrame == 0)
                frames += count / decoder.format.bytesPerFrame
            }
        } catch {
            #expect(damage != .hugeComments, "\(error)")
        }
        #expect(frames <= 48_000, "\(frames) frames from a 1 s file")
        if damage == .hugeComments { #expect(frames == codec.outputRate(44_100)) }
        if damage == .noAudio { #expect(frames == 0) }
        // A seek in what is left: an error at most.
        _ = try? decoder.seek(to: 500_000)
    }

    /// A setup header whose first codebook parses but cannot make a Huffman tree (all 64
    /// code lengths 1): vorbisfile opens the file, the first read fails setting up the decoder
    /// (OV_EBADLINK), and libvorbis 1.3.7 keeps the half-built codebooks — a second read or a
    /// seek divided by zero in `res2_inverse` (SIGFPE, the whole daemon gone; found by
    /// DecoderFuzzTests). Every read and seek after the failure must throw instead.
    @Test func vorbisDecoderStaysFailedAfterABrokenSetupHeader() throws {
        let dir = try Fixtures.makeDirectory()
        let path = dir + "/badbook.ogg"
        try Fixtures.makeVorbis(at: path, seconds: 1)
        var bytes = try Fixtures.contents(of: path)
        // The setup packet: 0x05 "vorbis", codebook count − 1, then the first codebook: "BCV",
        // dimensions (16 bits), entries (24 bits), then bit by bit (LSB first) ordered (1),
        // sparse (1) and a 5-bit length − 1 per entry.
        let setup = try #require(bytes.indices.first { bytes[$0...].starts(with: [0x05] + Array("vorbis".utf8)) })
        let book = setup + 8
        #expect(bytes[book..<(book + 3)].elementsEqual("BCV".utf8))
        let entries = Int(bytes[book + 5]) | Int(bytes[book + 6]) << 8 | Int(bytes[book + 7]) << 16
        let flags = book + 8
        try #require(bytes[flags] & 0b11 == 0, "the first codebook is neither ordered nor sparse")
        for bit in 2..<(2 + 5 * entries) { bytes[flags + bit / 8] &= ~(UInt8(1) << UInt8(bit % 8)) }
        try Fixtures.write(FuzzMutator.withOggChecksumsFixed(bytes), to: path)

        let decoder = try VorbisDecoder(path: FilePath(path)!)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16_384, alignment: 16)
        defer { buffer.deallocate() }
        #expect(throws: DecodingError.self) { try decoder.read(into: buffer) }
        #expect(throws: DecodingError.self) { try decoder.seek(to: 500_000) }
        #expect(throws: DecodingError.self) { try decoder.read(into: buffer) }
        #expect(throws: DecodingError.self) { try decoder.read(into: buffer) }
    }
}
