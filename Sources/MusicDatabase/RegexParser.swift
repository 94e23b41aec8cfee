/// Parses a pattern (bytes) into a `RegexNode`, PCRE-style (see `RegexNode`).
struct RegexParser {
    private let pattern: [UInt8]
    private var position = 0
    private var caseless: Bool
    private var depth = 0

    static func parse(_ pattern: String, caseless: Bool) throws(RegexError) -> RegexNode {
        let bytes = Array(pattern.utf8)
        guard bytes.count <= RegexLimits.patternBytes else {
            throw RegexError(offset: RegexLimits.patternBytes, reason: "pattern longer than \(RegexLimits.patternBytes) bytes")
        }
        var parser = RegexParser(pattern: bytes, caseless: caseless)
        let node = try parser.alternation()
        if parser.position < bytes.count {
            throw RegexError(offset: parser.position, reason: "unmatched closing parenthesis")
        }
        return node
    }

    private init(pattern: [UInt8], caseless: Bool) {
        self.pattern = pattern
        self.caseless = caseless
    }

    private var current: UInt8? { position < pattern.count ? pattern[position] : nil }

    private func fail(_ reason: String, at offset: Int? = nil) -> RegexError {
        RegexError(offset: offset ?? position, reason: reason)
    }

    private mutating func alternation() throws(RegexError) -> RegexNode {
        var branches = [try concatenation()]
        while current == UInt8(ascii: "|") {
            position += 1
            branches.append(try concatenation())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func concatenation() throws(RegexError) -> RegexNode {
        var items: [RegexNode] = []
        while let byte = current, byte != UInt8(ascii: "|"), byte != UInt8(ascii: ")") {
            guard let atom = try atom() else { continue }
            items.append(try quantified(atom))
        }
        return items.count == 1 ? items[0] : .concatenation(items)
    }

    /// One atom, or nil for something that matches nothing and takes no quantifier (a flag
    /// group such as `(?i)`, a `\E` without `\Q`).
    private mutating func atom() throws(RegexError) -> RegexNode? {
        let start = position
        let byte = pattern[position]
        position += 1
        switch byte {
        case UInt8(ascii: "."): return .bytes(.all)
        case UInt8(ascii: "^"): return .assertion(.start)
        case UInt8(ascii: "$"): return .assertion(.endOrFinalNewline)
        case UInt8(ascii: "["): return .bytes(try characterClass())
        case UInt8(ascii: "("): return try group(at: start)
        case UInt8(ascii: "\\"): return try escape()
        case UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"):
            throw fail("quantifier does not follow a repeatable item", at: start)
        default: return literal(byte)
        }
    }

    private func literal(_ byte: UInt8) -> RegexNode {
        let set = ByteSet(byte)
        return .bytes(caseless ? set.addingASCIICase() : set)
    }

    private mutating func group(at start: Int) throws(RegexError) -> RegexNode? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= RegexLimits.nesting else { throw fail("parentheses nested too deeply", at: start) }
        let savedCaseless = caseless
        if current == UInt8(ascii: "?") {
            position += 1
            switch current {
            case UInt8(ascii: ":")?:
                position += 1
            case UInt8(ascii: "#")?:
                while let byte = current, byte != UInt8(ascii: ")") { position += 1 }
                guard current != nil else { throw fail("missing ) after (?# comment") }
                position += 1
                return nil
            default:
                // Inline options: (?i) (?-i) (?s) (?i:…)
                var on = true
                while let byte = current, byte != UInt8(ascii: ")"), byte != UInt8(ascii: ":") {
                    switch byte {
                    case UInt8(ascii: "-"): on = false
                    case UInt8(ascii: "i"): caseless = on
                    case UInt8(ascii: "s"): break  // DOTALL is always on; (?-s) is not supported
                    default: throw fail("unsupported group or option (lookaround, backreference, atomic group…)")
                    }
                    position += 1
                }
                guard let end = current else { throw fail("missing closing parenthesis") }
                position += 1
                if end == UInt8(ascii: ")") { return nil }  // the options hold to the end of the enclosing group
            }
        }
        let inner = try alternation()
        guard current == UInt8(ascii: ")") else { throw fail("missing closing parenthesis", at: start) }
        position += 1
        caseless = savedCaseless
        // A group is one item: `(a*)*` is a repetition of it, not a repeated quantifier.
        return .concatenation([inner])
    }

    private mutating func quantified(_ atom: RegexNode) throws(RegexError) -> RegexNode {
        if case .assertion = atom { return atom }
        var node = atom
        while let byte = current {
            let start = position
            var bounds: (Int, Int?)
            switch byte {
            case UInt8(ascii: "*"): bounds = (0, nil); position += 1
            case UInt8(ascii: "+"): bounds = (1, nil); position += 1
            case UInt8(ascii: "?"): bounds = (0, 1); position += 1
            case UInt8(ascii: "{"):
                guard let counted = try countedBounds() else { return node }
                bounds = counted
            default: return node
            }
            if current == UInt8(ascii: "?") {
                position += 1  // lazy: the same set of matches
            } else if current == UInt8(ascii: "+") {
                throw fail("possessive quantifiers are not supported")
            }
            if case .repetition = node { throw fail("nested quantifier", at: start) }
            node = .repetition(node, min: bounds.0, max: bounds.1)
        }
        return node
    }

    /// `{n}`, `{n,}`, `{n,m}`; nil (and nothing consumed) when the brace is a literal, as PCRE
    /// reads `a{` or `a{x}`.
    private mutating func countedBounds() throws(RegexError) -> (Int, Int?)? {
        let start = position
        var index = position + 1
        func number() -> Int? {
            var value: Int?
            while index < pattern.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(pattern[index]) {
                value = min((value ?? 0) * 10 + Int(pattern[index] - UInt8(ascii: "0")), 1_000_000)
                index += 1
            }
            return value
        }
        guard let low = number() else { return nil }
        var high: Int? = low
        if index < pattern.count, pattern[index] == UInt8(ascii: ",") {
            index += 1
            high = number()
        }
        guard index < pattern.count, pattern[index] == UInt8(ascii: "}") else { return nil }
        position = index + 1
        guard low <= RegexLimits.repeatCount, (high ?? 0) <= RegexLimits.repeatCount else {
            throw fail("number too big in {} quantifier (at most \(RegexLimits.repeatCount))", at: start)
        }
        if let high, high < low { throw fail("numbers out of order in {} quantifier", at: start) }
        return (low, high)
    }

    private mutating func escape() throws(RegexError) -> RegexNode? {
        let start = position - 1
        guard let byte = current else { throw fail("\\ at end of pattern", at: start) }
        if let set = try classEscape() { return .bytes(set) }
        position += 1
        switch byte {
        case UInt8(ascii: "b"): return .assertion(.wordBoundary)
        case UInt8(ascii: "B"): return .assertion(.notWordBoundary)
        case UInt8(ascii: "A"): return .assertion(.start)
        case UInt8(ascii: "Z"): return .assertion(.endOrFinalNewline)
        case UInt8(ascii: "z"): return .assertion(.end)
        case UInt8(ascii: "E"): return nil
        case UInt8(ascii: "Q"):
            var items: [RegexNode] = []
            while position < pattern.count {
                if pattern[position] == UInt8(ascii: "\\"), position + 1 < pattern.count, pattern[position + 1] == UInt8(ascii: "E") {
                    position += 2
                    break
                }
                items.append(literal(pattern[position]))
                position += 1
            }
            return .concatenation(items)
        case UInt8(ascii: "1")...UInt8(ascii: "9"), UInt8(ascii: "g"), UInt8(ascii: "k"):
            throw fail("backreferences are not supported", at: start)
        default:
            throw fail("unrecognized character follows \\", at: start)
        }
    }

    /// An escape that stands for bytes (`\d`, `\n`, `\x41`, `\.`…), with `position` on the byte
    /// after the backslash; nil, with nothing consumed, for any other escape.
    private mutating func classEscape() throws(RegexError) -> ByteSet? {
        guard let byte = current else { return nil }
        let simple: ByteSet?
        switch byte {
        case UInt8(ascii: "d"): simple = .digits
        case UInt8(ascii: "D"): simple = ByteSet.digits.inverted()
        case UInt8(ascii: "w"): simple = .word
        case UInt8(ascii: "W"): simple = ByteSet.word.inverted()
        case UInt8(ascii: "s"): simple = .space
        case UInt8(ascii: "S"): simple = ByteSet.space.inverted()
        case UInt8(ascii: "h"): simple = .horizontalSpace
        case UInt8(ascii: "H"): simple = ByteSet.horizontalSpace.inverted()
        case UInt8(ascii: "v"): simple = .verticalSpace
        case UInt8(ascii: "V"): simple = ByteSet.verticalSpace.inverted()
        case UInt8(ascii: "t"): simple = ByteSet(9)
        case UInt8(ascii: "n"): simple = ByteSet(10)
        case UInt8(ascii: "r"): simple = ByteSet(13)
        case UInt8(ascii: "f"): simple = ByteSet(12)
        case UInt8(ascii: "e"): simple = ByteSet(27)
        case UInt8(ascii: "a"): simple = ByteSet(7)
        case UInt8(ascii: "0"): simple = ByteSet(0)
        case UInt8(ascii: "x"):
            position += 1
            return caselessSet(ByteSet(try hexEscape()))
        default:
            let isAlphanumeric = ByteSet.word.contains(byte) && byte != UInt8(ascii: "_")
            // Any other non-alphanumeric byte stands for itself.
            simple = isAlphanumeric ? nil : ByteSet(byte)
        }
        guard let simple else { return nil }
        position += 1
        return caselessSet(simple)
    }

    private func caselessSet(_ set: ByteSet) -> ByteSet { caseless ? set.addingASCIICase() : set }

    /// `\xhh` (up to two hex digits) or `\x{hh}`, `position` after the x; at most 0xFF (no UTF).
    private mutating func hexEscape() throws(RegexError) -> UInt8 {
        func hexValue(_ byte: UInt8) -> Int? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
            default: return nil
            }
        }
        var value = 0
        if current == UInt8(ascii: "{") {
            position += 1
            var digits = 0
            while let byte = current, let digit = hexValue(byte) {
                value = min(value * 16 + digit, 0x11_0000)
                digits += 1
                position += 1
            }
            guard current == UInt8(ascii: "}"), digits > 0 else { throw fail("malformed \\x{...} escape") }
            position += 1
        } else {
            var digits = 0
            while digits < 2, let byte = current, let digit = hexValue(byte) {
                value = value * 16 + digit
                digits += 1
                position += 1
            }
        }
        guard value <= 0xFF else { throw fail("character code point value in \\x{} is too large (no UTF mode)") }
        return UInt8(value)
    }

    private mutating func characterClass() throws(RegexError) -> ByteSet {
        let start = position - 1
        var set = ByteSet()
        var negated = false
        if current == UInt8(ascii: "^") {
            negated = true
            position += 1
        }
        var first = true
        while true {
            guard let byte = current else { throw fail("missing terminating ] for character class", at: start) }
            if byte == UInt8(ascii: "]") && !first { position += 1; break }
            first = false
            if byte == UInt8(ascii: "["), position + 1 < pattern.count, pattern[position + 1] == UInt8(ascii: ":") {
                set.formUnion(try posixClass())
                continue
            }
            let low: UInt8
            if byte == UInt8(ascii: "\\") {
                position += 1
                guard let escaped = try classEscape() else {
                    if current == UInt8(ascii: "b") { position += 1; set.insert(8); continue }
                    throw fail("unrecognized escape in character class")
                }
                guard let single = Self.single(escaped) else { set.formUnion(escaped); continue }
                low = single
            } else {
                low = byte
                position += 1
            }
            // A range "a-z"; a "-" before "]" is a literal.
            if current == UInt8(ascii: "-"), position + 1 < pattern.count, pattern[position + 1] != UInt8(ascii: "]") {
                position += 1
                var high = pattern[position]
                if high == UInt8(ascii: "\\") {
                    position += 1
                    guard let escaped = try classEscape(), let single = Self.single(escaped) else {
                        throw fail("invalid range in character class")
                    }
                    high = single
                } else {
                    position += 1
                }
                guard low <= high else { throw fail("range out of order in character class") }
                set.insert(low...high)
            } else {
                set.insert(low)
            }
        }
        if caseless { set = set.addingASCIICase() }
        if negated { set.invert() }
        return set
    }

    /// The byte of a set of one (possibly with its other ASCII case), for ranges.
    private static func single(_ set: ByteSet) -> UInt8? {
        var found: UInt8?
        for byte in 0...255 where set.contains(UInt8(byte)) {
            if let earlier = found, earlier | 0x20 != UInt8(byte) | 0x20 { return nil }
            if found == nil { found = UInt8(byte) }
        }
        return found
    }

    private mutating func posixClass() throws(RegexError) -> ByteSet {
        let start = position
        position += 2
        var name: [UInt8] = []
        while let byte = current, byte != UInt8(ascii: ":") { name.append(byte); position += 1 }
        guard current == UInt8(ascii: ":"), position + 1 < pattern.count, pattern[position + 1] == UInt8(ascii: "]") else {
            throw fail("malformed POSIX class", at: start)
        }
        position += 2
        var set = ByteSet()
        switch String(decoding: name, as: UTF8.self) {
        case "alpha": set.insert(UInt8(ascii: "a")...UInt8(ascii: "z")); set.insert(UInt8(ascii: "A")...UInt8(ascii: "Z"))
        case "digit": set = .digits
        case "alnum": set = ByteSet.word; set.invert(); set.insert(UInt8(ascii: "_")); set.invert()
        case "word": set = .word
        case "space": set = .space
        case "blank": set.insert(9); set.insert(32)
        case "upper": set.insert(UInt8(ascii: "A")...UInt8(ascii: "Z"))
        case "lower": set.insert(UInt8(ascii: "a")...UInt8(ascii: "z"))
        case "xdigit": set = .digits; set.insert(UInt8(ascii: "a")...UInt8(ascii: "f")); set.insert(UInt8(ascii: "A")...UInt8(ascii: "F"))
        case "punct":
            for byte in UInt8(33)...UInt8(126) where !ByteSet.word.contains(byte) || byte == UInt8(ascii: "_") { set.insert(byte) }
        case "print": set.insert(32...126)
        case "graph": set.insert(33...126)
        case "cntrl": set.insert(0...31); set.insert(127)
        case "ascii": set.insert(0...127)
        default: throw fail("unknown POSIX class name", at: start)
        }
        return set
    }
}
