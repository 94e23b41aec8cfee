/// Text from outside (a bus argument, a URI, a file name), made safe to repeat in a log line, a
/// signal or an error reply.
///
/// Any client may send a 1 MiB string or one full of terminal escapes; repeated as is it would
/// flood the journal and every `aubade monitor`, forge log lines with a newline, or recolour a
/// terminal. So control characters become visible escapes (`\n`, `\x1B`, `\u{202E}`) and the
/// text is cut after `limit` Unicode scalars, ending in "…" and the original size.
/// Scalars, not Characters: a million combining marks are one Character.
public enum EchoText {
    /// The default cap: enough for any real file URI or property value, short enough for a log line.
    public static let defaultLimit = 200

    /// `text` escaped and cut to at most `limit` scalars (plus the "… (N bytes)" marker).
    /// Looks at no more than `limit` scalars, so a huge string costs no more than a short one.
    public static func safe(_ text: String, limit: Int = defaultLimit) -> String {
        var result = ""
        var kept = 0
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            let piece = escaped(scalar)
            kept += piece.unicodeScalars.count
            guard kept <= max(0, limit) else {
                result += "… (\(text.utf8.count) bytes)"
                return result
            }
            result += piece
        }
        return result
    }

    /// Only the escaping, never cut: for whole log lines, whose parts were capped where they came in.
    public static func escapingControls(_ text: String) -> String {
        // Most lines have nothing to escape: leave them as they are.
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars { result += escaped(scalar) }
        return result
    }

    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        guard needsEscape(scalar) else { return String(scalar) }
        switch scalar {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default:
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return scalar.value <= 0xFF
                ? "\\x" + (hex.count < 2 ? "0" + hex : hex)
                : "\\u{" + hex + "}"
        }
    }

    /// C0 and C1 controls and DEL, and the bidirectional overrides and isolates that reorder
    /// what a terminal shows. A backslash stays as it is: a text can look like an escape,
    /// but never becomes a real newline or escape sequence.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
