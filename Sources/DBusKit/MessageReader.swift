internal import CDBus

/// Reads a message body into `DBusValue`s (`dbus_message_iter_get_*`).
///
/// libdbus has validated every message it received, so the body is well-formed; still,
/// anything unexpected (a type DBusKit does not model) becomes a thrown `DBusError`, never a crash.
///
/// Reading never opens anything: `dbus_message_iter_get_basic` on a `h` value returns a new
/// `dup()` of the descriptor, which someone would have to close — and a hostile client can
/// send thousands, on any call, in any signature. So `arguments` leaves descriptors in the
/// message (which closes its own when freed) and marks their place with `.unixFD(-1)`;
/// `unixFD(at:of:)` is the one way to get a descriptor out, for a caller that takes ownership.
enum MessageReader {
    static func arguments(of message: OpaquePointer) throws(DBusError) -> [DBusValue] {
        let iter = UnsafeMutablePointer<DBusMessageIter>.allocate(capacity: 1)
        defer { iter.deallocate() }
        // FALSE means an empty body.
        guard dbus_message_iter_init(message, iter) != 0 else { return [] }
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(iter) != CDBUS_TYPE_INVALID {
            values.append(try read(iter, depth: 0))
            dbus_message_iter_next(iter)
        }
        return values
    }

    private static func read(_ iter: UnsafeMutablePointer<DBusMessageIter>, depth: Int) throws(DBusError) -> DBusValue {
        // The spec caps nesting at 64; libdbus enforces it, this guards the recursion anyway.
        guard depth <= 64 else { throw DBusError.invalidArgs("message body nested too deeply") }
        let type = dbus_message_iter_get_arg_type(iter)
        switch type {
        case CDBUS_TYPE_BYTE: return .byte(basic(iter).byt)
        case CDBUS_TYPE_BOOLEAN: return .boolean(basic(iter).bool_val != 0)
        case CDBUS_TYPE_INT16: return .int16(basic(iter).i16)
        case CDBUS_TYPE_UINT16: return .uint16(basic(iter).u16)
        case CDBUS_TYPE_INT32: return .int32(basic(iter).i32)
        case CDBUS_TYPE_UINT32: return .uint32(basic(iter).u32)
        case CDBUS_TYPE_INT64: return .int64(Int64(basic(iter).i64))
        case CDBUS_TYPE_UINT64: return .uint64(UInt64(basic(iter).u64))
        case CDBUS_TYPE_DOUBLE: return .double(basic(iter).dbl)
        case CDBUS_TYPE_STRING: return .string(try string(iter))
        case CDBUS_TYPE_OBJECT_PATH: return .objectPath(try string(iter))
        case CDBUS_TYPE_SIGNATURE: return .signature(try string(iter))
        // Not dbus_message_iter_get_basic: that would dup() a descriptor nobody closes.
        case CDBUS_TYPE_UNIX_FD: return .unixFD(-1)
        case CDBUS_TYPE_ARRAY: return try readArray(iter, depth: depth)
        case CDBUS_TYPE_STRUCT:
            return .structure(try readElements(iter, depth: depth))
        case CDBUS_TYPE_VARIANT:
            let contents = try readElements(iter, depth: depth)
            guard contents.count == 1 else {
                throw DBusError.invalidArgs("variant holds \(contents.count) values")
            }
            return .variant(contents[0])
        default:
            let code = UnicodeScalar(UInt8(truncatingIfNeeded: type))
            throw DBusError(name: DBusError.notSupportedName,
                            message: "DBusKit cannot read arguments of type '\(Character(code))'")
        }
    }

