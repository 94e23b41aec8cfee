internal import CDBus
import Dispatch
import Glibc
import Handoff

/// Drives one libdbus watch (`DBusWatch`: a socket to wait on) with dispatch sources.
///
/// While the watch is enabled, a read and/or write `DispatchSource` on the connection's queue
/// calls `dbus_watch_handle` as soon as the socket is ready and then dispatches what arrived —
/// no polling, no timeout. libdbus owns this object as the watch's data (released when the
/// watch is removed). Sources are recreated on each toggle rather than suspended, because
/// releasing a suspended dispatch source is a crash and toggles are rare.
/// Each source watches a `dup()` of the socket, closed by its cancel handler, because
/// libdispatch requires a source's descriptor to stay open until that handler has run: libdbus
/// closes its own as soon as it has removed the watch, while a cancelled source leaves the
/// epoll set only later, on libdispatch's manager thread. With the number closed or reused by
/// then, that removal misses, and an entry whose note is freed can stay in the set (a test
/// runner that closed bus connections while it started processes crashed on CI in
/// `_dispatch_event_loop_drain`, a bad pointer dereference on the manager thread).
/// `@unchecked Sendable`: the mutable parts are behind `LockedState`; `watch` is immutable and
/// valid until libdbus removes the watch, after which `isActive` is false and it is not used.
final class WatchSource: @unchecked Sendable {
    private let watch: OpaquePointer
    private let context: CallbackContext
    private struct State {
        var isActive = true
        var sources: [any DispatchSourceProtocol] = []
    }
    private let state = LockedState(State())

    init(watch: OpaquePointer, context: CallbackContext) {
        self.watch = watch
        self.context = context
    }

    /// Matches the dispatch sources to the watch's enabled state and flags.
    func update() {
        let old = state.withLock { s in
            defer { s.sources = [] }
            return s.sources
        }
        old.forEach { $0.cancel() }
        guard dbus_watch_get_enabled(watch) != 0 else { return }
        let fd = dbus_watch_get_unix_fd(watch)
        guard fd >= 0 else { return }
        let flags = dbus_watch_get_flags(watch)
        var sources: [any DispatchSourceProtocol] = []
        if flags & CDBUS_WATCH_READABLE != 0 {
            let own = Self.ownDescriptor(fd)
            let source = DispatchSource.makeReadSource(fileDescriptor: own ?? fd, queue: context.queue)
            source.setEventHandler { [self] in handle(CDBUS_WATCH_READABLE) }
            if let own { source.setCancelHandler { close(own) } }
            sources.append(source)
        }
        if flags & CDBUS_WATCH_WRITABLE != 0 {
            let own = Self.ownDescriptor(fd)
            let source = DispatchSource.makeWriteSource(fileDescriptor: own ?? fd, queue: context.queue)
            source.setEventHandler { [self] in handle(CDBUS_WATCH_WRITABLE) }
            if let own { source.setCancelHandler { close(own) } }
            sources.append(source)
        }
        let stillActive = state.withLock { s in
            if s.isActive { s.sources = sources }
            return s.isActive
        }
        // Removed meanwhile: cancelled before they start, so no event reaches them and their
        // cancel handlers still run (and close the descriptors of their own).
        if !stillActive { sources.forEach { $0.cancel() } }
        sources.forEach { $0.resume() }
    }

    /// The watch was removed: stop for good.
    func invalidate() {
        let old = state.withLock { s in
            s.isActive = false
            defer { s.sources = [] }
            return s.sources
        }
        old.forEach { $0.cancel() }
    }

    /// A descriptor of the source's own for libdbus's `fd` (close-on-exec, like libdbus's), or
    /// nil when none can be had (the process is out of descriptors): the source then watches
    /// libdbus's own, as it did before, rather than leave the connection deaf.
    private static func ownDescriptor(_ fd: Int32) -> Int32? {
        let own = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        return own >= 0 ? own : nil
    }

    private func handle(_ condition: UInt32) {
        guard state.withLock({ $0.isActive }), let connection = context.liveConnection else { return }
        // FALSE only means "out of memory, try again later": the source fires again.
        _ = dbus_watch_handle(watch, condition)
        connection.dispatchPending()
    }

    // MARK: libdbus callbacks (DBusAddWatchFunction and friends)

    static let add: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> dbus_bool_t = { watch, data in
        guard let watch, let context = CallbackContext.from(data) else { return 0 }
        let source = WatchSource(watch: watch, context: context)
        dbus_watch_set_data(watch, Unmanaged.passRetained(source).toOpaque(), releaseRetainedObject)
        source.update()
        return 1
    }

    static let remove: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { watch, _ in
        // Uses only the watch's own data: the connection user data may be stale during teardown.
        guard let watch, let data = dbus_watch_get_data(watch) else { return }
        Unmanaged<WatchSource>.fromOpaque(data).takeUnretainedValue().invalidate()
        dbus_watch_set_data(watch, nil, nil)  // releases the WatchSource
    }

    static let toggle: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { watch, _ in
        guard let watch, let data = dbus_watch_get_data(watch) else { return }
        Unmanaged<WatchSource>.fromOpaque(data).takeUnretainedValue().update()
    }
}
