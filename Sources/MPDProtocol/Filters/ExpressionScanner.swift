import MusicDatabase
import PlayerCore

/// mpd's recursive `SongFilter::ParseExpression` over the bytes of one argument, step for step
/// (including where it skips white space and where it does not: after the `)` closing an `AND`
/// group it does not, so `((a == 'x') AND (b == 'y')) ` with a trailing space is garbage).
struct ExpressionScanner {
    private let bytes: [UInt8]
    private var position = 0
    private let foldCase: Bool

    /// mpd copies a quoted value into a 4096-byte buffer and refuses it when full.
    static let maximumValueLength = 4095

    init(_ bytes: [UInt8], foldCase: Bool) {
        self.bytes = bytes
        self.foldCase = foldCase
    }

    var isAtEnd: Bool { position >= bytes.count }

    /// The byte at `offset` from here, 0 past the end (mpd reads the C string's terminator).
    private func byte(_ offset: Int = 0) -> UInt8 {
        position + offset < bytes.count ? bytes[position + offset] : 0
    }

    /// mpd's `StripLeft`: bytes 0x01…0x20.
    private mutating func skipWhitespace() {
        while position < bytes.count, bytes[position] > 0, bytes[position] <= 0x20 { position += 1 }
    }

    private static func error(_ message: String) -> MPDError { MPDError(.argument, message) }

    /// One `( … )` expression, the scanner on its `(`.
    mutating func parseExpression(depth: Int) throws(MPDError) -> SongFilter {
        guard depth <= FilterParser.maximumDepth else { throw Self.error("Expression nested too deeply") }
        position += 1
        skipWhitespace()

        if byte() == UInt8(ascii: "(") {
            let first = try parseExpression(depth: depth + 1)
            if byte() == UInt8(ascii: ")") {
                position += 1
                return first
            }
            guard try expectWord() == "AND" else { throw Self.error("'AND' expected") }
            var items = [first]
            while true {
                // mpd parses the next operand without checking for its `(` (the assert is
                // compiled out): whatever byte stands there is skipped as if it were one.
                items.append(try parseExpression(depth: depth + 1))
                if byte() == UInt8(ascii: ")") {
                    position += 1
                    return .and(items)
                }
                guard try expectWord() == "AND" else { throw Self.error("'AND' expected") }
            }
        }
        return try parseInner(depth: depth)
    }

    /// After `(` and white space: a negation or a comparison.
    private mutating func parseInner(depth: Int) throws(MPDError) -> SongFilter {
        if byte() == UInt8(ascii: "!") {
            position += 1
            skipWhitespace()
            guard byte() == UInt8(ascii: "(") else { throw Self.error("'(' expected") }
            let inner = try parseExpression(depth: depth + 1)
            try expectClosingParenthesis()
            return .not(inner)
        }

        let type = try expectFilterType()
        switch type {
        case .modifiedSince:
            let value = try expectQuoted()
            try expectClosingParenthesis()
            return .modifiedSince(try TimestampParser.parse(value))
        case .base:
            let value = try expectQuoted()
            try expectClosingParenthesis()
            return .base(value)
        case .audioFormat:
            let isMask: Bool
            if byte() == UInt8(ascii: "="), byte(1) == UInt8(ascii: "=") {
                isMask = false
            } else if byte() == UInt8(ascii: "="), byte(1) == UInt8(ascii: "~") {
                isMask = true
            } else {
                throw Self.error("'==' or '=~' expected")
            }
            position += 2
            skipWhitespace()
            let pattern = try AudioFormatParser.parse(try expectQuoted(), isMask: isMask)
            try expectClosingParenthesis()
            return pattern.map(SongFilter.audioFormat) ?? FilterParser.matchesNothing
        case .file, .any, .tag:
            let match = try parseStringMatch()
            try expectClosingParenthesis()
            switch type {
            case .file: return .uri(match)
            case .tag(let kind): return .tag(.kind(kind), match)
            default: return .tag(.any, match)
            }
        }
    }

    private mutating func expectClosingParenthesis() throws(MPDError) {
        guard byte() == UInt8(ascii: ")") else { throw Self.error("')' expected") }
        position += 1
        skipWhitespace()
    }

    /// Letters, `_` and `-` (no digits: mpd's `IsTagNameChar`), then white space.
    private mutating func expectWord() throws(MPDError) -> String {
        let start = position
        while position < bytes.count, ASCII.isLetter(bytes[position]) || bytes[position] == UInt8(ascii: "_") || bytes[position] == UInt8(ascii: "-") {
            position += 1
        }
        guard position > start else { throw Self.error("Word expected") }
        let word = String(decoding: bytes[start..<position], as: UTF8.self)
        skipWhitespace()
        return word
    }

    private mutating func expectFilterType() throws(MPDError) -> FilterType {
        let word = try expectWord()
        guard let type = FilterType(word) else {
            throw MPDError(.argument, String(cString: "Unknown filter type: \(word)", truncatedTo: 1023))
        }
        return type
    }

    /// `'…'` or `"…"`, a backslash escaping the next byte; then white space.
    private mutating func expectQuoted() throws(MPDError) -> String {
        let quote = byte()
        position += 1
        guard quote == UInt8(ascii: "'") || quote == UInt8(ascii: "\"") else { throw Self.error("Quoted string expected") }
        var value = [UInt8]()
        while byte() != quote {
            if byte() == UInt8(ascii: "\\") { position += 1 }
            guard position < bytes.count else { throw Self.error("Closing quote not found") }
            value.append(bytes[position])
            position += 1
            guard value.count <= Self.maximumValueLength else { throw Self.error("Quoted value is too long") }
        }
        position += 1
        skipWhitespace()
        return String(decoding: value, as: UTF8.self)
    }

    /// The operator and value of a tag or URI comparison (mpd's `ParseStringFilter`).
    private mutating func parseStringMatch() throws(MPDError) -> StringMatch {
        if skipPrefixIgnoringCase("contains ") {
            skipWhitespace()
            return StringMatch(try expectQuoted(), foldCase: foldCase, substring: true)
        }
        if skipPrefixIgnoringCase("!contains ") {
            skipWhitespace()
            return StringMatch(try expectQuoted(), foldCase: foldCase, substring: true, negated: true)
        }
        if byte() == UInt8(ascii: "!") || byte() == UInt8(ascii: "="), byte(1) == UInt8(ascii: "~") {
            let negated = byte() == UInt8(ascii: "!")
            position += 2
            skipWhitespace()
            let pattern = try expectQuoted()
            try RegexCheck.validate(pattern, foldCase: foldCase)
            return StringMatch(pattern, foldCase: foldCase, isRegex: true, negated: negated)
        }
        let negated: Bool
        if byte() == UInt8(ascii: "!"), byte(1) == UInt8(ascii: "=") {
            negated = true
        } else if byte() == UInt8(ascii: "="), byte(1) == UInt8(ascii: "=") {
            negated = false
        } else {
            throw Self.error("'==' or '!=' expected")
        }
        position += 2
        skipWhitespace()
        return StringMatch(try expectQuoted(), foldCase: foldCase, negated: negated)
    }

    private mutating func skipPrefixIgnoringCase(_ prefix: String) -> Bool {
        let length = prefix.utf8.count
        guard position + length <= bytes.count,
              ASCII.equalsIgnoringCase(String(decoding: bytes[position..<(position + length)], as: UTF8.self), prefix)
        else { return false }
        position += length
        return true
    }
}
