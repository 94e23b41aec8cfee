#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value guarded by a pthread mutex: the one lock type of DBusKit, CurlKit, AudioOutput
/// and Inputs.
///
/// Used instead of `Synchronization.Mutex` for two reasons: on Linux that is a bare futex,
/// which ThreadSanitizer cannot see (every access under it reads as a race, and a real one
/// would hide among them); and the guarded values include non-Sendable closures that are read
/// out of the lock, which `Mutex`'s `sending` rules forbid.
/// `@unchecked Sendable` is safe because `value` is only ever touched inside `withLock`.
/// Never call out of the lock's owner while holding it (into libdbus or libcurl, which call
/// back and take locks too, or into a caller's closure).
public final class LockedState<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: Value) {
        self.value = value
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

    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
