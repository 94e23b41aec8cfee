/// A fixed gain applied to 16-bit PCM in place (ReplayGain), in the sample path — not the
/// stream's volume, which stays the user's.
///
/// Fixed point (Q16) so a buffer costs one multiply per sample; results saturate at full scale
/// (clipping prevention lowers the gain beforehand where the peak is tagged; untagged peaks
/// can still clip, and then saturate rather than wrap).
public struct SampleGain: Sendable, Equatable {
    /// The factor × 65536; 65536 = unity.
    public let q16: Int32

    /// Gains beyond ×8 (+18 dB) are capped: no tag asks for more, and the fixed point stays
    /// far from overflow.
    public init(scale: Double) {
        let bounded = scale.isFinite ? min(max(scale, 0), 8) : 1
        q16 = Int32((bounded * 65_536).rounded())
    }

    public var isUnity: Bool { q16 == 65_536 }

    /// Scales every sample of `buffer` (`count` bytes of native-endian Int16).
    public func apply(to buffer: UnsafeMutableRawBufferPointer, count: Int) {
        guard !isUnity, count >= 2, let base = buffer.baseAddress else { return }
        let samples = base.bindMemory(to: Int16.self, capacity: min(count, buffer.count) / 2)
        let factor = Int64(q16)
        for index in 0..<(min(count, buffer.count) / 2) {
            let scaled = (Int64(samples[index]) * factor + 32_768) >> 16
            samples[index] = Int16(clamping: scaled)
        }
    }
}
