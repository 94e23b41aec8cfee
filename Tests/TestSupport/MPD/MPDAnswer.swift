/// One answer of an MPD server as `MPDConnection` read it: its items (lines, and the bytes of
/// a binary chunk), then how it ended.
struct MPDAnswer: Equatable {
    enum Item: Equatable {
        /// A line without its newline, as bytes (mpd sends non-UTF-8 file names as they are).
        case line([UInt8])
        /// The N bytes after a `binary: N` line.
        case binary([UInt8])
    }

    enum End: Equatable {
        case ok
        /// The whole `ACK [code@index] {command} message` line.
        case ack(String)
        /// The server closed the connection (`close`, `kill`, an answer too big to buffer).
        case closed
    }

    var items: [Item] = []
    var end: End = .ok

    /// The lines, as text (bytes that are not UTF-8 shown as `\xNN`), binary chunks left out.
    var lines: [String] {
        items.compactMap { item in
            if case .line(let bytes) = item { return MPDAnswer.text(bytes) }
            return nil
        }
    }

    /// The value of the first `key: value` line with this key.
    func value(_ key: String) -> String? {
        values(key).first
    }

    /// The values of every `key: value` line with this key, in order.
    func values(_ key: String) -> [String] {
        let prefix = key + ": "
        return lines.compactMap { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : nil }
    }

    /// The bytes of every binary chunk, joined.
    var binary: [UInt8] {
        items.flatMap { item -> [UInt8] in
            if case .binary(let bytes) = item { return bytes }
            return []
        }
    }

    var isOK: Bool { end == .ok }

    /// Bytes as text: UTF-8 where they are, `\xNN` for each byte that is not.
    static func text(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var text = ""
        var index = 0
        while index < bytes.count {
            // The longest valid UTF-8 sequence starting here (1 to 4 bytes), else one escaped byte.
            var taken = false
            for length in (1...4).reversed() where index + length <= bytes.count {
                if let piece = String(validating: bytes[index..<index + length], as: UTF8.self) {
                    text += piece
                    index += length
                    taken = true
                    break
                }
            }
            if !taken {
                text += "\\x" + String(bytes[index], radix: 16, uppercase: true).leftPadded(to: 2)
                index += 1
            }
        }
        return text
    }
}

extension MPDAnswer: CustomStringConvertible {
    /// The answer as a server sent it, binary chunks shown by their size.
    var description: String {
        var out = items.map { item -> String in
            switch item {
            case .line(let bytes): return MPDAnswer.text(bytes)
            case .binary(let bytes): return "<\(bytes.count) bytes>"
            }
        }
        switch end {
        case .ok: out.append("OK")
        case .ack(let line): out.append(line)
        case .closed: out.append("<connection closed>")
        }
        return out.joined(separator: "\n")
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
