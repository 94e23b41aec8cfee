#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A pthread mutex that guards no stored value: for a section that must not overlap itself
/// (a save that must not run twice at once), where `LockedState` would guard `()`.
///
/// Why not `LockedState(())`: an empty stored value sits one past the end of its object, in
/// the allocator's padding. ThreadSanitizer instruments the `inout` access to it there, but
/// resets only the object's own bytes when the memory is reused; the next object in that slot,
/// locked by another mutex on another thread, then "races" with the previous one's access
/// (a CI ThreadSanitizer run failed on exactly this in DebouncedSaver). A lock with no value
/// makes no such access.
public final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        // Only fails for bad attributes or lack of resources at startup: a programmer error.
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    public func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
