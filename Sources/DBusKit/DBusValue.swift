/// A D-Bus value together with its type.
///
/// The wire signature is derived from the value (`signature`), so a value can never disagree
/// with its type. Containers that may be empty carry their element signature, because an empty
/// `as` and an empty `ao` look the same otherwise. Dictionaries (`a{..}`) keep their entries in
/// order — D-Bus does, and MPRIS clients show metadata in the order sent.
public indirect enum DBusValue: Sendable, Equatable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// `h`: a file descriptor passed over the bus; when sent, libdbus sends a duplicate.
    /// `Message.arguments()` reads it as `.unixFD(-1)` (the descriptor stays with the message,
    /// so reading can never leak one); `Message.takeUnixFD(at:)` gives one the caller owns.
    case unixFD(Int32)
    /// `a<elementSignature>`; every element must have exactly `elementSignature`.
    case array(elementSignature: String, [DBusValue])
    /// `a{<keySignature><valueSignature>}`; the key must be a basic type.
    case dictionary(keySignature: String, valueSignature: String, [(key: DBusValue, value: DBusValue)])
    /// `(...)`; D-Bus does not allow an empty structure.
    case structure([DBusValue])
    /// `v`: a value that carries its own type.
    case variant(DBusValue)

    /// The D-Bus type signature of this value, e.g. `s`, `a{sv}`, `(oss)`.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    // Written by hand because the dictionary's tuples are not Equatable.
    public static func == (lhs: DBusValue, rhs: DBusValue) -> Bool {
        switch (lhs, rhs) {
        case let (.byte(a), .byte(b)): a == b
        case let (.boolean(a), .boolean(b)): a == b
        case let (.int16(a), .int16(b)): a == b
        case let (.uint16(a), .uint16(b)): a == b
        case let (.int32(a), .int32(b)): a == b
        case let (.uint32(a), .uint32(b)): a == b
        case let (.int64(a), .int64(b)): a == b
        case let (.uint64(a), .uint64(b)): a == b
        case let (.double(a), .double(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.objectPath(a), .objectPath(b)): a == b
        case let (.signature(a), .signature(b)): a == b
        case let (.unixFD(a), .unixFD(b)): a == b
        case let (.array(sa, a), .array(sb, b)): sa == sb && a == b
        case let (.dictionary(ka, va, a), .dictionary(kb, vb, b)):
            ka == kb && va == vb && a.count == b.count
                && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case let (.structure(a), .structure(b)): a == b
        case let (.variant(a), .variant(b)): a == b
        default: false
        }
    }
}

extension DBusValue {
    /// The signature of a whole argument list: the values' signatures, concatenated.
    public static func signature(of values: [DBusValue]) -> String {
        values.map(\.signature).joined()
    }
}
