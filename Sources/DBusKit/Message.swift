internal import CDBus

/// One D-Bus message: a method call, a method return, an error or a signal (`DBusMessage`).
///
/// Messages are built complete by the factory methods and never changed afterwards, which is
/// why a message may be passed between threads (`@unchecked Sendable`): everything public only
/// reads, and libdbus reference-counts messages atomically. The reference is dropped in deinit.
/// Sending is the exception: libdbus gives a message its serial (kept if it is sent again) and
/// counts it in the connection's outgoing queue, unlocked; so a message is sent once, by one
/// connection — build another for another send.
public final class Message: @unchecked Sendable {
    /// The four kinds of D-Bus message.
    public enum Kind: Sendable, Equatable {
        case methodCall, methodReturn, error, signal
    }

    /// The owned reference (`DBusMessage *`).
    let pointer: OpaquePointer

    /// Takes over a reference the caller owns (e.g. from `dbus_message_new_*`).
    init(owning pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// Adds a reference of its own (for messages libdbus lends to a callback).
    init(retaining pointer: OpaquePointer) {
        self.pointer = dbus_message_ref(pointer)
    }

    deinit {
        dbus_message_unref(pointer)
    }

    // MARK: Header

    /// The message type. DBusKit only ever hands out messages of these four types.
    public var kind: Kind {
        switch dbus_message_get_type(pointer) {
        case CDBUS_MESSAGE_TYPE_METHOD_RETURN: .methodReturn
        case CDBUS_MESSAGE_TYPE_ERROR: .error
        case CDBUS_MESSAGE_TYPE_SIGNAL: .signal
        default: .methodCall
        }
    }

    /// The object path of a call or signal.
    public var path: String? { string(dbus_message_get_path(pointer)) }
    /// The interface of a call or signal (optional on calls).
    public var interface: String? { string(dbus_message_get_interface(pointer)) }
    /// The method or signal name.
    public var member: String? { string(dbus_message_get_member(pointer)) }
    /// The unique name of the sender (set by the bus).
    public var sender: String? { string(dbus_message_get_sender(pointer)) }
    /// The bus name the message is addressed to, if any.
    public var destination: String? { string(dbus_message_get_destination(pointer)) }
    /// The error name of an error message.
    public var errorName: String? { string(dbus_message_get_error_name(pointer)) }
    /// The body signature, e.g. `sa{sv}as`; empty for an empty body.
    public var signature: String { string(dbus_message_get_signature(pointer)) ?? "" }
    /// The serial number (0 until the message has been sent).
    public var serial: UInt32 { dbus_message_get_serial(pointer) }
    /// For returns and errors: the serial of the call they answer.
    public var replySerial: UInt32 { dbus_message_get_reply_serial(pointer) }
    /// Whether the sender of a method call waits for an answer (`!dbus_message_get_no_reply`).
    /// When false, a handler should not send a reply (nobody would read it).
    public var expectsReply: Bool { dbus_message_get_no_reply(pointer) == 0 }

    /// `dbus_message_set_auto_start`: whether the bus may start (activate) the destination's
    /// service for this call. Off, a call to a name nobody owns fails at once.
    public func setAutoStart(_ autoStart: Bool) {
        dbus_message_set_auto_start(pointer, autoStart ? 1 : 0)
    }

    private func string(_ cString: UnsafePointer<CChar>?) -> String? {
        cString.map { String(cString: $0) }
    }

    // MARK: Body

    /// Reads the whole body. Arrays of dict entries become `.dictionary`.
    /// Throws rather than crash on anything DBusKit cannot represent.
    /// Opens nothing: a file descriptor (`h`) reads as `.unixFD(-1)`, a placeholder — the
    /// descriptor stays with the message and is closed with it. Use `takeUnixFD(at:)` to keep one.
    public func arguments() throws(DBusError) -> [DBusValue] {
        try MessageReader.arguments(of: pointer)
    }

    /// A new descriptor for the file descriptor in top-level argument `index` (a `dup()`),
    /// which the caller owns and must close. Throws if that argument is not a `h`.
    public func takeUnixFD(at index: Int) throws(DBusError) -> Int32 {
        try MessageReader.unixFD(at: index, of: pointer)
    }

    /// For an error message: the error it carries (name + its first string argument).
    /// Nil for other kinds.
    public var carriedError: DBusError? {
        guard kind == .error else { return nil }
        let text = (try? arguments())?.first?.asString ?? ""
        return DBusError(name: errorName ?? DBusError.failedName, message: text)
    }

    // MARK: Building

    /// A method call. `destination` is nil for peer-to-peer connections; `interface` may be nil.
    public static func methodCall(destination: String?, path: String, interface: String?, member: String,
                                  arguments: [DBusValue] = []) throws(DBusError) -> Message {
        if let destination {
            try DBusValidation.require(DBusValidation.isValidBusName(destination), "invalid bus name \"\(destination)\"")
        }
        try DBusValidation.require(DBusValidation.isValidObjectPath(path), "invalid object path \"\(path)\"")
        if let interface {
            try DBusValidation.require(DBusValidation.isValidInterfaceName(interface), "invalid interface name \"\(interface)\"")
        }
        try DBusValidation.require(DBusValidation.isValidMemberName(member), "invalid member name \"\(member)\"")
        let created = withOptionalCString(destination) { cDestination in
            withOptionalCString(interface) { cInterface in
                dbus_message_new_method_call(cDestination, path, cInterface, member)
            }
        }
        guard let created else { throw DBusError.noMemory("dbus_message_new_method_call") }
        let message = Message(owning: created)
        try MessageWriter.append(arguments, to: created)
        return message
    }

    /// A signal from `path`.
    public static func signal(path: String, interface: String, member: String,
                              arguments: [DBusValue] = []) throws(DBusError) -> Message {
        try DBusValidation.require(DBusValidation.isValidObjectPath(path), "invalid object path \"\(path)\"")
        try DBusValidation.require(DBusValidation.isValidInterfaceName(interface), "invalid interface name \"\(interface)\"")
        try DBusValidation.require(DBusValidation.isValidMemberName(member), "invalid member name \"\(member)\"")
        guard let created = dbus_message_new_signal(path, interface, member) else {
            throw DBusError.noMemory("dbus_message_new_signal")
        }
        let message = Message(owning: created)
        try MessageWriter.append(arguments, to: created)
        return message
    }

    /// The successful answer to this method call.
    public func makeReturn(_ arguments: [DBusValue] = []) throws(DBusError) -> Message {
        // libdbus aborts on a reply to serial 0, i.e. to a message that was never sent.
        try DBusValidation.require(serial != 0, "makeReturn: the message was never sent (serial 0)")
        guard let created = dbus_message_new_method_return(pointer) else {
            throw DBusError.noMemory("dbus_message_new_method_return")
        }
        let message = Message(owning: created)
        try MessageWriter.append(arguments, to: created)
        return message
    }

    /// The error answer to this method call. Never fails on bad input: an invalid error name
    /// becomes `org.freedesktop.DBus.Error.Failed` and NULs are dropped from the text, so a
    /// handler can always answer. (Only running out of memory stops it, as for any allocation.)
    public func makeError(_ error: DBusError) -> Message {
        let name = DBusValidation.isValidErrorName(error.name) ? error.name : DBusError.failedName
        var text = error.message
        if !DBusValidation.isValidString(text) {
            text = String(decoding: text.utf8.filter { $0 != 0 }, as: UTF8.self)
        }
        guard serial != 0 else { return Self.standaloneError(name: name, text: text) }
        guard let created = dbus_message_new_error(pointer, name, text) else {
            fatalError("dbus_message_new_error: out of memory")
        }
        return Message(owning: created)
    }

    /// An error message that answers nothing: libdbus aborts on a reply to serial 0 (a message
    /// that was never sent), and `makeError` must not fail.
    private static func standaloneError(name: String, text: String) -> Message {
        guard let created = dbus_message_new(CDBUS_MESSAGE_TYPE_ERROR) else {
            fatalError("dbus_message_new: out of memory")
        }
        let message = Message(owning: created)
        guard dbus_message_set_error_name(created, name) != 0 else {
            fatalError("dbus_message_set_error_name: out of memory")
        }
        do {
            try MessageWriter.append([.string(text)], to: created)
        } catch {
            fatalError("appending an error text: \(error)")  // validated above, so only out of memory
        }
        return message
    }
}

/// `withCString` for an optional string: NULL when absent.
func withOptionalCString<R>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}
