import Foundation
import Synchronization
import XCTest
@testable import AudioOutput
import Handoff
import PlayerCore
@testable import TestSupport

/// The decode-ahead buffer between a track's decoder and the stream (issue 10, finding 5):
/// before, files were opened on the core queue and decoded under the PulseAudio lock, so a
/// slow disk froze the bus and the unplug → pause path.
final class DecodeAheadTests: XCTestCase {
    private let format = PCMFormat(sampleRate: 44100, channels: 2)

    func testASlowOpenDoesNotBlockTheReaderAndWakesItWhenOpen() throws {
        let woken = Atomic<Int>(0)
        let ahead = DecodeAhead { [format] in
            usleep(800_000)  // a disk that takes its time
            return sineSource(seconds: 1, format: format)
        }
        ahead.setWakeUp { woken.add(1, ordering: .relaxed) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let started = ContinuousClock.now
        let first = buffer.withUnsafeMutableBytes { ahead.read(into: $0) }
        XCTAssertLessThan((ContinuousClock.now - started).seconds, 0.05, "read never waits for the disk")
        XCTAssertEqual(first, .pending)
        XCTAssertEqual(ahead.status, .opening)
        XCTAssertTrue(eventually(timeout: 3) { woken.load(ordering: .relaxed) > 0 })
        XCTAssertEqual(ahead.format, format)
        XCTAssertTrue(eventually { buffer.withUnsafeMutableBytes { ahead.read(into: $0) } == .bytes(4096) })
    }

    func testTheBufferIsBounded() throws {
        let reads = Atomic<Int>(0)
        // An endless source: memory must not follow it.
        let ahead = DecodeAhead(PCMSource(format: format) { buffer in
            reads.add(1, ordering: .relaxed)
            return buffer.count - buffer.count % 4
        })
        usleep(300_000)
        let settled = reads.load(ordering: .relaxed)
        usleep(300_000)
        XCTAssertEqual(reads.load(ordering: .relaxed), settled, "decoding stops when the buffer is full")
        let chunk = DecodeAhead.chunkBytes
        let capacity = format.bytes(seconds: DecodeAhead.bufferSeconds)
        XCTAssertLessThanOrEqual(settled * chunk, capacity + chunk)
        // Reading half of it out makes the decoder go on.
        var buffer = [UInt8](repeating: 0, count: capacity / 2 + 4)
        _ = buffer.withUnsafeMutableBytes { ahead.read(into: $0) }
        XCTAssertTrue(eventually { reads.load(ordering: .relaxed) > settled })
    }

    func testAllOfATrackComesOutInOrderThenTheEnd() throws {
        let total = 300_000
        let produced = LockedState(0)
        let ahead = DecodeAhead(PCMSource(format: format) { buffer in
            produced.withLock { done in
                let count = min(total - done, buffer.count - buffer.count % 4)
                for index in 0..<count { buffer[index] = UInt8(truncatingIfNeeded: done + index) }
                done += count
                return count
            }
        })
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 6000)
        let deadline = ContinuousClock.now + .seconds(5)
        loop: while ContinuousClock.now < deadline {
            switch buffer.withUnsafeMutableBytes({ ahead.read(into: $0) }) {
            case .bytes(let count): received += buffer[0..<count]
            case .pending: usleep(1_000)
            case .end: break loop
            case let other: return XCTFail("\(other)")
            }
        }
        XCTAssertEqual(received.count, total)
        XCTAssertTrue(received.enumerated().allSatisfy { $0.element == UInt8(truncatingIfNeeded: $0.offset) })
    }

    func testAFileThatDoesNotOpenIsUnplayable() {
        struct NotThere: Error, CustomStringConvertible { var description: String { "no such file" } }
        let ahead = DecodeAhead { throw NotThere() }
        XCTAssertTrue(eventually { ahead.status == .unplayable("no such file") })
        var buffer = [UInt8](repeating: 0, count: 64)
        XCTAssertEqual(buffer.withUnsafeMutableBytes { ahead.read(into: $0) }, .unplayable("no such file"))
    }

    func testASourceWithoutAudioIsUnplayable() {
        let ahead = DecodeAhead(PCMSource(format: format) { _ in 0 })
        var buffer = [UInt8](repeating: 0, count: 64)
        XCTAssertTrue(eventually {
            buffer.withUnsafeMutableBytes { ahead.read(into: $0) } == .unplayable("no audio in it")
        })
    }

    func testASourceOpenedAtItsEndSimplyEnds() {
        // A seek to the very end, or a restored position there: nothing left is no fault.
        let ahead = DecodeAhead(fromStart: false) { [format] in PCMSource(format: format) { _ in 0 } }
        var buffer = [UInt8](repeating: 0, count: 64)
        XCTAssertTrue(eventually { buffer.withUnsafeMutableBytes { ahead.read(into: $0) } == .end })
    }

    func testRingKeepsBytesInOrderAcrossTheWrap() {
        let ring = ByteRing(capacity: 10)
        var out = [UInt8](repeating: 0, count: 10)
        XCTAssertEqual(([1, 2, 3, 4, 5, 6, 7] as [UInt8]).withUnsafeBytes { ring.write($0) }, 7)
        XCTAssertEqual(out.withUnsafeMutableBytes { ring.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<5])) }, 5)
        XCTAssertEqual(([8, 9, 10, 11, 12, 13, 14, 15, 16] as [UInt8]).withUnsafeBytes { ring.write($0) }, 8, "only what fits")
        XCTAssertEqual(out.withUnsafeMutableBytes { ring.read(into: $0) }, 10)
        XCTAssertEqual(out, [6, 7, 8, 9, 10, 11, 12, 13, 14, 15])
        XCTAssertEqual(ring.count, 0)
    }
}

/// ReplayGain in the sample path: a fixed gain on 16-bit samples, saturating.
final class SampleGainTests: XCTestCase {
    private func applied(_ scale: Double, to samples: [Int16]) -> [Int16] {
        var copy = samples
        copy.withUnsafeMutableBytes { SampleGain(scale: scale).apply(to: $0, count: $0.count) }
        return copy
    }

    func testUnityLeavesTheSamplesAsTheyAre() {
        XCTAssertTrue(SampleGain(scale: 1).isUnity)
        XCTAssertEqual(applied(1, to: [1, -1, .max, .min]), [1, -1, .max, .min])
    }

    func testHalfHalvesAndRoundsToNearest() {
        XCTAssertEqual(applied(0.5, to: [1000, -1000, 3, -3, .max, .min]), [500, -500, 2, -1, 16384, -16384])
    }

    func testAGainThatWouldClipSaturatesInsteadOfWrapping() {
        XCTAssertEqual(applied(4, to: [20_000, -20_000, 100]), [.max, .min, 400])
    }

    func testAbsurdScalesAreBounded() {
        XCTAssertEqual(SampleGain(scale: .nan).q16, 65_536)
        XCTAssertEqual(SampleGain(scale: -3).q16, 0)
        XCTAssertEqual(SampleGain(scale: 1e300).q16, 8 * 65_536)
    }

    func testOnlyTheGivenBytesAreTouched() {
        var samples: [Int16] = [1000, 1000, 1000]
        samples.withUnsafeMutableBytes { SampleGain(scale: 0.5).apply(to: $0, count: 4) }
        XCTAssertEqual(samples, [500, 500, 1000])
    }
}