    /// A duplicate of the descriptor in top-level argument `index`, which the caller owns and
    /// must close. Throws if that argument is missing or not a `h`, or if dup() failed.
    static func unixFD(at index: Int, of message: OpaquePointer) throws(DBusError) -> Int32 {
        let iter = UnsafeMutablePointer<DBusMessageIter>.allocate(capacity: 1)
        defer { iter.deallocate() }
        guard index >= 0, dbus_message_iter_init(message, iter) != 0 else {
            throw DBusError.invalidArgs("no argument \(index)")
        }
        for _ in 0..<index {
            guard dbus_message_iter_next(iter) != 0 else { throw DBusError.invalidArgs("no argument \(index)") }
        }
        guard dbus_message_iter_get_arg_type(iter) == CDBUS_TYPE_UNIX_FD else {
            throw DBusError.invalidArgs("argument \(index) is not a file descriptor")
        }
        let descriptor = basic(iter).fd
        // libdbus gives -1 when dup() fails (e.g. EMFILE).
        guard descriptor >= 0 else { throw DBusError.failed("dbus_message_iter_get_basic: could not duplicate the descriptor") }
        return descriptor
    }

    private static func basic(_ iter: UnsafeMutablePointer<DBusMessageIter>) -> DBusBasicValue {
        var value = DBusBasicValue()
        dbus_message_iter_get_basic(iter, &value)
        return value
    }

    private static func string(_ iter: UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) -> String {
        guard let pointer = basic(iter).str else {
            throw DBusError.failed("dbus_message_iter_get_basic: string argument without data")
        }
        return String(cString: pointer)
    }

    /// The contents of the container under `iter` (a struct, variant or non-dictionary array).
    private static func readElements(_ iter: UnsafeMutablePointer<DBusMessageIter>, depth: Int) throws(DBusError) -> [DBusValue] {
        let sub = UnsafeMutablePointer<DBusMessageIter>.allocate(capacity: 1)
        defer { sub.deallocate() }
        dbus_message_iter_recurse(iter, sub)
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(sub) != CDBUS_TYPE_INVALID {
            values.append(try read(sub, depth: depth + 1))
            dbus_message_iter_next(sub)
        }
        return values
    }

    private static func readArray(_ iter: UnsafeMutablePointer<DBusMessageIter>, depth: Int) throws(DBusError) -> DBusValue {
        // The element signature comes from the type, not the elements: the array may be empty.
        guard let cSignature = dbus_message_iter_get_signature(iter) else {
            throw DBusError.noMemory("dbus_message_iter_get_signature")
        }
        let signature = String(cString: cSignature)
        dbus_free(cSignature)
        guard signature.hasPrefix("a") else {
            throw DBusError.invalidArgs("array argument with signature \"\(signature)\"")
        }
        let elementSignature = String(signature.dropFirst())
        guard dbus_message_iter_get_element_type(iter) == CDBUS_TYPE_DICT_ENTRY else {
            return .array(elementSignature: elementSignature, try readElements(iter, depth: depth))
        }

        // "{kv…}": the key is one basic type code, the value is the rest.
        let inner = elementSignature.dropFirst().dropLast()
        guard elementSignature.hasPrefix("{"), elementSignature.hasSuffix("}"), inner.count >= 2 else {
            throw DBusError.invalidArgs("malformed dictionary signature \"\(signature)\"")
        }
        let keySignature = String(inner.prefix(1))
        let valueSignature = String(inner.dropFirst())
        let sub = UnsafeMutablePointer<DBusMessageIter>.allocate(capacity: 1)
        let entry = UnsafeMutablePointer<DBusMessageIter>.allocate(capacity: 1)
        defer { sub.deallocate(); entry.deallocate() }
        dbus_message_iter_recurse(iter, sub)
        var entries: [(key: DBusValue, value: DBusValue)] = []
        while dbus_message_iter_get_arg_type(sub) == CDBUS_TYPE_DICT_ENTRY {
            dbus_message_iter_recurse(sub, entry)
            let key = try read(entry, depth: depth + 2)
            guard dbus_message_iter_next(entry) != 0 else {
                throw DBusError.invalidArgs("dictionary entry without a value")
            }
            let value = try read(entry, depth: depth + 2)
            entries.append((key: key, value: value))
            dbus_message_iter_next(sub)
        }
        return .dictionary(keySignature: keySignature, valueSignature: valueSignature, entries)
    }
}
