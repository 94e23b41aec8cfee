/// Reordering the queue the user sees (MPD's move, swap, shuffle, prio), and removing many
/// entries at once. The play order follows the queue's order unless shuffle is on, in which
/// case it is left as it was: the entries keep their turn.
extension PlayQueue {
    /// The index of `id` in the queue the user sees.
    public func position(of id: EntryID) -> Int? { entryIndex(of: id) }

    /// Moves the consecutive entries `ids` so that the first lands at `position` of the queue
    /// without them. Nothing happens when `ids` are not consecutive or `position` is out of
    /// range.
    mutating func move(_ ids: [EntryID], to position: Int, followOrder: Bool) -> Bool {
        guard let first = ids.first, let start = entryIndex(of: first) else { return false }
        let end = start + ids.count
        guard end <= entries.count, entries[start..<end].map(\.id) == ids else { return false }
        var rest = entries
        let block = Array(rest[start..<end])
        rest.removeSubrange(start..<end)
        guard (0...rest.count).contains(position) else { return false }
        guard position != start else { return false }
        rest.insert(contentsOf: block, at: position)
        setEntries(rest, followOrder: followOrder)
        return true
    }

    mutating func swap(_ a: EntryID, _ b: EntryID, followOrder: Bool) -> Bool {
        guard let i = entryIndex(of: a), let j = entryIndex(of: b), i != j else { return false }
        var reordered = entries
        reordered.swapAt(i, j)
        setEntries(reordered, followOrder: followOrder)
        return true
    }

    /// Removes every entry of `ids` (one rebuild of the indexes, whatever their number).
    mutating func remove(_ ids: Set<EntryID>) {
        guard !ids.isEmpty else { return }
        setEntries(entries.filter { !ids.contains($0.id) }, order: playOrder.filter { !ids.contains($0) })
    }

    /// The entries at `range` in a random order; `first`, when among them, goes first.
    mutating func shuffleEntries(_ range: Range<Int>, first: EntryID?, followOrder: Bool, using random: inout RandomSource) {
        let range = range.clamped(to: entries.indices)
        guard range.count > 1 else { return }
        var part = Array(entries[range])
        var kept: [QueueEntry] = []
        if let first, let index = part.firstIndex(where: { $0.id == first }) { kept = [part.remove(at: index)] }
        part.shuffle(using: &random)
        var reordered = entries
        reordered.replaceSubrange(range, with: kept + part)
        setEntries(reordered, followOrder: followOrder)
    }

    mutating func setPriority(_ priority: UInt8, of ids: Set<EntryID>) -> Bool {
        var changed = false
        var updated = entries
        for index in updated.indices where ids.contains(updated[index].id) && updated[index].priority != priority {
            updated[index].priority = priority
            changed = true
        }
        if changed { setEntries(updated, order: playOrder) }
        return changed
    }

    /// With shuffle on: the entries after `anchor` in play order (all, without one), highest
    /// priority first (each priority keeps its shuffled order), as mpd plays a random queue.
    mutating func orderByPriority(after anchor: EntryID?) {
        let keptCount = anchor.flatMap { id in playOrder.firstIndex(of: id) }.map { $0 + 1 } ?? 0
        let head = Array(playOrder.prefix(keptCount))
        let tail = playOrder.dropFirst(keptCount).enumerated().sorted { a, b in
            let (pa, pb) = (entry(a.element)?.priority ?? 0, entry(b.element)?.priority ?? 0)
            return pa != pb ? pa > pb : a.offset < b.offset
        }.map(\.element)
        setEntries(entries, order: head + tail)
    }

    /// Inserts tracks at `position` of the queue (clamped), after the entry before it in play order.
    mutating func insert(_ tracks: [Track], atPosition position: Int) -> [EntryID] {
        let position = min(max(position, 0), entries.count)
        if position == 0 { return insertAtStart(tracks) }
        return insert(tracks, after: entries[position - 1].id)
    }

    private mutating func setEntries(_ new: [QueueEntry], followOrder: Bool) {
        setEntries(new, order: followOrder ? new.map(\.id) : playOrder)
    }
}
