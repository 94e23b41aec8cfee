/// How long to wait before connecting to a station again: 0.5 s, doubling to 30 s, each
/// delay jittered by ±25 % (so a thousand listeners of a station that restarts do not all
/// come back in the same millisecond). A connection that played for `steadyAfter` counts as
/// good again: its next drop starts over at 0.5 s.
public struct ReconnectBackoff: Sendable {
    public static let firstDelay = 0.5
    public static let longestDelay = 30.0
    /// Seconds of audio after which a connection counts as steady.
    public static let steadyAfter = 10.0

    /// Failed attempts since the last steady connection.
    public private(set) var attempt = 0
    private var random: @Sendable () -> Double

    /// `random` returns values in 0..<1 (tests pass a fixed one).
    public init(random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.random = random
    }

    /// Seconds to wait before the next attempt; counts the attempt.
    public mutating func nextDelay() -> Double {
        attempt += 1
        let base = min(Self.longestDelay, Self.firstDelay * Double(1 << min(attempt - 1, 16)))
        return base * (0.75 + 0.5 * random())
    }

    /// The connection has played steadily: start over.
    public mutating func reset() {
        attempt = 0
    }
}
