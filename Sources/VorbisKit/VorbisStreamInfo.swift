/// What one logical stream (one link of a chained Ogg file) decodes to.
public struct VorbisStreamInfo: Sendable, Equatable {
    /// Samples per second of each channel.
    public var sampleRate: Int
    public var channels: Int

    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }
}
