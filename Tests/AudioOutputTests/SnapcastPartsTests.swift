@testable import AudioOutput
import Foundation
import PlayerCore
import Testing

/// The pieces of the Snapcast output that need no server: when the rooms hear what the server
/// read, the history a resume writes again, and the conversion to the stream's format.
@Suite struct SnapcastPartsTests {
    /// 48 kHz stereo 16-bit: 192 000 bytes a second.
    let timeline = HeardTimeline(buffer: 1_000_000, bytesPerSecond: 192_000)

    @Test func aByteIsHeardABufferAfterTheServerReadIt() {
        // Read up to 19 200 (0.1 s) at t = 5 s: byte 19 200 is heard at 6 s, byte 0 at 5.9 s.
        #expect(timeline.heardTime(of: 19_200, read: 19_200, at: 5_000_000) == 6_000_000)
        #expect(timeline.heardTime(of: 0, read: 19_200, at: 5_000_000) == 5_900_000)
    }

    @Test func whatIsHeardFollowsTheReadsABufferLater() {
        var timeline = self.timeline
        timeline.restart(at: 0)
        #expect(timeline.heard(at: 10_000_000) == 0, "nothing read: the run's start")
        for step in 0...50 {  // a 20 ms chunk every 20 ms from t = 1 s
            timeline.note(read: Int64(step) * 3_840, at: 1_000_000 + Int64(step) * 20_000)
        }
        #expect(timeline.heard(at: 1_500_000) == 0, "before the buffer has passed")
        #expect(timeline.heard(at: 2_500_000) == 96_000)  // read at 1.5 s, heard at 2.5 s
        #expect(timeline.heard(at: 2_510_000) == 97_920)  // inside the chunk read at 1.52 s
        #expect(timeline.heard(at: 9_000_000) == 192_000, "the server stopped reading: the last byte read")
        timeline.restart(at: 500_000)
        #expect(timeline.heard(at: 9_000_000) == 500_000)
    }

    @Test func theTimelineKeepsAboutTwoSecondsOfSamples() {
        var timeline = self.timeline
        for step in 0..<10_000 { timeline.note(read: Int64(step) * 3_840, at: Int64(step) * 20_000) }
        // Read at 199 s (step 9 950), heard at 200 s: still answered after 10 000 samples.
        #expect(timeline.heard(at: 200_000_000) == Int64(9_950) * 3_840)
    }

    @Test func theHistoryWrapsAndGivesBackTheTail() {
        var history = PCMHistory(capacity: 8)
        history.reset(at: 100)
        let first: [UInt8] = [1, 2, 3, 4, 5, 6]
        first.withUnsafeBytes { history.append($0) }
        let more: [UInt8] = [7, 8, 9, 10, 11, 12]
        more.withUnsafeBytes { history.append($0) }
        #expect(history.end == 112)
        #expect(history.start == 104)
        #expect(history.bytes(from: 106) == [7, 8, 9, 10, 11, 12])
        #expect(history.bytes(from: 0) == [5, 6, 7, 8, 9, 10, 11, 12], "clamped to what is held")
        history.truncate(to: 110)
        #expect(history.bytes(from: 104) == [5, 6, 7, 8, 9, 10])
        let big = [UInt8](0..<20)
        big.withUnsafeBytes { history.append($0) }
        #expect(history.bytes(from: 0) == Array(12..<20))
    }

    @Test func fortyFourPointOneBecomesFortyEightAtItsPitchAndLength() {
        var converter = RateConverter(inputRate: 44_100, outputRate: 48_000, channels: 1)
        let input = (0..<44_100).map { Float(10_000 * sin(2 * Double.pi * 440 * Double($0) / 44_100)) }
        var output: [Float] = []
        for start in stride(from: 0, to: input.count, by: 1_000) {
            input[start..<min(start + 1_000, input.count)].withUnsafeBufferPointer { converter.process($0, into: &output) }
        }
        converter.finish(into: &output)
        #expect(output.count == 48_000)
        let crossings = zip(output.dropFirst(100), output.dropFirst(101)).filter { ($0 < 0) != ($1 < 0) }.count
        #expect(abs(crossings - 880) <= 2, "a second of 440 Hz crosses zero 880 times, not \(crossings)")
        let peak = output[1_000..<47_000].map(abs).max() ?? 0
        #expect(abs(peak - 10_000) < 150, "the level holds: \(peak)")
    }

    @Test func channelsAreMappedAndTheVolumeApplied() {
        func convert(_ samples: [Int16], from: PCMFormat, to: PCMFormat, gain: Double = 1) -> [Int16] {
            var converter = PCMConverter(from: from, to: to)
            var out: [UInt8] = []
            samples.withUnsafeBytes { converter.convert($0, gain: SampleGain(scale: gain), into: &out) }
            return out.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        }
        let mono = PCMFormat(sampleRate: 48_000, channels: 1), stereo = PCMFormat(sampleRate: 48_000, channels: 2)
        #expect(convert([100, -200], from: mono, to: stereo) == [100, 100, -200, -200])
        #expect(convert([100, 300, -200, -400], from: stereo, to: mono) == [200, -300])
        #expect(convert([100, 300], from: stereo, to: stereo) == [100, 300])
        #expect(convert([100, 300], from: stereo, to: stereo, gain: 0.5) == [50, 150])
        #expect(convert([30_000, -30_000], from: stereo, to: stereo, gain: 2) == [32_767, -32_768])
    }
}
