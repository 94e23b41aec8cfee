import FFmpegKit

/// A track's exact length in frames, from what its container says: iTunes' `iTunSMPB` tag
/// (encoder delay, padding and the real sample count, as iTunes writes it) or else an MP4's
/// edit list (the stream's duration; FFmpeg's muxer writes one for AAC's priming samples).
/// nil when neither says (raw ADTS): the track then plays to its last decoded sample.
enum GaplessLength {
    static func frames(input: MediaInput, stream: MediaStream, outputRate: Int) -> Int64? {
        let tags = input.metadata + stream.metadata
        if let smpb = tags.first(where: { $0.key.lowercased() == "itunsmpb" })?.value, let count = iTunSMPBCount(smpb), count > 0 {
            return count
        }
        guard input.formatName.contains("mp4"), let duration = stream.duration, stream.timeBase.denominator > 0 else { return nil }
        // duration × rate × num / den, exact in integers for the usual time base (1/rate).
        let (numerator, denominator) = (Int64(stream.timeBase.numerator), Int64(stream.timeBase.denominator))
        let (product, overflow) = duration.multipliedReportingOverflow(by: Int64(outputRate) * numerator)
        guard !overflow else { return nil }
        return (product + denominator / 2) / denominator
    }

    /// " 00000000 00000840 000001CA 00000000000BC6A6 …": the fourth field is the sample count.
    static func iTunSMPBCount(_ value: String) -> Int64? {
        let fields = value.split(separator: " ")
        guard fields.count >= 4, fields[3].count <= 16 else { return nil }
        return Int64(fields[3], radix: 16)
    }
}
