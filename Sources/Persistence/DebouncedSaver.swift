import Dispatch
import Handoff

/// Turns a stream of "something changed" into few saves: the first change of a burst
/// schedules one save `delay` seconds later on `queue`; changes until then ride along. A
/// steady stream of changes therefore cannot postpone saving forever: nothing stays unsaved
/// longer than `delay`. `flush()` saves at once if anything is pending (SIGTERM, Quit).
///
/// Thread-safe: `changed()` and `flush()` may be called from any thread. Saves never overlap:
/// a flush while the timer's save runs waits for it (and then saves only if changes came in
/// meanwhile).
public final class DebouncedSaver: Sendable {
    private struct Pending {
        var isPending = false
        /// Bumped whenever a scheduled save is made obsolete (by a flush), so the stale
        /// timer finds a different number and does nothing.
        var generation = 0
    }

    private let delay: Double
    private let scheduler: any Scheduler
    private let save: @Sendable () -> Void
    private let pending = LockedState(Pending())
    /// Held while `save` runs, so a flush from another thread cannot overlap a timed save.
    private let saving = Lock()

    /// - Parameters:
    ///   - delay: seconds from the first unsaved change to the save.
    ///   - scheduler: where timed saves run (a queue's, or virtual time in tests).
    ///   - save: writes the current state (e.g. `StateStore.save` of a fresh memento).
    public init(delay: Double, scheduler: any Scheduler, save: @escaping @Sendable () -> Void) {
        self.delay = delay
        self.scheduler = scheduler
        self.save = save
    }

    /// Timed saves on `queue`.
    public convenience init(delay: Double, queue: DispatchQueue, save: @escaping @Sendable () -> Void) {
        self.init(delay: delay, scheduler: QueueScheduler(queue: queue), save: save)
    }

    /// Notes a change; schedules a save unless one is already pending.
    public func changed() {
        let generation: Int? = pending.withLock { state in
            if state.isPending { return nil }
            state.isPending = true
            return state.generation
        }
        guard let generation else { return }
        scheduler.after(delay) { [weak self] in
            self?.fire(generation)
        }
    }

    /// Saves now, on the calling thread, if a change is pending; returns whether it saved.
    @discardableResult
    public func flush() -> Bool {
        saving.withLock {
            guard takePending(generation: nil) else { return false }
            save()
            return true
        }
    }

    /// Forgets what is pending: the timer already running finds nothing to do. For the end,
    /// when the final state is written by other means and a later save would overwrite it.
    public func cancel() {
        _ = takePending(generation: nil)
    }

    /// Whether a change is waiting to be saved.
    public var hasPendingChanges: Bool { pending.withLock { $0.isPending } }

    private func fire(_ generation: Int) {
        saving.withLock {
            if takePending(generation: generation) { save() }
        }
    }

    /// Clears the pending mark if it is there (and, for a timer, still the timer's own).
    private func takePending(generation: Int?) -> Bool {
        pending.withLock { state in
            guard state.isPending, generation == nil || generation == state.generation else { return false }
            state.isPending = false
            state.generation += 1
            return true
        }
    }
}
