import PlayerCore

/// The PCM that `MP3Decoder` delivers: always signed 16-bit, native endian, interleaved.
public struct PCMFormat: Sendable, Equatable {
    public var sampleRate: Int
    public var channels: Int

    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// Bytes of one sample of one channel (16-bit).
    public static let bytesPerSample = 2

    /// Bytes of one PCM frame: one sample for every channel.
    public var bytesPerFrame: Int { channels * Self.bytesPerSample }

    /// Microseconds of `frames` PCM frames (rounded to the nearest µs).
    public func duration(ofFrames frames: Int64) -> Int64 {
        guard sampleRate > 0 else { return 0 }
        let rate = Int64(sampleRate)
        let (seconds, rest) = frames.quotientAndRemainder(dividingBy: rate)
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        guard !overflow else { return frames < 0 ? .min : .max }
        return whole.saturatingAdding((rest * 1_000_000 + rate / 2) / rate)
    }

    /// The PCM frame at time `microseconds` (rounded down, so never past the time asked for).
    /// Saturates instead of overflowing: a position from outside can be anything.
    public func frames(in microseconds: Int64) -> Int64 {
        let rate = Int64(sampleRate)
        // Whole seconds and the rest apart, so the product only overflows when the answer does.
        let (seconds, rest) = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: rate)
        guard !overflow else { return microseconds < 0 ? .min : .max }
        return whole.saturatingAdding(rest * rate / 1_000_000)
    }
}
