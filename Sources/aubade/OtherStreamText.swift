import DBusKit

/// One line of `aubade route --all` for an OtherStreams entry:
/// `stream 42  pacat, pid 1234, on headphones  → org.mpris.MediaPlayer2.mpv (by ancestor)`.
enum OtherStreamText {
    static func describe(_ fields: [String: DBusValue]) -> String {
        let index = fields["index"]?.asUInt32.map(String.init) ?? "?"
        var parts: [String] = []
        if let program = nonEmpty(fields["binary"]) ?? nonEmpty(fields["application"]) { parts.append(program) }
        if let pid = fields["process_id"]?.asInt32, pid > 0 { parts.append("pid \(pid)") }
        if let role = nonEmpty(fields["role"]) { parts.append("role \(role)") }
        parts.append("on " + (nonEmpty(fields["sink"]) ?? "no sink"))
        let owner = nonEmpty(fields["player"]).map { player in
            "→ \(player)" + (nonEmpty(fields["matched_by"]).map { " (by \($0))" } ?? "")
        } ?? "→ no player: left alone"
        return "stream \(index)  \(parts.joined(separator: ", "))  \(owner)"
    }

    private static func nonEmpty(_ value: DBusValue?) -> String? {
        guard let text = value?.asString, !text.isEmpty else { return nil }
        return text
    }
}
