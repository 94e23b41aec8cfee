// Constructors for the shapes that come up all the time, and typed accessors for reading.
//
// The accessors look through variants (`.variant(.string("x")).asString == "x"`): a property
// value arrives wrapped in `v`, and the caller wants its content, not the wrapping.

extension DBusValue {
    /// `as`: an array of strings.
    public static func stringArray(_ strings: [String]) -> DBusValue {
        .array(elementSignature: "s", strings.map { .string($0) })
    }

    /// `ao`: an array of object paths.
    public static func objectPathArray(_ paths: [String]) -> DBusValue {
        .array(elementSignature: "o", paths.map { .objectPath($0) })
    }

    /// `a{sv}`: string keys, each value wrapped in a variant, in the given order.
    public static func vardict(_ entries: [(String, DBusValue)]) -> DBusValue {
        .dictionary(keySignature: "s", valueSignature: "v",
                    entries.map { (key: .string($0.0), value: .variant($0.1)) })
    }

    /// The value with every variant wrapper removed.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    /// The content of a variant (one level), or nil if this is not a variant.
    public var asVariant: DBusValue? {
        if case .variant(let inner) = self { return inner }
        return nil
    }

    /// The string of a `s` value.
    public var asString: String? {
        if case .string(let s) = unwrapped { return s }
        return nil
    }

    /// The path of an `o` value.
    public var asObjectPath: String? {
        if case .objectPath(let s) = unwrapped { return s }
        return nil
    }

    /// The text of a `g` value.
    public var asSignature: String? {
        if case .signature(let s) = unwrapped { return s }
        return nil
    }

    /// The truth of a `b` value.
    public var asBool: Bool? {
        if case .boolean(let b) = unwrapped { return b }
        return nil
    }

    /// Any integer type, if it fits in an `Int64` (a `uint64` above `Int64.max` does not).
    public var asInt64: Int64? {
        switch unwrapped {
        case .byte(let v): Int64(v)
        case .int16(let v): Int64(v)
        case .uint16(let v): Int64(v)
        case .int32(let v): Int64(v)
        case .uint32(let v): Int64(v)
        case .int64(let v): v
        case .uint64(let v): Int64(exactly: v)
        default: nil
        }
    }

    /// Any integer type, if it fits in an `Int32`.
    public var asInt32: Int32? { asInt64.flatMap { Int32(exactly: $0) } }

    /// Any integer type, if it fits in a `UInt32`.
    public var asUInt32: UInt32? { asInt64.flatMap { UInt32(exactly: $0) } }

    /// A `d` value, or any integer converted: peers send `Volume = 1` as often as `1.0`.
    public var asDouble: Double? {
        if case .double(let d) = unwrapped { return d }
        if case .uint64(let v) = unwrapped { return Double(v) }
        return asInt64.map(Double.init)
    }

    /// The elements of any array (`.array`), or nil.
    public var asArray: [DBusValue]? {
        if case .array(_, let elements) = unwrapped { return elements }
        return nil
    }

    /// The elements of an `as`.
    public var asStringArray: [String]? {
        guard let elements = asArray else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for element in elements {
            guard let s = element.asString else { return nil }
            strings.append(s)
        }
        return strings
    }

    /// The elements of an `ao`.
    public var asObjectPathArray: [String]? {
        guard let elements = asArray else { return nil }
        var paths: [String] = []
        for element in elements {
            guard let p = element.asObjectPath else { return nil }
            paths.append(p)
        }
        return paths
    }

    /// The fields of a structure.
    public var asStructure: [DBusValue]? {
        if case .structure(let fields) = unwrapped { return fields }
        return nil
    }

    /// The entries of any dictionary, in wire order.
    public var asDictionaryEntries: [(key: DBusValue, value: DBusValue)]? {
        if case .dictionary(_, _, let entries) = unwrapped { return entries }
        return nil
    }

    /// An `a{s…}` as a Swift dictionary with variant values unwrapped one level
    /// (for `a{sv}`: the contents). A later duplicate key wins, as most D-Bus peers do.
    public var asVardict: [String: DBusValue]? {
        guard case .dictionary(let keySignature, _, let entries) = unwrapped, keySignature == "s" else {
            return nil
        }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            guard case .string(let key) = entry.key else { return nil }
            result[key] = entry.value.asVariant ?? entry.value
        }
        return result
    }
}
