/// Sample-rate conversion of interleaved Float frames: a windowed-sinc interpolator with a
/// precomputed polyphase table (32 taps, 256 phases, Blackman window, cut off below the lower
/// Nyquist frequency). Good enough that a 44.1 kHz track played into a 48 kHz Snapcast stream
/// keeps its tone (aliasing below −60 dB for music); not a mastering tool.
///
/// Streaming: `process` takes any number of frames and returns what can be computed; `finish`
/// pads the end with silence and returns the rest, so a track of N input frames gives
/// round(N × out / in) output frames and the next track joins without a gap.
struct RateConverter {
    static let taps = 32
    static let phases = 256

    let inputRate: Int
    let outputRate: Int
    let channels: Int
    private let step: Double
    private let table: [Float]
    /// Input frames not yet used up (interleaved), the first `half − 1` of them history.
    private var pending: [Float]
    /// Where the next output frame lies, in input frames from the start of `pending`.
    private var time: Double
    private var inputFrames = 0
    private var outputFrames = 0

    init(inputRate: Int, outputRate: Int, channels: Int) {
        self.inputRate = max(inputRate, 1)
        self.outputRate = max(outputRate, 1)
        self.channels = max(channels, 1)
        step = Double(self.inputRate) / Double(self.outputRate)
        table = Self.makeTable(cutoff: min(1, Double(self.outputRate) / Double(self.inputRate)) * 0.95)
        let half = Self.taps / 2
        // Frame 0 of the input sits at index half − 1, with silence before it.
        pending = [Float](repeating: 0, count: (half - 1) * self.channels)
        time = Double(half - 1)
    }

    /// Converts `input` (whole frames), appending the frames that can be computed to `output`.
    mutating func process(_ input: UnsafeBufferPointer<Float>, into output: inout [Float]) {
        pending.append(contentsOf: input)
        inputFrames += input.count / channels
        produce(into: &output, limit: nil)
    }

    /// The end of the track: the last frames, computed against silence after it.
    mutating func finish(into output: inout [Float]) {
        let expected = Int((Double(inputFrames) * Double(outputRate) / Double(inputRate)).rounded())
        pending.append(contentsOf: [Float](repeating: 0, count: Self.taps * channels))
        produce(into: &output, limit: expected)
        pending.removeAll()
    }

    private mutating func produce(into output: inout [Float], limit: Int?) {
        let half = Self.taps / 2
        let frameCount = pending.count / channels
        let channels = self.channels
        pending.withUnsafeBufferPointer { frames in
            table.withUnsafeBufferPointer { table in
                while Int(time) + half < frameCount {
                    if let limit, outputFrames >= limit { break }
                    let index = Int(time)
                    let phase = min(Int((time - Double(index)) * Double(Self.phases)), Self.phases - 1)
                    let first = index - half + 1
                    let coefficients = phase * Self.taps
                    for channel in 0..<channels {
                        var sum: Float = 0
                        var position = first * channels + channel
                        for tap in 0..<Self.taps {
                            sum += frames[position] * table[coefficients + tap]
                            position += channels
                        }
                        output.append(sum)
                    }
                    outputFrames += 1
                    time += step
                }
            }
        }
        // Drop what no later output frame needs.
        let keepFrom = max(0, Int(time) - half + 1)
        if keepFrom > 0 {
            pending.removeFirst(min(keepFrom, frameCount) * channels)
            time -= Double(min(keepFrom, frameCount))
        }
    }

    /// h(d) = c·sinc(c·d)·blackman(d), each phase normalised to unity gain.
    private static func makeTable(cutoff: Double) -> [Float] {
        let half = taps / 2
        var table = [Float](repeating: 0, count: phases * taps)
        for phase in 0..<phases {
            let fraction = Double(phase) / Double(phases)
            var row = [Double](repeating: 0, count: taps)
            for tap in 0..<taps {
                let distance = Double(tap - half + 1) - fraction
                let x = Double.pi * cutoff * distance
                let sinc = abs(distance) < 1e-9 ? 1 : sin(x) / x
                let w = (distance + Double(half)) / Double(taps)  // 0…1 across the window
                let blackman = w < 0 || w > 1 ? 0 : 0.42 - 0.5 * cos(2 * .pi * w) + 0.08 * cos(4 * .pi * w)
                row[tap] = cutoff * sinc * blackman
            }
            let sum = row.reduce(0, +)
            for tap in 0..<taps { table[phase * taps + tap] = Float(sum == 0 ? 0 : row[tap] / sum) }
        }
        return table
    }
}

#if canImport(Glibc)
import Glibc
#endif
