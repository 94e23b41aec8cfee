internal import CPulse

/// `pa_operation`: a request in flight to the server.
///
/// Dropping an `Operation` does not cancel it: libpulse keeps its own reference until the
/// reply arrives. Keep one only to `cancel()` it or to look at its `state`. Needs the loop lock.
public final class Operation: @unchecked Sendable {
    // @unchecked Sendable: used only with the mainloop lock held, like every libpulse object.
    private let pointer: OpaquePointer

    public enum State: Sendable, Equatable { case running, done, cancelled }

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    deinit { pa_operation_unref(pointer) }

    public var state: State {
        switch pa_operation_get_state(pointer) {
        case PA_OPERATION_DONE: .done
        case PA_OPERATION_CANCELLED: .cancelled
        default: .running
        }
    }

    /// Cancels the request: its completion handler will not run.
    public func cancel() { pa_operation_cancel(pointer) }

    /// Wraps a freshly returned `pa_operation*`, throwing with the context's errno when NULL.
    static func wrap(_ pointer: OpaquePointer?, _ function: String,
                     context: OpaquePointer?) throws(PulseError) -> Operation {
        guard let pointer else { throw PulseError(function, context: context) }
        return Operation(pointer)
    }
}

/// Carries a Swift completion handler through a C callback's `void *userdata`.
///
/// One retain belongs to the pending `pa_operation`: the operation's state callback releases
/// it when the operation is done or cancelled, so the box lives exactly as long as the request
/// and never leaks, whether or not the reply callback ran.
class CallbackBoxBase: @unchecked Sendable {
    // Non-generic so the C state callback below can release any box (C function pointers
    // cannot capture generic parameters).

    /// Makes the operation release the box's retain when it ends. When `operation` is NULL the
    /// request never started and the retain is released at once.
    static func attach(_ userdata: UnsafeMutableRawPointer, to operation: OpaquePointer?) {
        guard let operation else {
            Unmanaged<CallbackBoxBase>.fromOpaque(userdata).release()
            return
        }
        pa_operation_set_state_callback(operation, { operation, userdata in
            guard let operation, let userdata else { return }
            let state = pa_operation_get_state(operation)
            if state == PA_OPERATION_DONE || state == PA_OPERATION_CANCELLED {
                pa_operation_set_state_callback(operation, nil, nil)
                Unmanaged<CallbackBoxBase>.fromOpaque(userdata).release()
            }
        }, userdata)
    }
}

final class CallbackBox<Value>: CallbackBoxBase, @unchecked Sendable {
    // @unchecked Sendable: created, called and released on the loop thread / under its lock.
    let handler: (Value) -> Void
    init(_ handler: @escaping (Value) -> Void) { self.handler = handler }

    /// The `userdata` to give libpulse (+1 retain, released by `attach(to:)`'s callback).
    func retainedUserdata() -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(self).toOpaque()
    }

    static func from(_ userdata: UnsafeMutableRawPointer?) -> CallbackBox<Value>? {
        guard let userdata else { return nil }
        return Unmanaged<CallbackBox<Value>>.fromOpaque(userdata).takeUnretainedValue()
    }
}
