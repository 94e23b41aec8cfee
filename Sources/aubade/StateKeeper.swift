import Dispatch
import Glibc
import Persistence
import PlayerCore

/// Keeping the player's state across restarts, and finding covers.
///
/// The queue and settings are saved shortly after each change (debounced: at most half a
/// second after the first unsaved change), the position once a second while playing, both on
/// `persistenceQueue` so the core queue never waits on the disk; everything is flushed on
/// SIGTERM, SIGINT and Quit. After `kill -9`, at most about a second is lost.
final class StateKeeper {
    private let store: StateStore
    private let persistenceQueue = DispatchQueue(label: "aubade.persistence", qos: .utility)
    private var saver: DebouncedSaver?
    private var positionTimer: DispatchSourceTimer?
    /// What was saved last, to save only when something worth keeping changed.
    private var lastKey: PersistedKey?
    /// After the final flush nothing is saved again (the quit that follows rewinds the player).
    private var finished = false

    init(directory: String) {
        store = StateStore(directory: directory)
    }

    /// Reads the saved state (never fails: a corrupt file is set aside and logged).
    func load() -> PlayerMemento? {
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
        let store = self.store
        let persistenceQueue = self.persistenceQueue
        let snapshot = UncheckedSendable(memento)
        saver = DebouncedSaver(delay: 0.5, queue: queue) {
            let taken = snapshot.value()
            persistenceQueue.async { StateKeeper.write { () throws(PersistenceError) in try store.save(taken) } }
        }
        // Created suspended: it runs only while playing (`noteTurn`), so a paused daemon has no
        // wake-up of its own.
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(200))
        timer.setEventHandler {
            let taken = snapshot.value()
            let path = taken.currentIndex.map { taken.tracks[$0].path }
            persistenceQueue.async {
                StateKeeper.write { () throws(PersistenceError) in
                    try store.savePosition(currentIndex: taken.currentIndex, path: path, position: taken.position)
                }
            }
        }
        positionTimer = timer
    }

    /// Called after every turn: schedules a save when something worth keeping changed.
    func noteTurn(_ state: PlayerState, seeked: Bool) {
        let key = PersistedKey(state)
        guard !finished else { return }
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

    /// Saves now, on the calling queue (before exiting).
    func flush(_ memento: PlayerMemento) {
        finished = true
        setPositionTimer(running: true)  // a suspended source must be resumed before it is cancelled
        positionTimer?.cancel()
        persistenceQueue.sync {}
        StateKeeper.write { () throws(PersistenceError) in try store.save(memento) }
    }

    private static func write(_ body: () throws(PersistenceError) -> Void) {
        do throws(PersistenceError) {
            try body()
        } catch {
            Log.error("cannot save the state: \(error)")
        }
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
