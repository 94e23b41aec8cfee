import Foundation

/// `parec` of a sink's monitor running in the background, noting when each 10 ms of audio
/// arrived (wall clock), so a place in the recording can be set against a D-Bus signal's time.
final class TimedRecording: @unchecked Sendable {
    static let frameRate = 44_100
    static let bytesPerFrame = 4  // s16le stereo
    /// Granularity of the arrival times: 10 ms of audio.
    static let stepBytes = frameRate / 100 * bytesPerFrame

    private let recorder: Subprocess
    private let lock = NSLock()
    /// (bytes received so far, when they had arrived), every `stepBytes`.
    private var arrivals: [(bytes: Int, time: Date)] = []
    private var stopped = false

    init(device: String = "headphones.monitor") throws {
        recorder = try Subprocess("parec", ["--raw", "--format=s16le", "--rate=44100", "--channels=2",
                                            "--latency-msec=20", "-d", device], binaryStdout: true)
        let thread = Thread { [self] in
            var next = TimedRecording.stepBytes
            while !lock.withLock({ stopped }) {
                if recorder.stdout.waitForByteCount(next, timeout: 0.5) {
                    let now = Date()
                    lock.withLock { arrivals.append((next, now)) }
                    next += TimedRecording.stepBytes
                } else if recorder.stdout.isClosed {
                    break
                }
            }
        }
        thread.start()
    }

    var byteCount: Int { lock.withLock { arrivals.last?.bytes ?? 0 } }
    var seconds: Double { Double(byteCount) / Double(TimedRecording.frameRate * TimedRecording.bytesPerFrame) }

    /// Waits until `seconds` of audio arrived; false on timeout.
    func waitForSeconds(_ seconds: Double, timeout: TimeInterval) -> Bool {
        recorder.stdout.waitForByteCount(Int(seconds * Double(TimedRecording.frameRate * TimedRecording.bytesPerFrame)),
                                         timeout: timeout)
    }

    /// Stops parec and returns the recording.
    func stop() -> Data {
        lock.withLock { stopped = true }
        recorder.stop(signal: SIGINT, grace: 2)
        return recorder.stdout.data
    }

    /// When the 10 ms step holding `frame` had arrived (its arrival, not its playing: parec's
    /// latency, ≤ ~20–40 ms, comes before it).
    func arrival(ofFrame frame: Int) -> Date? {
        let byte = frame * TimedRecording.bytesPerFrame
        return lock.withLock { arrivals.first { $0.bytes > byte }?.time }
    }
}

/// A recorded tone, examined for gaps, clicks and changes of pitch (left channel).
struct ToneAnalysis {
    let samples: [Double]
    static let rate = 44_100.0

    init(_ recording: Data) {
        var left: [Double] = []
        left.reserveCapacity(recording.count / 4)
        recording.withUnsafeBytes { buffer in
            for offset in stride(from: 0, to: buffer.count - 3, by: 4) {
                left.append(Double(Int16(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: Int16.self))))
            }
        }
        samples = left
    }

    /// The first and last frame louder than `threshold` (nil for silence).
    func soundingRange(threshold: Double = 1000) -> ClosedRange<Int>? {
        guard let first = samples.firstIndex(where: { abs($0) > threshold }),
              let last = samples.lastIndex(where: { abs($0) > threshold }) else { return nil }
        return first...last
    }

    /// The amplitude: the 99th percentile of |x| over `range`.
    func amplitude(in range: Range<Int>) -> Double {
        let magnitudes = samples[range].map(abs).sorted()
        guard !magnitudes.isEmpty else { return 0 }
        return magnitudes[Int(Double(magnitudes.count - 1) * 0.99)]
    }

    /// Runs of at least `minimumLength` consecutive samples quieter than `threshold`, as ranges.
    func quietRuns(in range: Range<Int>, threshold: Double, minimumLength: Int) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start: Int?
        for index in range {
            if abs(samples[index]) < threshold {
                if start == nil { start = index }
            } else if let begun = start {
                if index - begun >= minimumLength { runs.append(begun..<index) }
                start = nil
            }
        }
        if let begun = start, range.upperBound - begun >= minimumLength { runs.append(begun..<range.upperBound) }
        return runs
    }

    /// The largest |x[n] − x[n−1]| in `range`, and where.
    func largestStep(in range: Range<Int>) -> (size: Double, at: Int) {
        var best = (size: 0.0, at: range.lowerBound)
        for index in range.dropFirst() {
            let step = abs(samples[index] - samples[index - 1])
            if step > best.size { best = (step, index) }
        }
        return best
    }

    /// Zero crossings (rising and falling) in `range`, placed between samples by linear interpolation.
    func zeroCrossings(in range: Range<Int>) -> [Double] {
        var crossings: [Double] = []
        for index in range.dropFirst() {
            let (a, b) = (samples[index - 1], samples[index])
            if (a < 0 && b >= 0) || (a >= 0 && b < 0) {
                crossings.append(Double(index - 1) + a / (a - b))
            }
        }
        return crossings
    }

    /// Spacings between consecutive zero crossings that differ from `expected` by more than
    /// `tolerance` samples: (where, spacing).
    func irregularCrossings(in range: Range<Int>, expected: Double, tolerance: Double) -> [(at: Double, spacing: Double)] {
        let crossings = zeroCrossings(in: range)
        return zip(crossings, crossings.dropFirst()).compactMap { previous, next in
            abs(next - previous - expected) > tolerance ? (previous, next - previous) : nil
        }
    }

    /// The first zero crossing in `range` after which the half-periods are nearer `to` than
    /// `from` for at least `confirm` crossings: where the pitch changed.
    func pitchChange(in range: Range<Int>, fromHalfPeriod from: Double, toHalfPeriod to: Double, confirm: Int = 8) -> Double? {
        let crossings = zeroCrossings(in: range)
        guard crossings.count > confirm + 1 else { return nil }
        let spacings = zip(crossings, crossings.dropFirst()).map { $1 - $0 }
        for index in 0..<(spacings.count - confirm) {
            if spacings[index..<(index + confirm)].allSatisfy({ abs($0 - to) < abs($0 - from) }) {
                return crossings[index]
            }
        }
        return nil
    }
}
