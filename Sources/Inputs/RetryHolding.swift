/// A station input whose reconnect attempts the pause rule can hold: while paused, a dropped
/// station is not called again; on release, a retry that fell due runs at once.
protocol RetryHolding: AnyObject, Sendable {
    func holdRetries(_ hold: Bool)
}

extension StationConnection: RetryHolding {}
