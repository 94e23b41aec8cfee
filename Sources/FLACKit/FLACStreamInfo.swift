/// A FLAC file's STREAMINFO block: the format of its audio and, when the encoder knew it, the
/// exact number of samples per channel (`totalSamples`; 0 means unknown).
public struct FLACStreamInfo: Sendable, Equatable {
    public var sampleRate: Int
    public var channels: Int
    public var bitsPerSample: Int
    /// Inter-channel samples (PCM frames) in the stream; 0 when the encoder did not know.
    public var totalSamples: UInt64
    /// The largest block (samples per channel) the stream uses; at most 65535.
    public var maxBlockSize: Int

    public init(sampleRate: Int, channels: Int, bitsPerSample: Int, totalSamples: UInt64, maxBlockSize: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitsPerSample = bitsPerSample
        self.totalSamples = totalSamples
        self.maxBlockSize = maxBlockSize
    }

    /// What FLAC's format allows: 1–8 channels, 4–32 bits, a rate above 0.
    public var isValid: Bool {
        sampleRate > 0 && (1...8).contains(channels) && (4...32).contains(bitsPerSample)
    }
}
