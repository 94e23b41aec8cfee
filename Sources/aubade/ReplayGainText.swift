import DBusKit

/// `aubade status`'s ReplayGain line, from org.aubade.AudioSession1.ReplayGain.
enum ReplayGainText {
    /// "album gain −6.50 dB (mode auto)", "track gain +2.10 dB, lowered to keep the peak
    /// from clipping (mode track)", "none: the track has no ReplayGain tags (mode album)";
    /// nil when the mode is off (nothing to say).
    static func describe(_ fields: [String: DBusValue]) -> String? {
        guard let mode = fields["mode"]?.asString, mode != "off" else { return nil }
        let source = fields["source"]?.asString ?? "none"
        guard source != "none" else { return "none: the track has no ReplayGain tags (mode \(mode))" }
        let applied = fields["applied"]?.asDouble ?? 0
        let sign = applied < 0 ? "−" : "+"
        let magnitude = (abs(applied) * 100).rounded() / 100
        var text = "\(source) gain \(sign)\(Self.twoDecimals(magnitude)) dB"
        if fields["limitedByPeak"]?.asBool == true { text += ", lowered to keep the peak from clipping" }
        return text + " (mode \(mode))"
    }

    private static func twoDecimals(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
