import PlayerCore

/// Opus's loudness comments (RFC 7845 §5.2.1): R128_TRACK_GAIN and R128_ALBUM_GAIN, a signed
/// Q7.8 fixed-point number of dB (an integer in 1/256 dB) that brings the track to −23 LUFS
/// (EBU R128). ReplayGain's reference is 5 dB louder (−18 LUFS ≈ 89 dB SPL), so
/// ReplayGain dB = value / 256 + 5.
enum R128Gain {
    /// Offset between R128's −23 LUFS reference and ReplayGain's.
    static let referenceOffset = 5.0

    /// The ReplayGain dB of one R128 value: a decimal integer in −32768…32767, nothing else.
    static func replayGain(parsing text: String) -> Double? {
        let body = text.trimmingCharacters(in: " \t")
        guard body.count <= 8, let value = Int(body), (-32_768...32_767).contains(value) else { return nil }
        let gain = Double(value) / 256 + referenceOffset
        return ReplayGainTags.plausibleGain.contains(gain) ? gain : nil
    }

    /// The gains of `comments` (keys case-insensitive, the first value of each counts).
    /// Opus has no peak values.
    static func replayGain(comments: [(key: String, value: String)]) -> ReplayGainTags {
        func first(_ key: String) -> String? { comments.first { $0.key.uppercased() == key }?.value }
        return ReplayGainTags(trackGain: first("R128_TRACK_GAIN").flatMap(replayGain(parsing:)),
                              albumGain: first("R128_ALBUM_GAIN").flatMap(replayGain(parsing:)))
    }
}

extension String {
    /// Without the leading and trailing characters that are in `set`.
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice.removeFirst() }
        while let last = slice.last, set.contains(last) { slice.removeLast() }
        return slice
    }
}
