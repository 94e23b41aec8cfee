/// One decoded FLAC frame as libFLAC hands it to the write callback: `blockSize` samples of
/// each channel, as 32-bit integers holding `bitsPerSample`-bit values.
///
/// Only valid inside the callback (the samples are libFLAC's buffers, reused for the next
/// frame): copy what you keep, never store the block.
public struct FLACBlock {
    public let blockSize: Int
    public let channels: Int
    public let bitsPerSample: Int
    public let sampleRate: Int
    /// The stream position of the block's first sample (PCM frames from the start).
    public let firstSample: UInt64
    private let buffers: UnsafePointer<UnsafePointer<Int32>?>

    init(blockSize: Int, channels: Int, bitsPerSample: Int, sampleRate: Int, firstSample: UInt64,
         buffers: UnsafePointer<UnsafePointer<Int32>?>) {
        self.blockSize = blockSize
        self.channels = channels
        self.bitsPerSample = bitsPerSample
        self.sampleRate = sampleRate
        self.firstSample = firstSample
        self.buffers = buffers
    }

    /// The samples of `channel` (0-based, < `channels`).
    public func samples(ofChannel channel: Int) -> UnsafeBufferPointer<Int32> {
        precondition(channel >= 0 && channel < channels, "FLACBlock: no channel \(channel)")
        return UnsafeBufferPointer(start: buffers[channel], count: blockSize)
    }
}
