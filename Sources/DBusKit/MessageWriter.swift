internal import CDBus

/// Appends `DBusValue`s to a message body (`dbus_message_iter_append_*`).
///
/// libdbus aborts the process on a body it considers malformed (a string that is not UTF-8,
/// an invalid object path, an array element of the wrong type, a container closed on the wrong
/// iterator). So every value is validated completely *before* the first byte is written, and
/// writing itself can then only fail for lack of memory.
enum MessageWriter {
    /// D-Bus allows 32 levels of array and 32 of struct nesting; counting every container
    /// (variants too) against 32 is stricter and keeps clear of the receiver's limits.
    static let maximumDepth = 32

    static func append(_ values: [DBusValue], to message: OpaquePointer) throws(DBusError) {
        try validate(values)
        let iter = UnsafeMutablePointer<DBusMessageIter>.allocate(capacity: 1)
        defer { iter.deallocate() }
        dbus_message_iter_init_append(message, iter)
        for value in values {
            try append(value, to: iter)
        }
    }

    // MARK: Validation

    static func validate(_ values: [DBusValue]) throws(DBusError) {
        for value in values {
            try validate(value, depth: 0)
        }
        let signature = DBusValue.signature(of: values)
        try DBusValidation.require(DBusValidation.isValidSignature(signature),
                                   "invalid body signature \"\(signature)\"")
    }

    private static func validate(_ value: DBusValue, depth: Int) throws(DBusError) {
        switch value {
        case .byte, .boolean, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double:
            return
        case .unixFD(let fd):
            try DBusValidation.require(fd >= 0, "invalid file descriptor \(fd)")
        case .string(let s):
            try DBusValidation.require(DBusValidation.isValidString(s), "string is not valid for D-Bus (NUL or bad UTF-8)")
        case .objectPath(let p):
            try DBusValidation.require(DBusValidation.isValidObjectPath(p), "invalid object path \"\(p)\"")
        case .signature(let g):
            try DBusValidation.require(DBusValidation.isValidSignature(g), "invalid signature value \"\(g)\"")
        case .array(let elementSignature, let elements):
            try checkDepth(depth)
            try DBusValidation.require(DBusValidation.isValidSingleSignature(elementSignature),
                                       "invalid array element signature \"\(elementSignature)\"")
            for element in elements {
                try DBusValidation.require(element.signature == elementSignature,
                                           "array of \(elementSignature) holds a \(element.signature)")
                try validate(element, depth: depth + 1)
            }
        case .dictionary(let keySignature, let valueSignature, let entries):
            try checkDepth(depth + 1)
            let keyCode = keySignature.utf8.first.map { Int32($0) } ?? 0
            try DBusValidation.require(keySignature.utf8.count == 1 && dbus_type_is_basic(keyCode) != 0,
                                       "dictionary key signature \"\(keySignature)\" is not a basic type")
            try DBusValidation.require(DBusValidation.isValidSingleSignature(valueSignature),
                                       "invalid dictionary value signature \"\(valueSignature)\"")
            for entry in entries {
                try DBusValidation.require(entry.key.signature == keySignature && entry.value.signature == valueSignature,
                                           "a{\(keySignature)\(valueSignature)} holds an entry {\(entry.key.signature)\(entry.value.signature)}")
                try validate(entry.key, depth: depth + 2)
                try validate(entry.value, depth: depth + 2)
            }
        case .structure(let fields):
            try checkDepth(depth)
            try DBusValidation.require(!fields.isEmpty, "D-Bus has no empty structures")
            for field in fields {
                try validate(field, depth: depth + 1)
            }
        case .variant(let inner):
            try checkDepth(depth)
            try validate(inner, depth: depth + 1)
        }
    }

    private static func checkDepth(_ depth: Int) throws(DBusError) {
        try DBusValidation.require(depth < maximumDepth, "values nested deeper than \(maximumDepth) containers")
    }

    // MARK: Writing (values already validated)

