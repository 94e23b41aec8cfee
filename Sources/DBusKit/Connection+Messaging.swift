internal import CDBus
import Dispatch

// Sending, calling and serving objects.

extension Connection {
    /// Queues `message` and writes it at once if the socket allows (libdbus tries a
    /// non-blocking write inside `dbus_connection_send`; the write watch finishes the rest).
    public func send(_ message: Message) throws(DBusError) {
        try checkOpen("dbus_connection_send")
        guard dbus_connection_send(pointer, message.pointer, nil) != 0 else {
            throw DBusError.noMemory("dbus_connection_send")
        }
    }

    /// Blocks until every queued outgoing message is written: before exiting, so the last
    /// replies and signals are not lost.
    public func flush() {
        guard (try? checkOpen("dbus_connection_flush")) != nil else { return }
        dbus_connection_flush(pointer)
    }

    /// Calls a method without waiting: `reply` runs later on `queue` with the return message,
    /// or with the error the peer (or the bus, or the timeout) answered — the error's D-Bus
    /// name kept. It is not called if the connection is closed first.
    /// - Parameter timeoutMilliseconds: -1 for libdbus' default (25 s).
    public func call(_ message: Message, timeoutMilliseconds: Int32 = -1,
                     reply: @escaping (Result<Message, DBusError>) -> Void) throws(DBusError) {
        try checkOpen("dbus_connection_send_with_reply")
        var pending: OpaquePointer?
        guard dbus_connection_send_with_reply(pointer, message.pointer, &pending, timeoutMilliseconds) != 0 else {
            throw DBusError.noMemory("dbus_connection_send_with_reply")
        }
        // NULL with TRUE: the connection is already disconnected.
        guard let pending else {
            throw DBusError.disconnected("dbus_connection_send_with_reply: not connected")
        }
        defer { dbus_pending_call_unref(pending) }  // the connection keeps its own reference
        let box = PendingReply(connection: self, reply: reply)
        // The reply cannot complete before this: completion happens while dispatching, and
        // dispatching happens on `queue`, where we are now.
        guard dbus_pending_call_set_notify(pending, PendingReply.notify,
                                           Unmanaged.passRetained(box).toOpaque(), releaseRetainedObject) != 0 else {
            // On this out-of-memory path libdbus does not take the box; it leaks rather than
            // risk a double release.
            dbus_pending_call_cancel(pending)
            throw DBusError.noMemory("dbus_pending_call_set_notify")
        }
    }

    /// Calls a method and waits for the answer, blocking `queue` meanwhile (for short-lived
    /// command-line clients). An error reply is thrown with its D-Bus name.
    public func callBlocking(_ message: Message, timeoutMilliseconds: Int32 = 5000) throws(DBusError) -> Message {
        try checkOpen("dbus_connection_send_with_reply_and_block")
        let error = CErrorBox()
        guard let reply = dbus_connection_send_with_reply_and_block(pointer, message.pointer,
                                                                    timeoutMilliseconds, error.pointer) else {
            throw error.error(function: "dbus_connection_send_with_reply_and_block", fromPeer: true)
        }
        return Message(owning: reply)
    }

    /// Routes every method call to `path` (and, if `subtree`, to paths below it that have no
    /// handler of their own) to `handler`, on `queue`. The handler answers itself with
    /// `send(message.makeReturn(…))` or `send(message.makeError(…))` when `expectsReply`.
    public func registerObject(path: String, subtree: Bool = false,
                               handler: @escaping (Message) -> Void) throws(DBusError) {
        try checkOpen("dbus_connection_try_register_object_path")
        try DBusValidation.require(DBusValidation.isValidObjectPath(path), "invalid object path \"\(path)\"")
        var vtable = DBusObjectPathVTable()
        vtable.unregister_function = ObjectHandler.unregister
        vtable.message_function = ObjectHandler.message
        let box = Unmanaged.passRetained(ObjectHandler(connection: self, handler: handler))
        let error = CErrorBox()
        // libdbus copies the vtable's function pointers, so a local vtable is enough.
        let registered = subtree
            ? dbus_connection_try_register_fallback(pointer, path, &vtable, box.toOpaque(), error.pointer)
            : dbus_connection_try_register_object_path(pointer, path, &vtable, box.toOpaque(), error.pointer)
        guard registered != 0 else {
            box.release()  // not registered, so libdbus will never call unregister
            throw error.error(function: subtree ? "dbus_connection_try_register_fallback"
                                                : "dbus_connection_try_register_object_path")
        }
        state.withLock { $0.registeredPaths.append(path) }
    }

    /// Removes a handler added with `registerObject`.
    public func unregisterObject(path: String) throws(DBusError) {
        try checkOpen("dbus_connection_unregister_object_path")
        try DBusValidation.require(DBusValidation.isValidObjectPath(path), "invalid object path \"\(path)\"")
        guard state.withLock({ $0.registeredPaths.contains(path) }) else {
            throw DBusError.unknownObject("no handler registered at \(path)")
        }
        guard dbus_connection_unregister_object_path(pointer, path) != 0 else {
            throw DBusError.noMemory("dbus_connection_unregister_object_path")
        }
        state.withLock { $0.registeredPaths.removeAll { $0 == path } }
    }
}

/// The user data of one registered object path: the Swift handler. Owned by libdbus,
/// released by its unregister function.
/// `@unchecked Sendable`: immutable; the handler is only called on the connection's queue.
final class ObjectHandler: @unchecked Sendable {
    weak var connection: Connection?
    let handler: (Message) -> Void

    init(connection: Connection, handler: @escaping (Message) -> Void) {
        self.connection = connection
        self.handler = handler
    }

    static let unregister: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
        guard let data else { return }
        Unmanaged<ObjectHandler>.fromOpaque(data).release()
    }

    static let message: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> DBusHandlerResult = { _, message, data in
        guard let message, let data,
              dbus_message_get_type(message) == CDBUS_MESSAGE_TYPE_METHOD_CALL else {
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
        let object = Unmanaged<ObjectHandler>.fromOpaque(data).takeUnretainedValue()
        guard let connection = object.connection, !connection.isClosed else {
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
        object.handler(Message(retaining: message))
        return DBUS_HANDLER_RESULT_HANDLED
    }
}

/// The user data of one pending `call`: the reply closure. Owned by the pending call.
/// `@unchecked Sendable`: immutable; `reply` is only called on the connection's queue.
final class PendingReply: @unchecked Sendable {
    weak var connection: Connection?
    let reply: (Result<Message, DBusError>) -> Void

    init(connection: Connection, reply: @escaping (Result<Message, DBusError>) -> Void) {
        self.connection = connection
        self.reply = reply
    }

    static let notify: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { pending, data in
        guard let pending, let data else { return }
        let box = Unmanaged<PendingReply>.fromOpaque(data).takeUnretainedValue()
        // After close() no callback runs.
        guard let connection = box.connection, !connection.isClosed else { return }
        guard let reply = dbus_pending_call_steal_reply(pending) else {
            box.reply(.failure(DBusError(name: DBusError.noReplyName,
                                         message: "dbus_pending_call_steal_reply: no reply")))
            return
        }
        let message = Message(owning: reply)
        if let error = message.carriedError {
            box.reply(.failure(error))
        } else {
            box.reply(.success(message))
        }
    }
}
