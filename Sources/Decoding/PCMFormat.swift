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
        return (frames * 1_000_000 + rate / 2) / rate
    }

    /// The PCM frame at time `microseconds` (rounded down, so never past the time asked for).
    public func frames(in microseconds: Int64) -> Int64 {
        microseconds * Int64(sampleRate) / 1_000_000
    }
}
