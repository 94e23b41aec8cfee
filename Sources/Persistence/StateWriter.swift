import Dispatch
public import Handoff
import PlayerCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes the state files on one serial queue, in the order asked, and deals with failure:
/// - a failed save is kept and tried again after a growing delay (`SaveBackoff`: 1 s doubling
///   to 60 s), so saving resumes by itself when the disk has room again, even if nothing
///   changes meanwhile; newer requests replace the one waiting;
/// - only the first failure, a failure that differs from the last, and the recovery are
///   reported (one log line each), not one line a second;
/// - `finish` writes the final state after everything asked before it and closes the
///   writer: nothing asked afterwards (a debounced save whose timer was already running, the
///   position timer's last tick) can overwrite the final state.
///
/// Thread-safe: every method may be called from any thread but `queue` itself; all mutable
/// state lives on `queue`.
public final class StateWriter: @unchecked Sendable {
    /// What deserves a log line.
    public enum Report: Sendable, Equatable {
        /// Saving failed, for the first time or differently from the last time; the next try
        /// is in `retryIn` seconds.
        case failing(PersistenceError, retryIn: Double)
        /// A save succeeded after `failures` failed attempts.
        case recovered(failures: Int)
        /// The final save (`finish`) failed.
        case finalSaveFailed(PersistenceError)
    }

    private struct Position {
        var currentIndex: Int?
        var path: FilePath?
        var position: Microseconds
    }

    public let store: StateStore
    private let queue: DispatchQueue
    /// The backoff's clock and the retry timer (virtual time in tests).
    private let scheduler: any Scheduler
    private let report: @Sendable (Report) -> Void
    // On `queue` only:
    private var backoff: SaveBackoff
    private var pendingState: PlayerMemento?
    private var pendingPosition: Position?
    private var retryScheduled = false
    private var finished = false

    /// - Parameters:
    ///   - scheduler: the backoff's clock and its retry timer; nil: real time on `queue`.
    ///   - backoff: the retry policy.
    ///   - report: called on `queue` with what deserves a log line.
    public init(store: StateStore, queue: DispatchQueue = DispatchQueue(label: "aubade.persistence", qos: .utility),
                backoff: SaveBackoff = SaveBackoff(), scheduler: (any Scheduler)? = nil,
                report: @escaping @Sendable (Report) -> Void) {
        self.store = store
        self.queue = queue
        self.backoff = backoff
        self.scheduler = scheduler ?? QueueScheduler(queue: queue)
        self.report = report
    }

    /// Saves the whole state (and its position) soon, on the writer's queue.
    public func save(_ memento: PlayerMemento) {
        queue.async { [self] in
            pendingState = memento
            pendingPosition = nil   // the state holds a newer position
            attempt()
        }
    }

    /// Saves the position alone soon (`position.json`).
    public func savePosition(currentIndex: Int?, path: FilePath?, position: Microseconds) {
        queue.async { [self] in
            pendingPosition = Position(currentIndex: currentIndex, path: path, position: position)
            attempt()
        }
    }

    /// Writes `memento` now, after every request made before, whatever the backoff says (the
    /// last chance), and ignores every request after. Returns whether it was saved.
    @discardableResult
    public func finish(_ memento: PlayerMemento) -> Bool {
        dispatchPrecondition(condition: .notOnQueue(queue))
        return queue.sync { [self] in
            finished = true
            pendingState = nil
            pendingPosition = nil
            do throws(PersistenceError) {
                try store.save(memento)
            } catch {
                report(.finalSaveFailed(error))
                return false
            }
            let ended = backoff.succeeded()
            if ended > 0 { report(.recovered(failures: ended)) }
            return true
        }
    }

    /// Waits until every request made so far has been tried (for tests).
    public func drain() {
        queue.sync {}
    }

    /// Whether a failed save waits to be tried again (for tests and `aubade status` later).
    public var isFailing: Bool { queue.sync { backoff.isFailing } }

    private func attempt() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !finished else {
            pendingState = nil
            pendingPosition = nil
            return
        }
        guard pendingState != nil || pendingPosition != nil else { return }
        let now = scheduler.now
        guard backoff.mayAttempt(at: now) else { return scheduleRetry() }
        do throws(PersistenceError) {
            if let state = pendingState {
                try store.save(state)
                pendingState = nil
            }
            if let position = pendingPosition {
                try store.savePosition(currentIndex: position.currentIndex, path: position.path, position: position.position)
                pendingPosition = nil
            }
        } catch {
            if backoff.failed(error, at: now) { report(.failing(error, retryIn: backoff.currentDelay)) }
            return scheduleRetry()
        }
        let ended = backoff.succeeded()
        if ended > 0 { report(.recovered(failures: ended)) }
    }

    /// One timer at a time, due when the backoff allows the next attempt.
    private func scheduleRetry() {
        guard !retryScheduled, let retryAt = backoff.retryAt else { return }
        retryScheduled = true
        // The timer may fire elsewhere (virtual time runs it on the test's thread): the retry
        // itself runs on the writer's queue, as everything of its state does.
        scheduler.after(max(0, retryAt - scheduler.now)) { [weak self] in
            guard let self else { return }
            queue.async { [self] in
                retryScheduled = false
                attempt()
            }
        }
    }
}
