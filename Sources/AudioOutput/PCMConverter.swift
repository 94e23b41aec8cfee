/// Turns one track's 16-bit PCM into the Snapcast stream's format: its channels (mono doubled,
/// stereo averaged, more channels reduced to the first two) and its rate (`RateConverter`),
/// then the user's volume. A stream has one fixed format in snapserver.conf, so every track
/// is converted, and a track of another rate follows the previous one without a gap.
///
/// One converter per track (its rate converter keeps the track's last frames as history).
struct PCMConverter {
    let input: PCMFormat
    let output: PCMFormat
    private var rate: RateConverter?
    private var floats: [Float] = []
    private var converted: [Float] = []

    init(from input: PCMFormat, to output: PCMFormat) {
        self.input = input
        self.output = output
        if input.sampleRate != output.sampleRate {
            rate = RateConverter(inputRate: input.sampleRate, outputRate: output.sampleRate, channels: output.channels)
        }
    }

    var isIdentity: Bool { input == output }

    /// Output bytes for `bytes` of input, as the rates and frame sizes go (for placing marks).
    func outputBytes(forInputBytes bytes: Int64) -> Int64 {
        let frames = Double(bytes) / Double(max(input.bytesPerFrame, 1))
        let outFrames = (frames * Double(output.sampleRate) / Double(max(input.sampleRate, 1))).rounded()
        return Int64(outFrames) * Int64(output.bytesPerFrame)
    }

    /// Converts whole input frames, appending 16-bit output to `out` with `gain` applied.
    mutating func convert(_ bytes: UnsafeRawBufferPointer, gain: SampleGain, into out: inout [UInt8]) {
        let frames = bytes.count / max(input.bytesPerFrame, 1)
        guard frames > 0 else { return }
        if isIdentity && gain.isUnity {
            out.append(contentsOf: bytes[0..<(frames * input.bytesPerFrame)])
            return
        }
        remix(bytes, frames: frames)
        if var rate {
            converted.removeAll(keepingCapacity: true)
            floats.withUnsafeBufferPointer { rate.process($0, into: &converted) }
            self.rate = rate
            append(converted, gain: gain, into: &out)
        } else {
            append(floats, gain: gain, into: &out)
        }
    }

    /// The end of the track: what the rate converter still holds.
    mutating func finish(gain: SampleGain, into out: inout [UInt8]) {
        guard var rate else { return }
        converted.removeAll(keepingCapacity: true)
        rate.finish(into: &converted)
        self.rate = rate
        append(converted, gain: gain, into: &out)
    }

    /// Input frames → Float frames in the output's channel count.
    private mutating func remix(_ bytes: UnsafeRawBufferPointer, frames: Int) {
        let inChannels = input.channels, outChannels = output.channels
        floats.removeAll(keepingCapacity: true)
        floats.reserveCapacity(frames * outChannels)
        for frame in 0..<frames {
            let base = frame * inChannels * 2
            let left = Float(bytes.loadUnaligned(fromByteOffset: base, as: Int16.self))
            let right = inChannels > 1 ? Float(bytes.loadUnaligned(fromByteOffset: base + 2, as: Int16.self)) : left
            if outChannels == 1 {
                floats.append((left + right) / 2)
            } else {
                floats.append(left)
                floats.append(right)
            }
        }
    }

    private func append(_ samples: [Float], gain: SampleGain, into out: inout [UInt8]) {
        let factor = Float(gain.q16) / 65_536
        out.reserveCapacity(out.count + samples.count * 2)
        for sample in samples {
            let value = Int16(clamping: Int((sample * factor).rounded()))
            out.append(UInt8(truncatingIfNeeded: value))
            out.append(UInt8(truncatingIfNeeded: value >> 8))
        }
    }
}
