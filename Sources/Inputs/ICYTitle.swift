public import PlayerCore

/// Reads a station's title from an ICY metadata block: `StreamTitle='Artist - Title';…`.
///
/// Stations send UTF-8, or (many old ones, and Icecast relaying a source that declared
/// ISO-8859-1) Latin-1/Windows-1252: text that is not valid UTF-8 is read as Windows-1252, so
/// "Mot\u{F6}rhead" arrives as "Motörhead", never as "Mot?rhead". Control characters are
/// dropped and the title is capped, since it goes into logs, the bus and the sound server.
public enum ICYTitle {
    /// Longer titles are cut (with "…"): no station needs more.
    public static let maximumLength = 512

    /// The title in `block`, or `nil` when the block carries none (or only an empty one).
    public static func parse(_ block: [UInt8]) -> LiveTitle? {
        // The block is NUL-padded to a multiple of 16.
        let text = block.prefix { $0 != 0 }
        let key = Array("StreamTitle='".utf8)
        guard let start = text.firstRange(of: key)?.upperBound else { return nil }
        let value = text[start...]
        // The value ends at "';" (a title may itself hold a quote: "Guns N' Roses"); a block
        // cut short ends where it ends.
        let end = value.firstRange(of: Array("';".utf8))?.lowerBound
            ?? (value.last == UInt8(ascii: "'") ? value.index(before: value.endIndex) : value.endIndex)
        let decoded = FilePath.displayString(of: value[..<end])
        let cleaned = String(String.UnicodeScalarView(decoded.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
            .trimmingASCIISpaces
        guard !cleaned.isEmpty else { return nil }
        let capped = cleaned.count > maximumLength ? String(cleaned.prefix(maximumLength)) + "…" : cleaned
        return LiveTitle(announcement: capped)
    }
}
