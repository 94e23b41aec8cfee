/// What one logical stream (one link of a chained Ogg file) of Opus decodes to, and its
/// identification header's fields that matter for playback.
public struct OpusStreamInfo: Sendable, Equatable {
    /// opusfile always decodes at 48 kHz, whatever rate the encoder was fed.
    public static let sampleRate = 48_000

    public var channels: Int
    /// Samples at 48 kHz the encoder put in front (opusfile drops them itself).
    public var preSkip: Int
    /// The header's output gain, Q7.8 dB; opusfile applies it by default.
    public var outputGain: Int
    /// The rate the encoder was fed (informational only).
    public var inputSampleRate: Int

    public init(channels: Int, preSkip: Int, outputGain: Int, inputSampleRate: Int) {
        self.channels = channels
        self.preSkip = preSkip
        self.outputGain = outputGain
        self.inputSampleRate = inputSampleRate
    }
}
