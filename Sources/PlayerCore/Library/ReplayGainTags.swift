/// The ReplayGain values a file carries (Vorbis comments `REPLAYGAIN_*`, ID3 `TXXX` frames, or
/// the LAME header), as read — not yet a decision about what to apply (`ReplayGainMode`).
///
/// Gains are in dB relative to the 89 dB reference; peaks are the loudest sample as a share
/// of full scale (1.0 = 0 dBFS; a lossy file may exceed it slightly).
public struct ReplayGainTags: Sendable, Equatable, Hashable {
    public var trackGain: Double?
    public var trackPeak: Double?
    public var albumGain: Double?
    public var albumPeak: Double?

    public init(trackGain: Double? = nil, trackPeak: Double? = nil, albumGain: Double? = nil, albumPeak: Double? = nil) {
        self.trackGain = trackGain
        self.trackPeak = trackPeak
        self.albumGain = albumGain
        self.albumPeak = albumPeak
    }

    public var isEmpty: Bool { trackGain == nil && albumGain == nil }

    /// Gains outside this range are not believed (a tag of "-9999 dB" or "NaN dB" is junk).
    public static let plausibleGain: ClosedRange<Double> = -60...60
    /// Peaks outside this range are ignored (0 or negative: no information).
    public static let plausiblePeak: ClosedRange<Double> = 0.000_001...16

    /// "−6.50 dB", "+2.1 dB", "-6.5" → dB; anything else (or implausible) → nil.
    public static func gain(parsing text: String) -> Double? {
        var body = Substring(text).drop { $0 == " " || $0 == "\t" }
        while let last = body.last, last == " " || last == "\t" { body = body.dropLast() }
        if body.lowercased().hasSuffix("db") { body = body.dropLast(2) }
        while let last = body.last, last == " " { body = body.dropLast() }
        if body.hasPrefix("+") { body = body.dropFirst() }
        guard body.count <= 32, let value = Double(body), value.isFinite, plausibleGain.contains(value) else { return nil }
        return value
    }

    /// "0.988312" → 0.988312; junk or implausible → nil.
    public static func peak(parsing text: String) -> Double? {
        let body = text.trimmingSpaces
        guard body.count <= 32, let value = Double(body), value.isFinite, plausiblePeak.contains(value) else { return nil }
        return value
    }
}

extension String {
    fileprivate var trimmingSpaces: Substring {
        var body = Substring(self).drop { $0 == " " || $0 == "\t" }
        while let last = body.last, last == " " || last == "\t" { body = body.dropLast() }
        return body
    }
}
