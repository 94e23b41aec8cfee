import Handoff

/// The app's handle on a stream whose connection is made on a decoder queue: pausing holds
/// its reconnect attempts (Pause cancels "reconnecting"), playing releases them.
public final class StreamControl: Sendable {
    private struct State {
        /// Weak: the connection lives as long as its track's decoder, not as long as this handle.
        weak var connection: (any RetryHolding)?
        var held = false
    }
    private let state = LockedState(State())

    public init() {}

    public func holdRetries(_ hold: Bool) {
        let connection = state.withLock { state -> (any RetryHolding)? in
            state.held = hold
            return state.connection
        }
        connection?.holdRetries(hold)
    }

    func attach(_ connection: any RetryHolding) {
        let held = state.withLock { state -> Bool in
            state.connection = connection
            return state.held
        }
        if held { connection.holdRetries(true) }
    }
}
