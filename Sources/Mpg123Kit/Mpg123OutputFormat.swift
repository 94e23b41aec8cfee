/// The PCM layout libmpg123 delivers: interleaved samples at `sampleRate`, `channels` wide,
/// each sample `bytesPerSample` bytes (2 once `forceSigned16Output()` is in effect).
public struct Mpg123OutputFormat: Sendable, Equatable {
    public var sampleRate: Int
    public var channels: Int
    public var bytesPerSample: Int

    public init(sampleRate: Int, channels: Int, bytesPerSample: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.bytesPerSample = bytesPerSample
    }

    /// Bytes of one PCM frame (one sample for every channel).
    public var bytesPerFrame: Int { channels * bytesPerSample }
}

/// What one `Mpg123Handle.read(into:)` call produced.
public struct Mpg123ReadResult: Sendable, Equatable {
    /// Bytes written to the buffer; may be non-zero even when `isEndOfStream` is set.
    public var byteCount: Int
    /// `MPG123_DONE`: the stream ended; the bytes of this call are the last ones.
    public var isEndOfStream: Bool
    /// `MPG123_NEW_FORMAT`: the output format changed; ask `outputFormat()` again.
    public var formatChanged: Bool
}
