/// MPD's queue commands on the one player: play or seek a given entry, move, swap, remove
/// many, shuffle a range, priorities.
extension PlayerState {
    mutating func playEntry(_ entryID: EntryID, at now: Instant) -> [Effect] {
        guard let entry = queue.entry(entryID) else { return [] }
        return start(entry, from: 0, playing: true, at: now)
    }

    /// The entry at `position`: a move within the current track, or another track from there,
    /// playing (or paused, if the player was paused), as mpd's `seek` does.
    mutating func seekEntry(_ entryID: EntryID, to position: Microseconds, at now: Instant) -> [Effect] {
        guard let entry = queue.entry(entryID), position >= 0, canSeek(entry) else { return [] }
        if let length = entry.track.length, position > length { return [] }
        if entryID == currentID, status != .stopped {
            var effects = start(entry, from: position, playing: status == .playing, at: now)
            effects.append(.seeked(position))
            return effects
        }
        var effects = start(entry, from: position, playing: status != .paused, at: now)
        if status != .stopped { effects.append(.seeked(position)) }
        return effects
    }

    mutating func moveEntries(_ ids: [EntryID], to position: Int, at now: Instant) -> [Effect] {
        guard queue.move(ids, to: position, followOrder: !shuffle) else { return [] }
        return [.trackList(.reordered)] + reconcileUpcoming(at: now)
    }

    mutating func swapEntries(_ a: EntryID, _ b: EntryID, at now: Instant) -> [Effect] {
        guard queue.swap(a, b, followOrder: !shuffle) else { return [] }
        return [.trackList(.reordered)] + reconcileUpcoming(at: now)
    }

    /// Removes the entries; if the current one is among them, playback moves on to the first
    /// entry after it that stays (or stops), as RemoveTrack does.
    mutating func removeEntries(_ ids: [EntryID], at now: Instant) -> [Effect] {
        let present = ids.filter(queue.contains)
        guard !present.isEmpty else { return [] }
        let removing = Set(present)
        let others = removing.subtracting(currentID.map { [$0] } ?? [])
        var effects: [Effect] = []
        if let current = currentID, removing.contains(current) {
            // The others go first, so the current one's successor is one that stays.
            queue.remove(others)
            upcoming.removeAll(where: removing.contains)
            effects.append(.trackList(.removedSeveral(present.filter { $0 != current })))
            effects += removeCurrent(wrapping: loopStatus == .playlist, at: now)
            return effects
        }
        let wasHandedOver = upcoming.contains(where: removing.contains)
        queue.remove(others)
        upcoming.removeAll(where: removing.contains)
        effects.append(.trackList(.removedSeveral(present)))
        if wasHandedOver { effects += reloadCurrent(at: now) }
        return effects
    }

    mutating func shuffleQueue(_ range: Range<Int>?, at now: Instant) -> [Effect] {
        let range = range ?? 0..<queue.count
        let before = queue.revision
        // The entry playing stays in front of its range, as in mpd.
        queue.shuffleEntries(range, first: status == .stopped ? nil : currentID, followOrder: !shuffle, using: &random)
        guard queue.revision != before else { return [] }
        return [.trackList(.reordered)] + reconcileUpcoming(at: now)
    }

    mutating func setPriority(_ priority: UInt8, of ids: [EntryID], at now: Instant) -> [Effect] {
        guard queue.setPriority(priority, of: Set(ids)) else { return [] }
        guard shuffle else { return [] }
        queue.orderByPriority(after: upcoming.last ?? currentID)
        return reconcileUpcoming(at: now)
    }
}