    private static func append(_ value: DBusValue, to iter: UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) {
        switch value {
        case .byte(let v): try appendBasic(v, CDBUS_TYPE_BYTE, iter)
        case .boolean(let v): try appendBasic(dbus_bool_t(v ? 1 : 0), CDBUS_TYPE_BOOLEAN, iter)  // 4 bytes
        case .int16(let v): try appendBasic(v, CDBUS_TYPE_INT16, iter)
        case .uint16(let v): try appendBasic(v, CDBUS_TYPE_UINT16, iter)
        case .int32(let v): try appendBasic(v, CDBUS_TYPE_INT32, iter)
        case .uint32(let v): try appendBasic(v, CDBUS_TYPE_UINT32, iter)
        case .int64(let v): try appendBasic(v, CDBUS_TYPE_INT64, iter)
        case .uint64(let v): try appendBasic(v, CDBUS_TYPE_UINT64, iter)
        case .double(let v): try appendBasic(v, CDBUS_TYPE_DOUBLE, iter)
        case .string(let s): try appendString(s, CDBUS_TYPE_STRING, iter)
        case .objectPath(let s): try appendString(s, CDBUS_TYPE_OBJECT_PATH, iter)
        case .signature(let s): try appendString(s, CDBUS_TYPE_SIGNATURE, iter)
        case .unixFD(let fd): try appendBasic(fd, CDBUS_TYPE_UNIX_FD, iter)
        case .array(let elementSignature, let elements):
            try withContainer(CDBUS_TYPE_ARRAY, elementSignature, on: iter) { sub throws(DBusError) in
                for element in elements {
                    try append(element, to: sub)
                }
            }
        case .dictionary(let keySignature, let valueSignature, let entries):
            try withContainer(CDBUS_TYPE_ARRAY, "{\(keySignature)\(valueSignature)}", on: iter) { sub throws(DBusError) in
                for entry in entries {
                    // Each entry is opened on the array's iterator, its parent.
                    try withContainer(CDBUS_TYPE_DICT_ENTRY, nil, on: sub) { entryIter throws(DBusError) in
                        try append(entry.key, to: entryIter)
                        try append(entry.value, to: entryIter)
                    }
                }
            }
        case .structure(let fields):
            try withContainer(CDBUS_TYPE_STRUCT, nil, on: iter) { sub throws(DBusError) in
                for field in fields {
                    try append(field, to: sub)
                }
            }
        case .variant(let inner):
            try withContainer(CDBUS_TYPE_VARIANT, inner.signature, on: iter) { sub throws(DBusError) in
                try append(inner, to: sub)
            }
        }
    }

    private static func appendBasic<T>(_ value: T, _ type: Int32,
                                       _ iter: UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) {
        var value = value
        let ok = withUnsafePointer(to: &value) { dbus_message_iter_append_basic(iter, type, $0) }
        if ok == 0 { throw DBusError.noMemory("dbus_message_iter_append_basic") }
    }

    /// Strings are passed as a pointer to the `const char *` (libdbus copies them at once).
    private static func appendString(_ string: String, _ type: Int32,
                                     _ iter: UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) {
        let ok = string.withCString { cString in
            var pointer: UnsafePointer<CChar>? = cString
            return withUnsafePointer(to: &pointer) { dbus_message_iter_append_basic(iter, type, $0) }
        }
        if ok == 0 { throw DBusError.noMemory("dbus_message_iter_append_basic") }
    }

    /// Opens a container on `parent`, fills it, closes it on the same parent; abandons it
    /// (as libdbus requires) if filling fails. The sub-iterator lives on the heap so its
    /// address is stable for the whole open/close pair.
    private static func withContainer(_ type: Int32, _ containedSignature: String?,
                                      on parent: UnsafeMutablePointer<DBusMessageIter>,
                                      _ body: (UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) -> Void) throws(DBusError) {
        let sub = UnsafeMutablePointer<DBusMessageIter>.allocate(capacity: 1)
        defer { sub.deallocate() }
        let opened: dbus_bool_t
        if let containedSignature {
            opened = containedSignature.withCString { dbus_message_iter_open_container(parent, type, $0, sub) }
        } else {
            opened = dbus_message_iter_open_container(parent, type, nil, sub)
        }
        if opened == 0 { throw DBusError.noMemory("dbus_message_iter_open_container") }
        do {
            try body(sub)
        } catch {
            dbus_message_iter_abandon_container(parent, sub)
            throw error
        }
        if dbus_message_iter_close_container(parent, sub) == 0 {
            throw DBusError.noMemory("dbus_message_iter_close_container")
        }
    }
}
