/// When to try saving again after a failed save, and which failures are worth a log line.
///
/// A full disk or a read-only folder fails every save the same way; the position alone is
/// saved every second while playing. Logging each failure would fill the journal with one
/// line a second, and retrying each second would rewrite a large file into a full disk for
/// nothing. So: the first failure is logged, then attempts wait 1 s, 2 s, 4 s … up to 60 s;
/// a failure is logged again only when it changes (another call or errno), and the first
/// success after failures is logged ("saved again").
///
/// Pure: time is passed in (seconds on any monotonic clock), so tests need no waiting.
public struct SaveBackoff: Sendable, Equatable {
    public static let firstDelay = 1.0
    public static let maximumDelay = 60.0

    /// What failed last, as compared to tell "the same failure again" from a new one: the call
    /// and errno (the path is left out: temporary files have random names).
    private struct Failure: Equatable {
        var call: String
        var code: Int32?
        var reason: String
    }

    /// The first wait after a failure and the longest one, in seconds.
    public let firstDelay: Double
    public let maximumDelay: Double
    private var failure: Failure?
    /// Failures since the last success.
    public private(set) var failures = 0
    /// No attempt before this moment (nil: try at any time).
    public private(set) var retryAt: Double?
    private var delay = 0.0

    public init(firstDelay: Double = SaveBackoff.firstDelay, maximumDelay: Double = SaveBackoff.maximumDelay) {
        self.firstDelay = firstDelay
        self.maximumDelay = maximumDelay
    }

    /// Whether saves are currently failing.
    public var isFailing: Bool { failure != nil }

    /// Whether an attempt may be made at `now`.
    public func mayAttempt(at now: Double) -> Bool {
        retryAt.map { now >= $0 } ?? true
    }

    /// Records a failure at `now`; returns whether it deserves a log line (the first one, or a
    /// different one from the last). The next attempt waits twice as long as the last wait.
    public mutating func failed(_ error: PersistenceError, at now: Double) -> Bool {
        let this = Failure(call: error.call, code: error.code, reason: error.reason)
        let isNew = this != failure
        failure = this
        failures += 1
        delay = delay == 0 ? firstDelay : min(delay * 2, maximumDelay)
        retryAt = now + delay
        return isNew
    }

    /// Records a success; returns the number of failures it ends (0: nothing was failing).
    public mutating func succeeded() -> Int {
        let ended = failures
        self = SaveBackoff(firstDelay: firstDelay, maximumDelay: maximumDelay)
        return ended
    }

    /// The wait before the next attempt, after the failures so far.
    public var currentDelay: Double { delay }
}
