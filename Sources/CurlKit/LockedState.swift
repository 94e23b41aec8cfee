import Glibc

/// A value guarded by a pthread mutex (DBusKit has the same; the kits share no code).
///
/// Not `Synchronization.Mutex`: on Linux that is a bare futex, which ThreadSanitizer cannot
/// see, so every access under it reads as a race and a real one would hide among them.
/// `@unchecked Sendable` is safe because `value` is only ever touched inside `withLock`.
/// Never call a libcurl function that can run callbacks while holding it: they take locks too.
final class LockedState<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        // Only fails for bad attributes or lack of resources: a programmer error.
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
