import FLACKit

/// The one decoded FLAC block that `FLACDecoder` has not handed out yet, already converted to
/// 16-bit interleaved PCM, and what libFLAC reported while producing it.
///
/// libFLAC pushes whole blocks (≤ 65535 samples per channel) from inside
/// `FLACStreamDecoder.processSingle()`; the decoder only asks for the next one when this one
/// is used up, so at most one block (≤ 1 MiB at 8 channels) is ever buffered.
final class FLACPendingBlock {
    /// Interleaved samples; `frames` PCM frames of `channels` channels.
    private(set) var samples: [Int16] = []
    private(set) var frames = 0
    /// Frames of `samples` already handed out.
    var consumed = 0
    /// The stream position of `samples`' first frame.
    private(set) var firstSample: UInt64 = 0

    var streamInfo: FLACStreamInfo?
    /// Damage libFLAC stepped over (lost sync, bad headers, CRC errors) since the last good block.
    var problemsSinceLastBlock = 0
    /// Blocks dropped because their format is not the stream's (corrupt headers that passed CRC-8).
    var mismatchedBlocks = 0

    var remaining: Int { frames - consumed }

    func clear() {
        frames = 0
        consumed = 0
    }

    /// Takes `block` in: checked against STREAMINFO, trimmed at `totalSamples` (the exact
    /// length, when known), converted to 16 bits. Returns true (keep decoding) unless told otherwise.
    func take(_ block: FLACBlock) -> Bool {
        guard let info = streamInfo, block.channels == info.channels, block.sampleRate == info.sampleRate || block.sampleRate == 0,
              (4...32).contains(block.bitsPerSample), block.blockSize > 0 else {
            mismatchedBlocks += 1
            problemsSinceLastBlock += 1
            return true
        }
        problemsSinceLastBlock = 0
        var count = block.blockSize
        if info.totalSamples > 0 {
            // Bytes after the last frame STREAMINFO counts are not part of the track.
            guard block.firstSample < info.totalSamples else { clear(); return true }
            count = Int(min(UInt64(count), info.totalSamples - block.firstSample))
        }
        let channels = block.channels
        let needed = count * channels
        if samples.count < needed { samples = [Int16](repeating: 0, count: needed) }
        let bits = block.bitsPerSample
        samples.withUnsafeMutableBufferPointer { output in
            for channel in 0..<channels {
                let input = block.samples(ofChannel: channel)
                var index = channel
                // 16-bit output: wider samples keep their top 16 bits, narrower ones are
                // scaled up (a shift, no dither: the steps are below what 16 bits can say).
                if bits >= 16 {
                    let shift = Int32(bits - 16)
                    for frame in 0..<count {
                        output[index] = Int16(truncatingIfNeeded: input[frame] >> shift)
                        index += channels
                    }
                } else {
                    let shift = Int32(16 - bits)
                    for frame in 0..<count {
                        output[index] = Int16(truncatingIfNeeded: input[frame] << shift)
                        index += channels
                    }
                }
            }
        }
        frames = count
        consumed = 0
        firstSample = block.firstSample
        return true
    }

    /// Copies up to `maxFrames` frames into `destination`; returns the frames copied.
    func copy(into destination: UnsafeMutableRawBufferPointer, maxFrames: Int, channels: Int) -> Int {
        let count = min(maxFrames, remaining)
        guard count > 0 else { return 0 }
        samples.withUnsafeBytes { source in
            let bytesPerFrame = channels * 2
            destination.baseAddress!.copyMemory(from: source.baseAddress! + consumed * bytesPerFrame,
                                                byteCount: count * bytesPerFrame)
        }
        consumed += count
        return count
    }

    /// The stream position of the next frame to hand out.
    var nextSample: UInt64 { firstSample + UInt64(consumed) }
}
