import Dispatch
import Glibc
import Persistence
import PlayerCore

/// Keeping the player's state across restarts, and finding covers.
///
/// The queue and settings are saved shortly after each change (debounced: at most half a
/// second after the first unsaved change), the position once a second while playing, both
/// through a `StateWriter` on the persistence queue so the core queue never waits on the
/// disk; a failing save is logged once, retried with backoff, and logged again when it
/// recovers. Everything is flushed on SIGTERM, SIGINT, Quit and the loss of the session bus;
/// nothing asked after that flush is written. After `kill -9`, at most about a second is lost.
///
/// Only one Aubade owns the state folder (`StateLock`): a second instance (the bus name
/// taken, or another login session of the same user) neither restores nor saves, so it can
/// never overwrite the first one's queue.
final class StateKeeper {
    private let store: StateStore
    private var writer: StateWriter?
    /// Held for the life of the process: the state folder is ours.
    private var lock: StateLock?
    private var saver: DebouncedSaver?
    private var positionTimer: DispatchSourceTimer?
    /// What was saved last, to save only when something worth keeping changed.
    private var lastKey: PersistedKey?
    /// After the final flush nothing is saved again (the quit that follows rewinds the player).
    private var finished = false

    init(directory: String) {
        store = StateStore(directory: directory)
    }

    /// Takes the state folder for this process; false (and a log line) when another Aubade
    /// holds it, and then `load`, `start` and `flush` do nothing. A folder that cannot even
    /// hold the lock file is used anyway: its saves fail and say so.
    @discardableResult
    func claim() -> Bool {
        do throws(PersistenceError) {
            switch try StateLock.acquire(in: store.directory) {
            case .acquired(let lock):
                self.lock = lock
                for name in store.removeLeftoverTemporaryFiles() {
                    Log.info("removed \(name), left in \(store.directory) by an interrupted save")
                }
            case .heldByAnother(let owner):
                Log.notice("the saved state in \(store.directory) belongs to another Aubade"
                           + (owner.map { " (pid \($0))" } ?? "") + ": this instance neither restores nor saves it")
                return false
            }
        } catch {
            Log.warning("cannot lock the state folder (\(error)); saving without the lock")
        }
        writer = StateWriter(store: store) { report in
            switch report {
            case .failing(let error, let retryIn):
                Log.error("cannot save the state: \(error); trying again in \(Self.seconds(retryIn)), "
                          + "then less and less often (this is logged again only if the error changes)")
            case .recovered(let failures):
                Log.notice("state saved again, after \(failures) failed attempt\(failures == 1 ? "" : "s")")
            case .finalSaveFailed(let error):
                Log.error("cannot save the state before exiting: \(error)")
            }
        }
        return true
    }

    /// Reads the saved state (never fails: a corrupt file is set aside and logged). Nil when
    /// there is none, or it is not ours.
    func load() -> PlayerMemento? {
        guard writer != nil else { return nil }
        switch store.load() {
        case .empty:
            return nil
        case .restored(let memento, let dropped):
            for path in dropped { Log.warning("\(path): gone since the last run; dropped from the queue") }
            Log.info("restored \(memento.tracks.count) tracks from \(store.statePath)")
            return memento
        case .corrupt(let reason, let keptAs):
            Log.error("\(store.statePath) is unreadable (\(reason)); kept as \(keptAs), starting empty")
            return nil
        }
    }

    /// Starts saving; `memento` is called on `queue` (the core queue) to take a snapshot.
    func start(on queue: DispatchQueue, memento: @escaping () -> PlayerMemento) {
        guard let writer else { return }
        let snapshot = UncheckedSendable(memento)
        saver = DebouncedSaver(delay: 0.5, queue: queue) {
            writer.save(snapshot.value())
        }
        // Created suspended: it runs only while playing (`noteTurn`), so a paused daemon has no
        // wake-up of its own.
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(200))
        timer.setEventHandler {
            let taken = snapshot.value()
            let path = taken.currentIndex.flatMap { taken.tracks[$0].path }
            writer.savePosition(currentIndex: taken.currentIndex, path: path, position: taken.position)
        }
        positionTimer = timer
    }

    /// Called after every turn: schedules a save when something worth keeping changed.
    func noteTurn(_ state: PlayerState, seeked: Bool) {
        // Before `start` (the turns that restore or queue at start-up) nothing is noted, so the
        // first turn after it saves what start-up made.
        guard !finished, saver != nil else { return }
        let key = PersistedKey(state)
        setPositionTimer(running: state.status == .playing)
        guard seeked || key != lastKey else { return }
        lastKey = key
        saver?.changed()
    }

    private var positionTimerRunning = false

    /// Resumes or suspends the position timer (DispatchSource suspensions must balance).
    private func setPositionTimer(running: Bool) {
        guard let positionTimer, running != positionTimerRunning else { return }
        positionTimerRunning = running
        if running { positionTimer.resume() } else { positionTimer.suspend() }
    }

    /// Saves `memento` now, after any save already under way, and stops saving: the debounce
    /// timer and the position timer may still fire, but what they ask is not written (it would
    /// be the state after the stop, overwriting this one). On the core queue, before exiting.
    func flush(_ memento: PlayerMemento) {
        guard !finished else { return }
        finished = true
        saver?.cancel()
        setPositionTimer(running: true)  // a suspended source must be resumed before it is cancelled
        positionTimer?.cancel()
        writer?.finish(memento)
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

/// The parts of the state whose change is worth a save (the position has its own timer).
private struct PersistedKey: Equatable {
    /// Changes with the queue or the play order (cheaper than comparing 10,000 ids).
    var queueRevision: UInt64
    var current: EntryID?
    var status: PlaybackStatus
    var volume: Double
    var loop: LoopStatus
    var shuffle: Bool

    init(_ state: PlayerState) {
        queueRevision = state.queue.revision
        current = state.currentID
        status = state.status
        volume = state.volume
        loop = state.loopStatus
        shuffle = state.shuffle
    }
}
