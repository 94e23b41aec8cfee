import Foundation

/// A D-Bus value as `dbus-send --print-reply` and `dbus-monitor` print it, with its wire type,
/// so tests can check types exactly (`x` for mpris:length, `as` for xesam:artist, …).
indirect enum DBusValue: Equatable, CustomStringConvertible {
    case string(String)
    case objectPath(String)
    case signature(String)
    /// byte, int16, uint16, int32, uint32, int64, uint64: the type code and the value.
    case integer(Character, Int64)
    case double(Double)
    case boolean(Bool)
    case variant(DBusValue)
    case array([DBusValue])
    case dictEntry(DBusValue, DBusValue)
    case structure([DBusValue])

    /// The D-Bus type signature. An empty array's element type is not printed: "a?".
    var signature: String {
        switch self {
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .integer(let code, _): String(code)
        case .double: "d"
        case .boolean: "b"
        case .variant: "v"
        case .array(let elements): "a" + (elements.first?.signature ?? "?")
        case .dictEntry(let key, let value): "{\(key.signature)\(value.signature)}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        }
    }

    /// The value inside any number of variants.
    var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    var string: String? {
        switch unwrapped {
        case .string(let text), .objectPath(let text), .signature(let text): text
        default: nil
        }
    }

    var int64: Int64? {
        if case .integer(_, let value) = unwrapped { return value }
        return nil
    }

    var double: Double? {
        if case .double(let value) = unwrapped { return value }
        return nil
    }

    var bool: Bool? {
        if case .boolean(let value) = unwrapped { return value }
        return nil
    }

    /// The elements of an array of strings (`as`).
    var strings: [String]? {
        guard case .array(let elements) = unwrapped else { return nil }
        let texts = elements.compactMap(\.string)
        return texts.count == elements.count ? texts : nil
    }

    /// An `a{sv}` (or any array of dict entries with string keys) as a dictionary; values keep
    /// their variant wrapper stripped, so `dictionary["mpris:length"]?.signature == "x"`.
    var dictionary: [String: DBusValue]? {
        guard case .array(let elements) = unwrapped else { return nil }
        var result: [String: DBusValue] = [:]
        for element in elements {
            guard case .dictEntry(let key, let value) = element, let name = key.string else { return nil }
            result[name] = value.unwrapped
        }
        return result
    }

    var description: String {
        switch self {
        case .string(let text): "string \(text.debugDescription)"
        case .objectPath(let path): "object path \(path.debugDescription)"
        case .signature(let text): "signature \(text.debugDescription)"
        case .integer(let code, let value): "\(code):\(value)"
        case .double(let value): "double \(value)"
        case .boolean(let value): "boolean \(value)"
        case .variant(let inner): "variant(\(inner))"
        case .array(let elements): "[" + elements.map(\.description).joined(separator: ", ") + "]"
        case .dictEntry(let key, let value): "\(key): \(value)"
        case .structure(let fields): "(" + fields.map(\.description).joined(separator: ", ") + ")"
        }
    }
}

/// Parses the value lines of `dbus-send --print-reply` / `dbus-monitor` output.
///
/// The format (dbus/tools/dbus-print-message.c): `string "…"`, `object path "…"`, `int64 3`,
/// `double 0.4`, `boolean true`, `variant <value>`, `array [ … ]`, `dict entry( k v )`,
/// `struct { … }`, `array of bytes [ 00 01 ]` or `array of bytes "text"`. Strings are printed
/// without escapes; one ends at a quote followed by a line end.
struct DBusValueParser {
    struct ParseError: Error, CustomStringConvertible {
        var description: String
    }

    private let characters: [Character]
    private var position = 0

    /// All values in `text`; throws if the text is incomplete or not in this format.
    static func parseAll(_ text: String) throws -> [DBusValue] {
        var parser = DBusValueParser(characters: Array(text))
        var values: [DBusValue] = []
        while parser.skipSpace() {
            values.append(try parser.value())
        }
        return values
    }

    private init(characters: [Character]) {
        self.characters = characters
    }

    /// Skips white space; false at the end of the text.
    private mutating func skipSpace() -> Bool {
        while position < characters.count, characters[position].isWhitespace { position += 1 }
        return position < characters.count
    }

    private mutating func word() throws -> String {
        guard skipSpace() else { throw ParseError(description: "unexpected end of output") }
        let start = position
        while position < characters.count, !characters[position].isWhitespace { position += 1 }
        return String(characters[start..<position])
    }

    private mutating func peekWord() -> String? {
        let saved = position
        defer { position = saved }
        return try? word()
    }

    private mutating func expect(_ expected: String) throws {
        let found = try word()
        guard found == expected else { throw ParseError(description: "expected \(expected), found \(found)") }
    }

    private mutating func quoted() throws -> String {
        guard skipSpace(), characters[position] == "\"" else {
            throw ParseError(description: "expected a quoted string")
        }
        position += 1
        let start = position
        while position < characters.count {
            if characters[position] == "\"", endsValue(after: position + 1) {
                let text = String(characters[start..<position])
                position += 1
                return text
            }
            position += 1
        }
        throw ParseError(description: "unterminated string")
    }

    private static let valueStarts: Set<String> = [
        "string", "object", "signature", "byte", "int16", "uint16", "int32", "uint32", "int64", "uint64",
        "double", "boolean", "variant", "array", "dict", "struct", "file", "]", ")", "}", "+",
    ]

    /// Whether a quote just before `index` closes the string: the text after it (past spaces
    /// and line ends) is the end or the start of the next value or a closing bracket. A quote
    /// inside the string (introspection XML has `"…"` at line ends) is followed by other text.
    private func endsValue(after index: Int) -> Bool {
        var next = index
        guard next == characters.count || characters[next].isWhitespace else { return false }
        while next < characters.count, characters[next].isWhitespace { next += 1 }
        if next == characters.count { return true }
        let start = next
        while next < characters.count, !characters[next].isWhitespace { next += 1 }
        return DBusValueParser.valueStarts.contains(String(characters[start..<next]))
    }

    private mutating func value() throws -> DBusValue {
        let kind = try word()
        switch kind {
        case "string": return .string(try quoted())
        case "signature": return .signature(try quoted())
        case "object":
            try expect("path")
            return .objectPath(try quoted())
        case "byte", "int16", "uint16", "int32", "uint32", "int64", "uint64":
            let text = try word()
            let code: Character = switch kind {
            case "byte": "y"
            case "int16": "n"
            case "uint16": "q"
            case "int32": "i"
            case "uint32": "u"
            case "int64": "x"
            default: "t"
            }
            guard let number = Int64(text) ?? UInt64(text).map({ Int64(bitPattern: $0) }) else {
                throw ParseError(description: "bad \(kind) \(text)")
            }
            return .integer(code, number)
        case "double":
            let text = try word()
            guard let number = Double(text) else { throw ParseError(description: "bad double \(text)") }
            return .double(number)
        case "boolean":
            return .boolean(try word() == "true")
        case "variant":
            return .variant(try value())
        case "array":
            if peekWord() == "of" {
                try expect("of")
                try expect("bytes")
                return try bytes()
            }
            try expect("[")
            var elements: [DBusValue] = []
            while true {
                if peekWord() == "]" {
                    try expect("]")
                    return .array(elements)
                }
                elements.append(try value())
            }
        case "dict":
            try expect("entry(")
            let key = try value()
            let entryValue = try value()
            try expect(")")
            return .dictEntry(key, entryValue)
        case "struct":
            try expect("{")
            var fields: [DBusValue] = []
            while true {
                if peekWord() == "}" {
                    try expect("}")
                    return .structure(fields)
                }
                fields.append(try value())
            }
        default:
            throw ParseError(description: "unknown value kind \(kind.debugDescription)")
        }
    }

    /// `array of bytes [ 00 01 … ]` or `array of bytes "text" + 0x00`.
    private mutating func bytes() throws -> DBusValue {
        guard skipSpace() else { throw ParseError(description: "unexpected end of output") }
        if characters[position] == "\"" {
            let text = try quoted()
            if peekWord() == "+" {
                try expect("+")
                _ = try word()
            }
            return .array(text.utf8.map { .integer("y", Int64($0)) })
        }
        try expect("[")
        var elements: [DBusValue] = []
        while let next = peekWord(), next != "]" {
            _ = try word()
            guard let byte = UInt8(next, radix: 16) else { throw ParseError(description: "bad byte \(next)") }
            elements.append(.integer("y", Int64(byte)))
        }
        try expect("]")
        return .array(elements)
    }
}
