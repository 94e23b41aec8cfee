import PlayerCore

/// The queue's version, as MPD clients follow it (`playlist:` in `status`, `plchanges`): it moves
/// on every change of the queue, and each entry remembers the version at which it last changed
/// (added, moved to another position, its tags changed — a station's new title), so a client
/// that knows version V asks only for what changed since.
///
/// mpd's rule (`Queue::IsNewerAtPosition`): an entry changed in the step from V to V+1 carries V;
/// `plchanges V` lists the entries carrying V or later. Kept by the MPD front-end, not the
/// player: the player's own `PlayQueue.revision` says *that* something changed, this says *what*.
struct QueueVersions {
    /// The version `status` shows; starts at 1 as mpd's does.
    private(set) var version: UInt32 = 1
    private var entryVersions: [EntryID: UInt32] = [:]
    /// The queue's ids in order, as last seen: a moved entry is one whose position changed.
    private var order: [EntryID] = []

    /// A new state of the queue: entries that are new, at another position, or in `touched`
    /// get the current version, which then moves on. Nothing changes when nothing differs.
    mutating func update(to queue: PlayQueue, touched: Set<EntryID> = []) {
        let ids = queue.entries.map(\.id)
        // Positions before the first difference kept their entries: only the rest is compared.
        let common = zip(ids, order).prefix { $0 == $1 }.count
        var changed = false
        for index in common..<ids.count where index >= order.count || order[index] != ids[index] {
            entryVersions[ids[index]] = version
            changed = true
        }
        for id in touched where entryVersions[id] != nil || queue.contains(id) {
            entryVersions[id] = version
            changed = true
        }
        if ids.count != order.count { changed = true }
        if common < order.count {
            // Entries gone from the queue are forgotten.
            let present = Set(ids)
            for id in order[common...] where !present.contains(id) { entryVersions[id] = nil }
        }
        order = ids
        if changed { advance() }
    }

    /// Whether the entry at this position changed since `since` (mpd's rule, with its wrap-around:
    /// a client ahead of the version, after a restart, gets everything).
    func hasChanged(_ id: EntryID, since: UInt32) -> Bool {
        let entryVersion = entryVersions[id] ?? 0
        return since > version || entryVersion >= since || entryVersion == 0
    }

    private mutating func advance() {
        version += 1
        // As mpd: the version stays positive and below 2^31 for clients that parse it signed.
        if version >= (1 << 31) - 1 {
            for key in entryVersions.keys { entryVersions[key] = 0 }
            version = 1
        }
    }
}
