import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where the daemon's timers run: work after a delay, on a serial queue, behind one seam so that
/// tests drive them in virtual time (`VirtualScheduler`, as swift-nio's EmbeddedEventLoop with
/// its `advanceTime`) instead of waiting them out. The debounced and backed-off saves and the
/// guard's timers (its pause check and sleep wait) go through one.
public protocol Scheduler: Sendable {
    /// Seconds on a monotonic clock, the timebase of `after`.
    var now: Double { get }
    /// Runs `work` once `seconds` (negative: none) have passed.
    func after(_ seconds: Double, _ work: @escaping @Sendable () -> Void)
}

/// The real one: `DispatchQueue.asyncAfter` on `queue`, CLOCK_MONOTONIC.
public struct QueueScheduler: Scheduler {
    public let queue: DispatchQueue

    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    public var now: Double { Self.monotonicSeconds() }

    public func after(_ seconds: Double, _ work: @escaping @Sendable () -> Void) {
        // A day at most: a hostile or broken delay (infinity, NaN) must not trap or overflow.
        let bounded = seconds.isFinite ? min(max(seconds, 0), 86_400) : 86_400
        queue.asyncAfter(deadline: .now() + bounded, execute: work)
    }

    /// CLOCK_MONOTONIC in seconds.
    public static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

/// Virtual time for tests: nothing runs until the test advances the clock; then everything due
/// runs, in the order it is due (ties in the order scheduled), on the test's thread, work
/// scheduled meanwhile included when it falls due within the advance. Time is counted in whole
/// nanoseconds, so that 0.199 s and 0.001 s make exactly 0.2 s.
public final class VirtualScheduler: Scheduler, @unchecked Sendable {
    private struct Entry {
        var due: Int64
        var order: Int
        var work: @Sendable () -> Void
    }

    private struct State {
        var now: Int64
        var next = 0
        var entries: [Entry] = []
    }

    private let state: LockedState<State>

    public init(now: Double = 1_000) {
        state = LockedState(State(now: Self.nanoseconds(now)))
    }

    public var now: Double { Double(state.withLock { $0.now }) / 1e9 }

    /// How many pieces of work wait.
    public var pendingCount: Int { state.withLock { $0.entries.count } }

    /// In how many seconds the next piece of work is due, if any.
    public var nextDueIn: Double? {
        state.withLock { state in state.entries.map(\.due).min().map { Double($0 - state.now) / 1e9 } }
    }

    public func after(_ seconds: Double, _ work: @escaping @Sendable () -> Void) {
        state.withLock { state in
            let delay = seconds.isFinite ? Self.nanoseconds(max(seconds, 0)) : Int64.max / 2
            state.entries.append(Entry(due: state.now + delay, order: state.next, work: work))
            state.next += 1
        }
    }

    /// Moves the clock forward by `seconds`, running what falls due on the way.
    public func advance(by seconds: Double) {
        let end = state.withLock { $0.now } + Self.nanoseconds(seconds)
        while let work = takeNext(dueBy: end) { work() }
        state.withLock { $0.now = max($0.now, end) }
    }

    /// The earliest entry due by `end`, removed, with the clock moved to its time.
    private func takeNext(dueBy end: Int64) -> (@Sendable () -> Void)? {
        state.withLock { state in
            guard let index = state.entries.indices.min(by: {
                (state.entries[$0].due, state.entries[$0].order) < (state.entries[$1].due, state.entries[$1].order)
            }), state.entries[index].due <= end else { return nil }
            let entry = state.entries.remove(at: index)
            state.now = max(state.now, entry.due)
            return entry.work
        }
    }

    private static func nanoseconds(_ seconds: Double) -> Int64 {
        Int64((min(seconds, 1e9) * 1e9).rounded())
    }
}
