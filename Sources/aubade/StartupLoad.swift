import Dispatch
import Handoff
import Library
import PlayerCore

/// `aubade serve PATHs`: the PATHs read before the daemon exists. `firstBatch` waits only for
/// the first batch of tracks (or the end of a load that found none); batches read after it
/// wait here until `continue(into:)` hands them, in order, to the daemon.
final class StartupLoad: Sendable {
    private enum Stage {
        /// Nothing found yet.
        case reading
        /// The first batch, and the later ones held until the daemon is there.
        case found(first: [Track], held: [[Track]])
        case handedOver(LoadInProgress)
        case finished
    }

    private struct Shared {
        var stage = Stage.reading
        var done = false
    }

    private let shared = LockedState(Shared())
    private let firstArrived = DispatchSemaphore(value: 0)

    init(paths: [FilePath], loader: QueueLoader) {
        let thread = DispatchQueue(label: "aubade.loading.startup", qos: .userInitiated)
        thread.async { [self] in
            let problems = loader.load(paths) { batch in self.arrived(batch) }
            for problem in problems { Log.warning(problem.description) }
            let signal = shared.withLock { shared -> Bool in
                shared.done = true
                if case .reading = shared.stage {
                    shared.stage = .finished
                    return true
                }
                return false
            }
            if signal { firstArrived.signal() }
        }
    }

    private func arrived(_ batch: [Track]) {
        let signal = shared.withLock { shared -> Bool in
            switch shared.stage {
            case .reading:
                shared.stage = .found(first: batch, held: [])
                return true
            case .found(let first, let held):
                shared.stage = .found(first: first, held: held + [batch])
            case .handedOver(let load):
                load.deliver(batch) { _ in }
            case .finished:
                break
            }
            return false
        }
        if signal { firstArrived.signal() }
    }

    /// The first tracks read, or none when the whole load found nothing. Blocks until then.
    func firstBatch() -> [Track] {
        firstArrived.wait()
        return shared.withLock { shared in
            if case .found(let first, _) = shared.stage { return first }
            return []
        }
    }

    /// The daemon has queued the first batch: the held batches and every later one go after it.
    /// Core queue.
    func `continue`(into daemon: Daemon) {
        let load = LoadInProgress(daemon: daemon, following: daemon.lastAddedEntry)
        shared.withLock { shared in
            guard case .found(_, let held) = shared.stage else { return }
            shared.stage = .handedOver(load)
            // Under the lock (`deliver` only queues work): a batch read meanwhile cannot
            // overtake the held ones.
            for batch in held { load.deliver(batch) { _ in } }
        }
    }
}
