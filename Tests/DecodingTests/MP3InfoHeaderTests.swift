import Foundation
import Testing
@testable import Decoding
import PlayerCore
@testable import TestSupport

/// The Xing/Info + LAME and VBRI parser, on real lame output and on hostile bytes.
@Suite struct MP3InfoHeaderTests {
    private func header(of path: String) throws -> MP3InfoHeader? {
        let head = try FileHead.read(path: FilePath(path)!, count: MP3InfoHeader.searchLength, skippingID3v2: true)
        return MP3InfoHeader.parse(head.bytes)
    }

    @Test func lameInfoFrameGivesFramesDelayAndPadding() throws {
        let path = try Fixtures.makeDirectory() + "/cbr.mp3"
        try Fixtures.makeMP3(at: path, seconds: 3, lameOptions: ["--noreplaygain", "--tt", "Tagged"])
        let info = try #require(try header(of: path))
        #expect(info.kind == .xing)
        #expect(info.samplesPerFrame == 1152)
        #expect(info.sampleRate == 44100)
        #expect(info.encoderDelay == 576)
        let padding = try #require(info.encoderPadding)
        #expect(padding > 0 && padding < 1152 * 2)
        // The trimmed count is the tone's own length.
        #expect(info.sampleCount == 132_300)
        #expect(info.replayGain == nil)
    }

    @Test func vbrXingFrameAtMPEG2Rate() throws {
        let path = try Fixtures.makeDirectory() + "/vbr.mp3"
        try Fixtures.makeMP3(at: path, seconds: 2, rate: 22050, channels: 1, lameOptions: ["-V", "4"])
        let info = try #require(try header(of: path))
        #expect(info.kind == .xing)
        #expect(info.samplesPerFrame == 576)
        #expect(info.sampleCount == 44_100)
    }

    @Test func lameReplayGainAndPeak() throws {
        let dir = try Fixtures.makeDirectory()
        let wav = dir + "/half.wav", path = dir + "/rg.mp3"
        // Half scale: lame's peak of a full-scale tone overflows (it reads ~0.68).
        try Fixtures.run("sox", ["-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "3", "sine", "440", "vol", "0.5"])
        try Fixtures.run("lame", ["--quiet", "-b", "192", "--replaygain-accurate", wav, path])
        let gain = try #require(try header(of: path)?.replayGain)
        // A −6 dBFS 440 Hz sine is louder than the 89 dB reference: lame wrote −8.5 dB.
        #expect(gain.trackGain == -8.5)
        let peak = try #require(gain.trackPeak)
        #expect(peak > 0.45 && peak < 0.52)
        #expect(gain.albumGain == nil)
    }

    @Test func xingByteCount() throws {
        let path = try Fixtures.makeDirectory() + "/bytes.mp3"
        try Fixtures.makeMP3(at: path, lameOptions: ["--noreplaygain"])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        // lame counts the whole stream, Info frame included.
        #expect(try header(of: path)?.byteCount == size)
    }

    @Test func cbrWithoutInfoFrameHasNoHeader() throws {
        let path = try Fixtures.makeDirectory() + "/plain.mp3"
        try Fixtures.makeMP3(at: path, lameOptions: ["-t"])
        #expect(try header(of: path) == nil)
    }

    @Test func replayGainFieldBits() {
        // name 1 (radio), originator 3, negative, 85 → −8.5 dB (what lame wrote for a tone).
        #expect(LAMETag.replayGainField(0x2E55)?.name == 1)
        #expect(LAMETag.replayGainField(0x2E55)?.gain == -8.5)
        // name 2 (audiophile), originator 1, positive, 32 → +3.2 dB.
        #expect(LAMETag.replayGainField(0x4420)?.gain == 3.2)
        #expect(LAMETag.replayGainField(0x4420)?.name == 2)
        // Unset name or originator: no value.
        #expect(LAMETag.replayGainField(0x0000) == nil)
        #expect(LAMETag.replayGainField(0x2055) == nil)
        #expect(LAMETag.replayGainField(0xE000 | 0x0C00 | 0x10) == nil)
    }

    /// A hand-made MPEG-1 frame (128 kb/s, 44.1 kHz, stereo: 417 bytes) holding a VBRI header.
    private static func vbriFrame(frames: UInt32) -> [UInt8] {
        var frame = [UInt8](repeating: 0, count: 417)
        frame[0...3] = [0xFF, 0xFB, 0x90, 0x00]
        var vbri = Array("VBRI".utf8) + [0, 1, 0x04, 0x36, 0, 75]
        vbri += [0, 1, 0, 0] // bytes
        vbri += withUnsafeBytes(of: frames.bigEndian, Array.init)
        frame.replaceSubrange(36..<36 + vbri.count, with: vbri)
        return frame
    }

    private static let audioFrame: [UInt8] = [0xFF, 0xFB, 0x90, 0x00] + [UInt8](repeating: 0, count: 413)

    @Test func vbriFrameCount() throws {
        let info = try #require(MP3InfoHeader.parse(Self.vbriFrame(frames: 1000) + Self.audioFrame))
        #expect(info.kind == .vbri)
        #expect(info.frameCount == 1000)
        #expect(info.sampleCount == 1_152_000)
    }

    @Test func junkBeforeTheFirstFrameIsSkipped() throws {
        // A stray sync-looking pair in the junk is no frame: no second header follows it.
        let junk: [UInt8] = [0x00, 0xFF, 0xFB, 0x90, 0x00, 0x12, 0x34] + [UInt8](repeating: 0x55, count: 100)
        let info = try #require(MP3InfoHeader.parse(junk + Self.vbriFrame(frames: 7) + Self.audioFrame))
        #expect(info.frameCount == 7)
    }

    @Test func hostileBytesNeverTrap() throws {
        let path = try Fixtures.makeDirectory() + "/real.mp3"
        try Fixtures.makeMP3(at: path, seconds: 1)
        let real = try FileHead.read(path: FilePath(path)!, count: 4096, skippingID3v2: true).bytes
        // Every truncation of a real Info frame, and of a VBRI frame.
        for cut in 0...min(real.count, 600) { _ = MP3InfoHeader.parse(Array(real.prefix(cut))) }
        let vbri = Self.vbriFrame(frames: 3)
        for cut in 0...vbri.count { _ = MP3InfoHeader.parse(Array(vbri.prefix(cut))) }
        // Random bytes, and random bytes behind a valid header and "Info".
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let noise = (0..<Int.random(in: 0...3000, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = MP3InfoHeader.parse(noise)
            var forged = Array(real.prefix(40)) + noise
            if forged.count > 36 { forged[36...39] = ArraySlice("Info".utf8) }
            _ = MP3InfoHeader.parse(forged)
        }
        // All-0xFF (every offset a sync), and a zero frame count: no length from it.
        _ = MP3InfoHeader.parse([UInt8](repeating: 0xFF, count: 5000))
        #expect(MP3InfoHeader.parse(Self.vbriFrame(frames: 0) + Self.audioFrame)?.sampleCount == nil)
    }
}
