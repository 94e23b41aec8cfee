import Dispatch
import PlayerCore

/// A folder (or playlist) being read on the loading queue while its tracks go into the queue
/// batch by batch, in order: the first batch as the caller wants it (a call's answer, the
/// start of playback), every later one right after the entries the previous batch added — so
/// the folder stays in order even if the queue changes meanwhile. If the entry it followed
/// was removed, the rest goes at the end.
///
/// `deliver` is called on the loading queue; everything else happens on the core queue.
final class LoadInProgress: @unchecked Sendable {
    // @unchecked: `anchor` and `isFirst` are touched on the core queue only.
    private let daemon: Daemon
    private var anchor: EntryID?
    private var isFirst = true

    init(daemon: Daemon) {
        self.daemon = daemon
    }

    /// A load whose first batch is queued already, ending at `entry`.
    init(daemon: Daemon, following entry: EntryID?) {
        self.daemon = daemon
        anchor = entry
        isFirst = false
    }

    /// Queues `batch` on the core queue: the first through `first` (which adds it to the
    /// queue), the others after it.
    func deliver(_ batch: [Track], first: @escaping ([Track]) -> Void) {
        let box = UncheckedSendable(first)
        daemon.coreQueue.async { [self] in
            if isFirst {
                isFirst = false
                daemon.lastAddedEntry = nil
                box.value(batch)
                anchor = daemon.lastAddedEntry
            } else {
                continueWith(batch)
            }
        }
    }

    private func continueWith(_ batch: [Track]) {
        let place: QueuePlace = anchor.flatMap { daemon.queue.entry($0) != nil ? .after($0) : nil } ?? .atEnd
        daemon.lastAddedEntry = nil
        daemon.handle(.addTracks(batch, at: place, makeCurrent: false))
        if let added = daemon.lastAddedEntry { anchor = added }
    }
}
