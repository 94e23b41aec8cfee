import Foundation
import Testing
import Decoding
import PlayerCore
@testable import TestSupport

@Suite struct MP3DecoderTests {
    /// Decodes everything left, returning the samples (Int16, interleaved).
    static func decodeAll(_ decoder: MP3Decoder, bufferBytes: Int = 32768) throws -> [Int16] {
        var samples: [Int16] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferBytes, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try decoder.read(into: buffer)
            if count == 0 { break }
            #expect(count % decoder.format.bytesPerFrame == 0)
            samples += UnsafeRawBufferPointer(rebasing: buffer[..<count]).bindMemory(to: Int16.self)
        }
        return samples
    }

    static func threeSecondFile() throws -> String {
        let dir = try Fixtures.makeDirectory()
        let path = dir + "/three.mp3"
        try Fixtures.makeMP3(at: path, seconds: 3)
        return path
    }

    @Test func decodesExactlyLengthSamples() throws {
        let path = try Self.threeSecondFile()
        let decoder = try MP3Decoder(path: path)
        #expect(decoder.path == FilePath(path))
        #expect(decoder.format == PCMFormat(sampleRate: 44100, channels: 2))
        #expect(decoder.position == 0)
        let samples = try Self.decodeAll(decoder)
        #expect(samples.count / 2 == 132300)
        #expect(decoder.position == 3_000_000)
        // A 440 Hz sine at sox's default amplitude: real audio, not silence.
        #expect(samples.map { abs(Int($0)) }.max() ?? 0 > 10000)
        // Reads after the end keep answering 0.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
        defer { buffer.deallocate() }
        #expect(try decoder.read(into: buffer) == 0)
    }

    @Test func odddBufferSizesGiveWholeFrames() throws {
        let decoder = try MP3Decoder(path: try Self.threeSecondFile())
        let samples = try Self.decodeAll(decoder, bufferBytes: 4099)
        #expect(samples.count == 132300 * 2)
    }

    @Test func monoFile() throws {
        let dir = try Fixtures.makeDirectory()
        let path = dir + "/mono.mp3"
        try Fixtures.makeMP3(at: path, seconds: 1, rate: 22050, channels: 1)
        let decoder = try MP3Decoder(path: path)
        #expect(decoder.format == PCMFormat(sampleRate: 22050, channels: 1))
        #expect(try Self.decodeAll(decoder, bufferBytes: 1001).count == 22050)
    }

    /// A stereo stream that turns mono midway (two tag-less MP3s end to end): libmpg123 hands
    /// over the last stereo bytes together with MPG123_NEW_FORMAT; they must still count as
    /// stereo, the format changing only after them. (Counted as mono, the second of stereo
    /// made two seconds, and a mono tail could make half a stereo frame.)
    @Test func formatChangeMidwayKeepsEachReadInTheFormatSeenAfterIt() throws {
        let dir = try Fixtures.makeDirectory()
        try Fixtures.makeMP3(at: dir + "/stereo.mp3", seconds: 1, channels: 2, lameOptions: ["-t"])
        try Fixtures.makeMP3(at: dir + "/mono.mp3", seconds: 1, channels: 1, lameOptions: ["-t"])
        let path = dir + "/both.mp3"
        try Fixtures.write(try Fixtures.contents(of: dir + "/stereo.mp3") + Fixtures.contents(of: dir + "/mono.mp3"), to: path)
        let decoder = try MP3Decoder(path: path)
        #expect(decoder.format.channels == 2)
        // Large enough for the whole stereo part in one read.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var frames: [Int: Int] = [:]
        while case let count = try decoder.read(into: buffer), count > 0 {
            #expect(count % decoder.format.bytesPerFrame == 0)
            frames[decoder.format.channels, default: 0] += count / decoder.format.bytesPerFrame
        }
        // A second each, give or take the encoders' delay and padding (no tag to trim them).
        #expect(abs((frames[2] ?? 0) - 44_100) < 3_000)
        #expect(abs((frames[1] ?? 0) - 44_100) < 3_000)
    }

    @Test func seekIsSampleAccurate() throws {
        let path = try Self.threeSecondFile()
        let whole = try Self.decodeAll(try MP3Decoder(path: path))
        let decoder = try MP3Decoder(path: path)
        try decoder.seek(to: 1_500_000)
        #expect(decoder.position == 1_500_000)
        let rest = try Self.decodeAll(decoder)
        #expect(rest.count == whole.count - 66150 * 2)
        #expect(Array(rest.prefix(4096)) == Array(whole[(66150 * 2)...].prefix(4096)))
    }

    @Test func seekBackAfterTheEndPlaysAgain() throws {
        let decoder = try MP3Decoder(path: try Self.threeSecondFile())
        _ = try Self.decodeAll(decoder)
        try decoder.seek(to: 2_000_000)
        #expect(try Self.decodeAll(decoder).count == 44100 * 2)
    }

    @Test func seekIsClamped() throws {
        let decoder = try MP3Decoder(path: try Self.threeSecondFile())
        try decoder.seek(to: 60_000_000)
        #expect(decoder.position == 3_000_000)
        #expect(try Self.decodeAll(decoder).isEmpty)
        try decoder.seek(to: -5_000_000)
        #expect(decoder.position == 0)
        #expect(try Self.decodeAll(decoder).count == 132300 * 2)
    }

    @Test func decoderCanMoveToAnotherThread() async throws {
        let decoder = try MP3Decoder(path: try Self.threeSecondFile())
        let count = try await Task.detached { try Self.decodeAll(decoder).count }.value
        #expect(count == 132300 * 2)
    }
}
