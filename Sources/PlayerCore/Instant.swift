/// A moment on a monotonic clock, in microseconds since an arbitrary origin.
///
/// PlayerCore never reads a clock: the caller passes the moment of each event, so tests are
/// deterministic tables of events and times.
public struct Instant: Comparable, Hashable, Sendable {
    public var microseconds: Int64

    public init(microseconds: Int64) { self.microseconds = microseconds }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.microseconds < rhs.microseconds }

    /// The time elapsed from `rhs` to `lhs` (saturating: delays come from settings and peers).
    public static func - (lhs: Instant, rhs: Instant) -> Microseconds {
        lhs.microseconds.saturatingSubtracting(rhs.microseconds)
    }

    public static func + (lhs: Instant, rhs: Microseconds) -> Instant {
        Instant(microseconds: lhs.microseconds.saturatingAdding(rhs))
    }
}
