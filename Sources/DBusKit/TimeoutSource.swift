internal import CDBus
import Dispatch
import Handoff

/// Drives one libdbus timeout (`DBusTimeout`, e.g. a method call's reply deadline) with a
/// dispatch timer on the connection's queue. Owned by libdbus as the timeout's data.
/// `@unchecked Sendable`: mutable state is behind `LockedState`; `timeout` is immutable and
/// only used while `isActive`.
final class TimeoutSource: @unchecked Sendable {
    private let timeout: OpaquePointer
    private let context: CallbackContext
    private struct State {
        var isActive = true
        var timer: (any DispatchSourceTimer)?
    }
    private let state = LockedState(State())

    init(timeout: OpaquePointer, context: CallbackContext) {
        self.timeout = timeout
        self.context = context
    }

    /// Re-arms the timer from now if the timeout is enabled (libdbus' intervals restart on toggle).
    func update() {
        let old = state.withLock { s in
            defer { s.timer = nil }
            return s.timer
        }
        old?.cancel()
        guard dbus_timeout_get_enabled(timeout) != 0 else { return }
        let interval = DispatchTimeInterval.milliseconds(Int(max(0, dbus_timeout_get_interval(timeout))))
        let timer = DispatchSource.makeTimerSource(queue: context.queue)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [self] in handle() }
        let stillActive = state.withLock { s in
            if s.isActive { s.timer = timer }
            return s.isActive
        }
        if stillActive { timer.resume() }
    }

    func invalidate() {
        let old = state.withLock { s in
            s.isActive = false
            defer { s.timer = nil }
            return s.timer
        }
        old?.cancel()
    }

    private func handle() {
        guard state.withLock({ $0.isActive }), let connection = context.liveConnection else { return }
        // FALSE means out of memory: the repeating timer simply tries again.
        _ = dbus_timeout_handle(timeout)
        connection.dispatchPending()
    }

    // MARK: libdbus callbacks (DBusAddTimeoutFunction and friends)

    static let add: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> dbus_bool_t = { timeout, data in
        guard let timeout, let context = CallbackContext.from(data) else { return 0 }
        let source = TimeoutSource(timeout: timeout, context: context)
        dbus_timeout_set_data(timeout, Unmanaged.passRetained(source).toOpaque(), releaseRetainedObject)
        source.update()
        return 1
    }

    static let remove: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { timeout, _ in
        guard let timeout, let data = dbus_timeout_get_data(timeout) else { return }
        Unmanaged<TimeoutSource>.fromOpaque(data).takeUnretainedValue().invalidate()
        dbus_timeout_set_data(timeout, nil, nil)  // releases the TimeoutSource
    }

    static let toggle: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { timeout, _ in
        guard let timeout, let data = dbus_timeout_get_data(timeout) else { return }
        Unmanaged<TimeoutSource>.fromOpaque(data).takeUnretainedValue().update()
    }
}
