internal import CPulse

/// A one-shot timer on a `ThreadedMainloop` (`pa_mainloop_api` time event).
///
/// Created disarmed; `schedule(after:)` arms it (again), `cancel()` disarms it. The handler runs
/// on the loop thread with the lock held. All methods need the loop's lock.
public final class MainloopTimer: @unchecked Sendable {
    // @unchecked Sendable: every member is used only with the mainloop lock held (callers'
    // contract, like every libpulse object), so there is no unsynchronised access.
    private let mainloop: ThreadedMainloop
    private var event: OpaquePointer?
    private let handler: () -> Void

    /// - Parameter handler: runs on the loop thread when the timer fires.
    public init(mainloop: ThreadedMainloop, handler: @escaping () -> Void) throws(PulseError) {
        self.mainloop = mainloop
        self.handler = handler
        let api = mainloop.api
        guard let timeNew = api.pointee.time_new else {
            throw PulseError(function: "pa_mainloop_api.time_new", code: 0, message: "missing")
        }
        // NULL time = created disabled. Userdata is unretained: deinit frees the event first.
        let event = timeNew(api, nil, { _, _, _, userdata in
            guard let userdata else { return }
            Unmanaged<MainloopTimer>.fromOpaque(userdata).takeUnretainedValue().handler()
        }, Unmanaged.passUnretained(self).toOpaque())
        guard let event else {
            throw PulseError(function: "pa_mainloop_api.time_new", code: 0, message: "failed")
        }
        self.event = event
    }

    deinit {
        if let event, let free = mainloop.api.pointee.time_free { free(event) }
    }

    /// Arms the timer to fire once, `microseconds` from now (replacing an earlier schedule).
    public func schedule(after microseconds: UInt64) {
        guard let event, let restart = mainloop.api.pointee.time_restart else { return }
        var when = timeval()
        pa_gettimeofday(&when)
        pa_timeval_add(&when, microseconds)
        restart(event, &when)
    }

    /// Disarms the timer.
    public func cancel() {
        guard let event, let restart = mainloop.api.pointee.time_restart else { return }
        restart(event, nil)
    }
}
