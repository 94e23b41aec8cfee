import Foundation

/// A recorded tone, examined for gaps, clicks and changes of pitch (left channel).
public struct ToneAnalysis {
    public let samples: [Double]
    public static let rate = 44_100.0

    public init(_ recording: Data) {
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
    public init(samples: [Double]) {
        self.samples = samples
    }

    /// The first and last frame louder than `threshold` (nil for silence).
    public func soundingRange(threshold: Double = 1000) -> ClosedRange<Int>? {
        guard let first = samples.firstIndex(where: { abs($0) > threshold }),
              let last = samples.lastIndex(where: { abs($0) > threshold }) else { return nil }
        return first...last
    }

    /// The amplitude: the 99th percentile of |x| over `range`.
    ///
    /// Counted, not sorted: recorded samples are whole numbers within 16 bits, so a histogram of
    /// their 32,769 magnitudes finds the same element as sorting them would, in one pass (before
    /// this module was built optimised, sorting a recording's million magnitudes was a tenth of
    /// the test process's CPU while tones were judged). Anything else (a fraction, a value out of
    /// range) is sorted.
    public func amplitude(in range: Range<Int>) -> Double {
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
    public func quietRuns(in range: Range<Int>, threshold: Double, minimumLength: Int) -> [Range<Int>] {
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
    public func largestStep(in range: Range<Int>) -> (size: Double, at: Int) {
        var best = (size: 0.0, at: range.lowerBound)
        for index in range.dropFirst() {
            let step = abs(samples[index] - samples[index - 1])
            if step > best.size { best = (step, index) }
        }
        return best
    }

    /// Zero crossings (rising and falling) in `range`, placed between samples by linear interpolation.
    public func zeroCrossings(in range: Range<Int>) -> [Double] {
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
    public func irregularCrossings(in range: Range<Int>, expected: Double, tolerance: Double) -> [(at: Double, spacing: Double)] {
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
    public func pitchChange(in range: Range<Int>, fromHalfPeriod from: Double, toHalfPeriod to: Double, confirm: Int = 8,
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
