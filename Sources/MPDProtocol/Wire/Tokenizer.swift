/// mpd's `Tokenizer` (`src/util/Tokenizer.cxx`): splits a line into a command word and
/// parameters, unquoted or in double quotes with backslash escapes.
///
/// White space is any byte up to 0x20 (mpd's `IsWhitespaceFast`), so control characters
/// separate words too. One pass over the bytes, no backtracking: linear in the line.
struct Tokenizer {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { position >= bytes.count }

    private static func isWhitespace(_ byte: UInt8) -> Bool { byte <= 0x20 }

    private mutating func skipWhitespace() {
        while position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
    }

    /// The command name: a letter, then letters, digits and `_` (mpd's `NextWord`).
    mutating func nextWord() throws(MPDError) -> String? {
        guard !isAtEnd else { return nil }
        guard ASCII.isLetter(bytes[position]) else { throw MPDError(.unknown, "Letter expected") }
        let start = position
        position += 1
        while position < bytes.count {
            let byte = bytes[position]
            if Self.isWhitespace(byte) { break }
            guard ASCII.isLetter(byte) || ASCII.isDigit(byte) || byte == UInt8(ascii: "_") else {
                throw MPDError(.unknown, "Invalid word character")
            }
            position += 1
        }
        let word = String(decoding: bytes[start..<position], as: UTF8.self)
        skipWhitespace()
        return word
    }

    /// The next parameter, quoted or not (mpd's `NextParam`).
    mutating func nextParameter() throws(MPDError) -> String? {
        guard !isAtEnd else { return nil }
        return bytes[position] == UInt8(ascii: "\"") ? try nextQuoted() : try nextUnquoted()
    }

    private static func isUnquotedCharacter(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'")
    }

    private mutating func nextUnquoted() throws(MPDError) -> String {
        let start = position
        while position < bytes.count, !Self.isWhitespace(bytes[position]) {
            guard Self.isUnquotedCharacter(bytes[position]) else { throw MPDError(.unknown, "Invalid unquoted character") }
            position += 1
        }
        let word = String(decoding: bytes[start..<position], as: UTF8.self)
        skipWhitespace()
        return word
    }

    private mutating func nextQuoted() throws(MPDError) -> String {
        position += 1
        var value = [UInt8]()
        while true {
            guard position < bytes.count else { throw MPDError(.unknown, "Missing closing '\"'") }
            var byte = bytes[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                // The backslash escapes whatever follows; a backslash at the end escapes nothing.
                position += 1
                guard position < bytes.count else { throw MPDError(.unknown, "Missing closing '\"'") }
                byte = bytes[position]
            }
            value.append(byte)
            position += 1
        }
        position += 1
        if position < bytes.count, !Self.isWhitespace(bytes[position]) {
            throw MPDError(.unknown, "Space expected after closing '\"'")
        }
        skipWhitespace()
        return String(decoding: value, as: UTF8.self)
    }
}
