internal import CDBus
import Dispatch

// Hooking the connection into its queue, dispatching, and tearing down.

extension Connection {
    /// Installs the filter (signals, disconnect) and the main-loop functions. Each gets its
    /// own retained `CallbackContext`, released by libdbus when replaced or finalised.
    func installCallbacks() throws(DBusError) {
        let context = CallbackContext(connection: self, queue: queue)
        guard dbus_connection_add_filter(pointer, Self.filter, context.retainedPointer(), releaseRetainedObject) != 0 else {
            throw DBusError.noMemory("dbus_connection_add_filter")
        }
        guard dbus_connection_set_watch_functions(pointer, WatchSource.add, WatchSource.remove, WatchSource.toggle,
                                                  context.retainedPointer(), releaseRetainedObject) != 0 else {
            throw DBusError.noMemory("dbus_connection_set_watch_functions")
        }
        guard dbus_connection_set_timeout_functions(pointer, TimeoutSource.add, TimeoutSource.remove, TimeoutSource.toggle,
                                                    context.retainedPointer(), releaseRetainedObject) != 0 else {
            throw DBusError.noMemory("dbus_connection_set_timeout_functions")
        }
        dbus_connection_set_dispatch_status_function(pointer, Self.dispatchStatusChanged,
                                                     context.retainedPointer(), releaseRetainedObject)
        dbus_connection_set_wakeup_main_function(pointer, Self.wakeUp, context.retainedPointer(), releaseRetainedObject)
    }

    /// Runs a dispatch on `queue` soon (once, however often it is asked for meanwhile).
    /// Callable from any thread: libdbus calls it from inside its own functions.
    func scheduleDispatch() {
        let alreadyScheduled = state.withLock { s in
            defer { s.isDispatchScheduled = true }
            return s.isDispatchScheduled
        }
        guard !alreadyScheduled else { return }
        queue.async { [weak self] in self?.dispatchPending() }
    }

    /// Hands every queued incoming message to its handler. Never re-entered: libdbus would
    /// deadlock on a nested `dbus_connection_dispatch`.
    func dispatchPending() {
        assertOnQueue()
        let mayDispatch = state.withLock { s in
            s.isDispatchScheduled = false
            guard !s.isClosed, !s.isDispatching else { return false }
            s.isDispatching = true
            return true
        }
        guard mayDispatch else { return }
        // A handler may close the connection; check before every round.
        while !isClosed, dbus_connection_dispatch(pointer) == DBUS_DISPATCH_DATA_REMAINS {}
        state.withLock { $0.isDispatching = false }
    }

    /// Called for every incoming message before object handlers: signals go to `onSignal`,
    /// libdbus' local Disconnected signal to `onDisconnect`.
    private func filter(_ message: OpaquePointer) -> DBusHandlerResult {
        guard dbus_message_get_type(message) == CDBUS_MESSAGE_TYPE_SIGNAL else {
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
        if dbus_message_is_signal(message, "org.freedesktop.DBus.Local", "Disconnected") != 0 {
            let handler = state.withLock { $0.onDisconnect }
            handler?()
            return DBUS_HANDLER_RESULT_HANDLED
        }
        if let handler = state.withLock({ $0.onSignal }) {
            handler(Message(retaining: message))
        }
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
    }

    /// Removes every callback, then closes and releases the C connection. Safe from deinit on
    /// any thread: all C callbacks hold the connection weakly and find it gone or closed.
    func teardown() {
        let (wasClosed, dispatching, paths, handlers) = state.withLock { s in
            defer {
                s.isClosed = true
                s.registeredPaths = []
                s.onSignal = nil  // breaks cycles through handlers capturing the connection
                s.onDisconnect = nil
            }
            return (s.isClosed, s.isDispatching, s.registeredPaths, (s.onSignal, s.onDisconnect))
        }
        guard !wasClosed else { return }
        _ = handlers  // released here, outside the lock: their deinit may do anything
        // With NULL functions these cannot fail; libdbus calls each watch's remove function,
        // which cancels its dispatch sources.
        _ = dbus_connection_set_watch_functions(pointer, nil, nil, nil, nil, nil)
        _ = dbus_connection_set_timeout_functions(pointer, nil, nil, nil, nil, nil)
        dbus_connection_set_dispatch_status_function(pointer, nil, nil, nil)
        dbus_connection_set_wakeup_main_function(pointer, nil, nil, nil)
        for path in paths {
            // FALSE only on lack of memory; the handler is then released with the connection.
            _ = dbus_connection_unregister_object_path(pointer, path)
        }
        let connection = UncheckedPointer(pointer)
        if dispatching {
            // Closed from inside a handler: libdbus holds its own reference until the current
            // dispatch returns; finish on the queue afterwards, never within it.
            queue.async { Connection.finish(connection.pointer) }
        } else {
            Self.finish(pointer)
        }
    }

    /// Closes and releases a C connection. What is still queued (replies for pending calls,
    /// the Disconnected signal) is dispatched to callbacks that now do nothing, so pending
    /// calls let go of their connection references.
    static func finish(_ pointer: OpaquePointer) {
        dbus_connection_close(pointer)
        while dbus_connection_dispatch(pointer) == DBUS_DISPATCH_DATA_REMAINS {}
        dbus_connection_unref(pointer)
    }

    // MARK: libdbus callbacks

    private static let filter: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> DBusHandlerResult = { _, message, data in
        guard let message, let connection = CallbackContext.from(data)?.liveConnection else {
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
        return connection.filter(message)
    }

    private static let dispatchStatusChanged: @convention(c) (OpaquePointer?, DBusDispatchStatus, UnsafeMutableRawPointer?) -> Void = { _, status, data in
        guard status == DBUS_DISPATCH_DATA_REMAINS else { return }
        CallbackContext.from(data)?.liveConnection?.scheduleDispatch()
    }

    private static let wakeUp: @convention(c) (UnsafeMutableRawPointer?) -> Void = { data in
        CallbackContext.from(data)?.liveConnection?.scheduleDispatch()
    }
}

/// Carries a C pointer into a closure for the queue. `@unchecked Sendable`: the pointer is
/// used on one thread at a time (the queue), after every other user has been removed.
struct UncheckedPointer: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
}
