import Dispatch

/// The user data DBusKit hands to libdbus for every callback of one connection.
///
/// It holds the `Connection` weakly and is owned (retained) by libdbus, which releases it
/// through the free function it was registered with. So a callback that arrives after the
/// `Connection` is gone finds `nil` and does nothing, instead of touching freed memory.
/// `@unchecked Sendable`: `queue` is immutable, and the weak reference is written once in
/// `init` and only read afterwards (weak loads are atomic in the Swift runtime).
final class CallbackContext: @unchecked Sendable {
    weak var connection: Connection?
    let queue: DispatchQueue

    init(connection: Connection, queue: DispatchQueue) {
        self.connection = connection
        self.queue = queue
    }

    /// The connection, if it still exists and has not been closed.
    var liveConnection: Connection? {
        guard let connection, !connection.isClosed else { return nil }
        return connection
    }

    /// A +1 reference to hand to libdbus as user data.
    func retainedPointer() -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(self).toOpaque()
    }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> CallbackContext? {
        pointer.map { Unmanaged<CallbackContext>.fromOpaque($0).takeUnretainedValue() }
    }
}

/// The free function for user data created with `Unmanaged.passRetained`.
let releaseRetainedObject: @convention(c) (UnsafeMutableRawPointer?) -> Void = { pointer in
    guard let pointer else { return }
    Unmanaged<AnyObject>.fromOpaque(pointer).release()
}
