/// PCM decoded into a buffer of the decoder's own, for a caller whose buffer is smaller than
/// the largest frame a link of the file could bring (255 channels): the library writes whole
/// frames only, and some (opusfile) answer a too-small buffer with nothing at all.
///
/// Fixed size, allocated on first use; the caller's reads take whole frames out of it.
struct PCMCarry {
    /// Bytes of the largest PCM frame Vorbis or Opus can have: 255 channels of 16 bits.
    static let largestFrameBytes = 255 * PCMFormat.bytesPerSample

    private var storage: [UInt8] = []
    private var start = 0
    private var end = 0

    var isEmpty: Bool { start >= end }

    /// Lets `decode` write into the carry (when it is empty) and keeps the bytes it reports.
    mutating func fill<Failure: Error>(
        _ decode: (UnsafeMutableRawBufferPointer) throws(Failure) -> Int
    ) throws(Failure) -> Int {
        if storage.isEmpty { storage = [UInt8](repeating: 0, count: 16 * Self.largestFrameBytes) }
        start = 0
        end = 0
        var written = 0
        var failure: Failure?
        storage.withUnsafeMutableBytes { raw in
            do throws(Failure) {
                written = try decode(raw)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        end = min(max(0, written), storage.count)
        return end
    }

    /// Moves as many whole frames of `frameBytes` as fit into `buffer`; returns the bytes moved
    /// (0 when not even one frame fits).
    mutating func drain(into buffer: UnsafeMutableRawBufferPointer, frameBytes: Int) -> Int {
        guard frameBytes > 0, let target = buffer.baseAddress else { return 0 }
        let available = end - start
        let count = min(available, buffer.count) / frameBytes * frameBytes
        guard count > 0 else { return 0 }
        storage.withUnsafeBytes { raw in
            target.copyMemory(from: raw.baseAddress! + start, byteCount: count)
        }
        start += count
        return count
    }
}
