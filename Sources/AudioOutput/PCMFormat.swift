/// Interleaved signed 16-bit native-endian PCM: what the decoder produces and the stream plays.
public struct PCMFormat: Sendable, Equatable, Hashable {
    public var sampleRate: Int
    public var channels: Int

    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// Bytes per frame (one 16-bit sample per channel).
    public var bytesPerFrame: Int { 2 * channels }

    /// Bytes of `seconds` of audio, whole frames.
    public func bytes(seconds: Double) -> Int {
        Int((seconds * Double(sampleRate)).rounded(.down)) * bytesPerFrame
    }
}
