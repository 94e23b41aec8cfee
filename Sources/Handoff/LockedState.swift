/// A value guarded by a pthread mutex (`Lock`): the one lock type of DBusKit, CurlKit,
/// AudioOutput and Inputs.
///
/// Used instead of `Synchronization.Mutex` for two reasons: on Linux that is a bare futex,
/// which ThreadSanitizer cannot see (every access under it reads as a race, and a real one
/// would hide among them); and the guarded values include non-Sendable closures that are read
/// out of the lock, which `Mutex`'s `sending` rules forbid. For a section with no value, use
/// `Lock` itself (why: see there).
/// `@unchecked Sendable` is safe because `value` is only ever touched inside `withLock`.
/// Never call out of the lock's owner while holding it (into libdbus or libcurl, which call
/// back and take locks too, or into a caller's closure).
public final class LockedState<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try lock.withLock { try body(&value) }
    }
}
