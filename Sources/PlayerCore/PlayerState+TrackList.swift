/// Editing the queue from outside (MPRIS TrackList, playlists, the CLI) and restoring it.
extension PlayerState {
    mutating func addTracks(_ tracks: [Track], at place: QueuePlace, makeCurrent: Bool, at now: Instant) -> [Effect] {
        let (tracks, warnings) = admit(tracks)
        guard !tracks.isEmpty else { return warnings }
        let ids: [EntryID]
        switch place {
        case .atStart: ids = queue.insertAtStart(tracks)
        case .after(let anchor): ids = queue.insert(tracks, after: queue.contains(anchor) ? anchor : nil)
        case .atEnd: ids = queue.insert(tracks, after: nil)
        case .position(let index): ids = queue.insert(tracks, atPosition: index)
        }
        var effects: [Effect] = warnings + [.trackList(.added(ids, after: ids.first.flatMap(queue.predecessor(of:))))]
        if currentID == nil, let first = ids.first { select(first, at: now) }
        if makeCurrent, let first = ids.first, let entry = queue.entry(first) {
            effects += status == .stopped ? start(entry, from: 0, playing: true, at: now) : jump(to: entry, at: now)
        } else {
            effects += reconcileUpcoming(at: now)
        }
        return effects
    }

    mutating func removeTrack(_ entryID: EntryID, at now: Instant) -> [Effect] {
        guard queue.contains(entryID) else { return [] }
        if entryID == currentID { return removeCurrent(wrapping: loopStatus == .playlist, at: now) }
        queue.remove(entryID)
        var effects: [Effect] = [.trackList(.removed(entryID))]
        if upcoming.contains(entryID) {
            // The output already holds it: take it back by reloading where we are.
            effects += reloadCurrent(at: now)
        }
        return effects
    }

    mutating func goTo(_ entryID: EntryID, at now: Instant) -> [Effect] {
        guard let entry = queue.entry(entryID) else { return [] }
        if status == .stopped { return start(entry, from: 0, playing: true, at: now) }
        return jump(to: entry, at: now)
    }

    mutating func replaceQueue(with tracks: [Track], play: Bool, at now: Instant) -> [Effect] {
        let (tracks, warnings) = admit(tracks, replacing: true)
        var effects = warnings + stop(at: now)
        currentID = nil
        queue.replace(with: tracks)
        if shuffle { queue.shuffle(keepingFirst: [], using: &random) }
        effects.append(.trackList(.replaced))
        guard let first = queue.firstInPlayOrder, let entry = queue.entry(first) else { return effects }
        if play {
            effects += start(entry, from: 0, playing: true, at: now)
        } else {
            select(first, at: now)
        }
        return effects
    }

    /// The saved state comes back: same track, Paused at the saved position, nothing heard
    /// until asked (the output is prepared corked, so Play starts at once).
    mutating func restore(_ memento: PlayerMemento, at now: Instant) -> [Effect] {
        let (memento, warnings) = admit(memento)
        var effects = warnings + stop(at: now)
        currentID = nil
        loopStatus = memento.loopStatus
        shuffle = memento.shuffle
        volume = clampedVolume(memento.volume)
        let ids = queue.replace(with: memento.tracks, playOrder: memento.playOrder)
        effects.append(.trackList(.replaced))
        effects.append(.output(.setVolume(volume)))
        guard !ids.isEmpty else { return effects }
        let index = memento.currentIndex.flatMap { ids.indices.contains($0) ? $0 : nil } ?? 0
        guard let entry = queue.entry(ids[index]) else { return effects }
        var position = max(0, memento.position)
        if let length = entry.track.length { position = min(position, length) }
        effects += start(entry, from: position, playing: false, at: now)
        pauseReason = .none
        if position > 0 { effects.append(.seeked(position)) }
        return effects
    }

    /// The memento of the current state, for saving.
    public func memento(at now: Instant) -> PlayerMemento {
        let entries = queue.entries
        var indexOf: [EntryID: Int] = [:]
        indexOf.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() { indexOf[entry.id] = index }
        return PlayerMemento(
            tracks: entries.map(\.track), currentIndex: currentID.flatMap { indexOf[$0] },
            position: position(at: now), volume: volume, loopStatus: loopStatus, shuffle: shuffle,
            playOrder: queue.playOrder.compactMap { indexOf[$0] })
    }
}
