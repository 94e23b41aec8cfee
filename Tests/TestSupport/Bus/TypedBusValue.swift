import DBusKit
import Foundation

/// A D-Bus value as `dbus-send --print-reply` and `dbus-monitor` print it, with its wire type,
/// so tests can check types exactly (`x` for mpris:length, `as` for xesam:artist, …).
indirect enum TypedBusValue: Equatable, CustomStringConvertible {
    case string(String)
    case objectPath(String)
    case signature(String)
    /// byte, int16, uint16, int32, uint32, int64, uint64: the type code and the value.
    case integer(Character, Int64)
    case double(Double)
    case boolean(Bool)
    case variant(TypedBusValue)
    case array([TypedBusValue])
    case dictEntry(TypedBusValue, TypedBusValue)
    case structure([TypedBusValue])

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
    var unwrapped: TypedBusValue {
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
    var dictionary: [String: TypedBusValue]? {
        guard case .array(let elements) = unwrapped else { return nil }
        var result: [String: TypedBusValue] = [:]
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

extension TypedBusValue {
    /// The test's view of a DBusKit value: the same wire type, read as text and numbers.
    init(_ value: DBusKit.DBusValue) {
        switch value {
        case .byte(let n): self = .integer("y", Int64(n))
        case .boolean(let b): self = .boolean(b)
        case .int16(let n): self = .integer("n", Int64(n))
        case .uint16(let n): self = .integer("q", Int64(n))
        case .int32(let n): self = .integer("i", Int64(n))
        case .uint32(let n): self = .integer("u", Int64(n))
        case .int64(let n): self = .integer("x", n)
        case .uint64(let n): self = .integer("t", Int64(truncatingIfNeeded: n))
        case .double(let d): self = .double(d)
        case .string(let text): self = .string(text)
        case .objectPath(let path): self = .objectPath(path)
        case .signature(let text): self = .signature(text)
        case .unixFD(let fd): self = .integer("h", Int64(fd))
        case .array(_, let elements): self = .array(elements.map(TypedBusValue.init))
        case .dictionary(_, _, let entries): self = .array(entries.map { .dictEntry(TypedBusValue($0.key), TypedBusValue($0.value)) })
        case .structure(let fields): self = .structure(fields.map(TypedBusValue.init))
        case .variant(let inner): self = .variant(TypedBusValue(inner))
        }
    }
}

/// Arguments written as dbus-send takes them: `TYPE:VALUE` with TYPE string, objpath, boolean,
/// byte, int16, uint16, int32, uint32, int64, uint64, double; `variant:TYPE:VALUE`;
/// `array:TYPE:V1,V2,…`; `dict:KTYPE:VTYPE:K1,V1,K2,V2,…`.
enum SendSyntax {
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    static func value(_ text: String) throws -> DBusKit.DBusValue {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 else { throw Problem(description: "not TYPE:VALUE: \(text)") }
        switch parts[0] {
        case "variant": return .variant(try value(parts[1]))
        case "array":
            let typed = parts[1].split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard typed.count == 2 else { throw Problem(description: "array without TYPE: \(text)") }
            let elements = typed[1].isEmpty ? [] : try typed[1].split(separator: ",", omittingEmptySubsequences: false)
                .map { try basic(typed[0], String($0)) }
            return .array(elementSignature: try signature(of: typed[0]), elements)
        case "dict":
            let typed = parts[1].split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard typed.count == 3 else { throw Problem(description: "dict without KTYPE:VTYPE: \(text)") }
            let items = typed[2].isEmpty ? [] : typed[2].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard items.count % 2 == 0 else { throw Problem(description: "dict with an odd item count: \(text)") }
            let entries = try stride(from: 0, to: items.count, by: 2).map {
                (key: try basic(typed[0], items[$0]), value: try basic(typed[1], items[$0 + 1]))
            }
            return .dictionary(keySignature: try signature(of: typed[0]), valueSignature: try signature(of: typed[1]), entries)
        default:
            return try basic(parts[0], parts[1])
        }
    }

    private static func basic(_ type: String, _ text: String) throws -> DBusKit.DBusValue {
        func number<T: FixedWidthInteger>(_: T.Type) throws -> T {
            guard let value = T(text) else { throw Problem(description: "not a \(type): \(text)") }
            return value
        }
        switch type {
        case "string": return .string(text)
        case "objpath": return .objectPath(text)
        case "signature": return .signature(text)
        case "boolean":
            guard text == "true" || text == "false" else { throw Problem(description: "not a boolean: \(text)") }
            return .boolean(text == "true")
        case "byte": return .byte(try number(UInt8.self))
        case "int16": return .int16(try number(Int16.self))
        case "uint16": return .uint16(try number(UInt16.self))
        case "int32": return .int32(try number(Int32.self))
        case "uint32": return .uint32(try number(UInt32.self))
        case "int64": return .int64(try number(Int64.self))
        case "uint64": return .uint64(try number(UInt64.self))
        case "double":
            guard let value = Double(text) else { throw Problem(description: "not a double: \(text)") }
            return .double(value)
        default: throw Problem(description: "unknown type \(type)")
        }
    }

    private static func signature(of type: String) throws -> String {
        let codes = ["string": "s", "objpath": "o", "signature": "g", "boolean": "b", "byte": "y", "int16": "n",
                     "uint16": "q", "int32": "i", "uint32": "u", "int64": "x", "uint64": "t", "double": "d"]
        guard let code = codes[type] else { throw Problem(description: "unknown type \(type)") }
        return code
    }
}
