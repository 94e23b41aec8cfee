import Foundation

/// `parec` of a sink's monitor running in the background, noting when each 10 ms of audio
/// arrived (wall clock), so a place in the recording can be set against a D-Bus signal's time.
///
/// The capture latency is 20 ms on PulseAudio and 100 ms on PipeWire. On PipeWire a 20 ms
/// capture sets the graph's cycle to 512 frames (10.7 ms), and on a 2-core machine a cycle was
/// missed now and then — a quantum of silence in the recording, in about a third of the gapless
/// runs (the daemon's stream had not run dry: no underflow); at 100 ms, none in 6 runs. On
/// PulseAudio 100 ms costs the first ~50 ms of a track instead: the sink rewinds to play a new
/// stream at once, and its monitor cannot take back the silence it already gave. Arrival times
/// on PipeWire lag what was heard by up to ~50 ms more, well inside the timing tests' tolerances.
final class TimedRecording: @unchecked Sendable {
    static let frameRate = 44_100
    static let bytesPerFrame = 4  // s16le stereo
    /// Granularity of the arrival times: 10 ms of audio.
    static let stepBytes = frameRate / 100 * bytesPerFrame
    static let latencyMilliseconds = ProcessInfo.processInfo.environment["AUBADE_SOUND_SERVER"] == "pipewire" ? 100 : 20

    private let recorder: Subprocess
    private let lock = NSLock()
    /// (bytes received so far, when they had arrived), every `stepBytes`.
    private var arrivals: [(bytes: Int, time: Date)] = []
    private var stopped = false

    init(device: String = "headphones.monitor") throws {
        recorder = try Subprocess("parec", ["--raw", "--format=s16le", "--rate=44100", "--channels=2",
                                            "--latency-msec=\(Self.latencyMilliseconds)", "-d", device], binaryStdout: true)
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

    /// One channel's samples, already apart.
    init(samples: [Double]) {
        self.samples = samples
    }

    /// The first and last frame louder than `threshold` (nil for silence).
    func soundingRange(threshold: Double = 1000) -> ClosedRange<Int>? {
        guard let first = samples.firstIndex(where: { abs($0) > threshold }),
              let last = samples.lastIndex(where: { abs($0) > threshold }) else { return nil }
        return first...last
    }

    /// The amplitude: the 99th percentile of |x| over `range`.
    ///
    /// Counted, not sorted: recorded samples are whole numbers within 16 bits, so a histogram of
    /// their 32,769 magnitudes finds the same element as sorting them would, in one pass. The
    /// tests are built without optimization, where sorting a recording's million magnitudes
    /// through the generic sort was a tenth of the test process's CPU while tones were judged
    /// (perf, the plain integration batch). Anything else (a fraction, a value out of range) is
    /// sorted as before.
    func amplitude(in range: Range<Int>) -> Double {
        guard !range.isEmpty else { return 0 }
        let rank = Int(Double(range.count - 1) * 0.99)
        var counts = [Int](repeating: 0, count: 32_769)
        for index in range {
            let magnitude = abs(samples[index])
            guard magnitude <= 32_768, magnitude.rounded(.towardZero) == magnitude else {
                return samples[range].map(abs).sorted()[rank]
            }
            counts[Int(magnitude)] += 1
        }
        var seen = 0
        for (magnitude, count) in counts.enumerated() {
            seen += count
            if seen > rank { return Double(magnitude) }
        }
        return 32_768
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
    /// `from` for at least `confirm` crossings, and for most (80 %) of the crossings in the
    /// `sustain` seconds after it: where the pitch changed. The second condition is there for
    /// the recording's glitches: on a busy machine the sound server misses a cycle now and then
    /// (a few ms of silence, the tone's phase broken), and the odd crossings around one passed
    /// for a change of pitch 1–3 s before the real one (seen on PipeWire in CI).
    func pitchChange(in range: Range<Int>, fromHalfPeriod from: Double, toHalfPeriod to: Double, confirm: Int = 8,
                     sustain: Double = 0.2) -> Double? {
        let crossings = zeroCrossings(in: range)
        guard crossings.count > confirm + 1 else { return nil }
        let nearer = zip(crossings, crossings.dropFirst()).map { abs($1 - $0 - to) < abs($1 - $0 - from) }
        let window = sustain * Self.rate
        for index in 0..<(nearer.count - confirm) where nearer[index..<(index + confirm)].allSatisfy({ $0 }) {
            var end = index + confirm
            while end < nearer.count, crossings[end] < crossings[index] + window { end += 1 }
            let held = nearer[index..<end].filter { $0 }.count
            if Double(held) >= 0.8 * Double(end - index) { return crossings[index] }
        }
        return nil
    }
}
