internal import CPulse

/// `pa_threaded_mainloop`: libpulse's event loop running on its own thread.
///
/// All callbacks of objects created on it (context, streams, timers, operations) run on that
/// thread with the loop's lock held. Any other thread must hold the lock (`withLock`) around
/// every libpulse call. libpulse asserts when its lock is taken on the loop thread itself, so
/// `withLock` skips locking there (callbacks already hold it): code that may run on either
/// side uses `withLock`, never `lock()`.
public final class ThreadedMainloop: @unchecked Sendable {
    // @unchecked Sendable: the pointer is immutable after init and libpulse's threaded
    // mainloop is designed to be locked/signalled from any thread.
    let pointer: OpaquePointer
    private var isRunning = false  // touched only by start/stop, which callers serialise

    public init() throws(PulseError) {
        guard let pointer = pa_threaded_mainloop_new() else {
            throw PulseError(function: "pa_threaded_mainloop_new", code: 0, message: "out of memory")
        }
        self.pointer = pointer
    }

    deinit {
        if isRunning { pa_threaded_mainloop_stop(pointer) }
        pa_threaded_mainloop_free(pointer)
    }

    /// The mainloop API vtable, for contexts and timers.
    var api: UnsafeMutablePointer<pa_mainloop_api> {
        // Never NULL for a live threaded mainloop.
        pa_threaded_mainloop_get_api(pointer)
    }

    /// Starts the event thread. Call once, without holding the lock.
    public func start(threadName: String? = nil) throws(PulseError) {
        try PulseError.check(pa_threaded_mainloop_start(pointer), "pa_threaded_mainloop_start")
        isRunning = true
        if let threadName { pa_threaded_mainloop_set_name(pointer, threadName) }
    }

    /// Stops the event thread and waits for it. Must not be called from the loop's own thread
    /// nor with the lock held (libpulse would deadlock or assert).
    public func stop() {
        guard isRunning else { return }
        precondition(!isInLoopThread, "ThreadedMainloop.stop() called from its own thread")
        pa_threaded_mainloop_stop(pointer)
        isRunning = false
    }

    /// True on the loop's own thread, i.e. inside a libpulse callback.
    public var isInLoopThread: Bool { pa_threaded_mainloop_in_thread(pointer) != 0 }

    /// Takes the loop's lock. Never on the loop thread (libpulse aborts): see `withLock`.
    public func lock() { pa_threaded_mainloop_lock(pointer) }
    public func unlock() { pa_threaded_mainloop_unlock(pointer) }

    /// Runs `body` holding the loop's lock. On the loop thread (inside a callback) the lock is
    /// already held, and taking it again would abort, so `body` just runs.
    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        if isInLoopThread { return try body() }
        pa_threaded_mainloop_lock(pointer)
        defer { pa_threaded_mainloop_unlock(pointer) }
        return try body()
    }

    /// Wakes every thread blocked in `wait()`; call from a callback.
    public func signal() { pa_threaded_mainloop_signal(pointer, 0) }

    /// Releases the lock until `signal()` is called, then takes it again. Lock must be held;
    /// never call from the loop thread.
    public func wait() { pa_threaded_mainloop_wait(pointer) }
}
