/// Queue changes and what the output reports: the queue advancing by itself.
extension PlayerState {
    mutating func enqueue(_ tracks: [Track], play: Bool, at now: Instant) -> [Effect] {
        let (tracks, warnings) = admit(tracks)
        guard !tracks.isEmpty else { return warnings }
        let ids = shuffle ? queue.insertShuffled(tracks, after: currentID, using: &random)
                          : queue.insert(tracks, after: nil)
        var effects: [Effect] = warnings + [.log(.info, "queued \(tracks.count) track\(tracks.count == 1 ? "" : "s")"),
                                 .trackList(.added(ids, after: ids.first.flatMap(queue.predecessor(of:))))]
        let firstAdded = queue.playOrder.first(where: ids.contains)
        if currentID == nil, let firstAdded {
            select(firstAdded, at: now)
        }
        // "Play these": when nothing plays, the first of the added tracks starts.
        if play, status == .stopped, let firstAdded, let entry = queue.entry(firstAdded) {
            effects += start(entry, from: 0, playing: true, at: now)
        }
        return effects
    }

    /// OpenUri: the tracks go right after the current one and the first plays now.
    mutating func open(_ tracks: [Track], at now: Instant) -> [Effect] {
        let (tracks, warnings) = admit(tracks)
        let ids = queue.insert(tracks, after: currentID)
        guard let first = ids.first, let entry = queue.entry(first) else { return warnings }
        return warnings + [.trackList(.added(ids, after: queue.predecessor(of: first)))]
            + start(entry, from: 0, playing: true, at: now)
    }

    /// The last entry handed to the output: the one whose end the output will ask about.
    var lastHandedToOutput: EntryID? { upcoming.last ?? currentID }

    mutating func outputStarted(_ entryID: EntryID, at now: Instant) -> [Effect] {
        guard let index = upcoming.firstIndex(of: entryID) else {
            return entryID == currentID ? currentBecameAudible(at: now) : []
        }
        upcoming.removeFirst(index + 1)
        let previous = currentID
        currentID = entryID
        forgetLiveFacts(except: entryID)
        clock.freeze(at: now)
        clock.set(0, at: now)
        if status == .playing { clock.start(at: now) }
        return (previous.map { trackPlayedOut($0, next: entryID) } ?? []) + startedPlaying(entryID)
    }

    /// An entry is heard from its start: its MPD priority has done its work.
    mutating func startedPlaying(_ entryID: EntryID) -> [Effect] {
        guard queue.entry(entryID)?.priority ?? 0 != 0 else { return [] }
        queue.updateEntry(entryID) { $0.priority = 0 }
        return []
    }

    /// The current entry's first sample after a `play` is heard now. The clock ran from the
    /// command; a start that took long (a slow disk) is corrected, and announced as a seek
    /// since clients could not predict it. Ordinary starts (~0.3 s of buffering) are left be.
    private mutating func currentBecameAudible(at now: Instant) -> [Effect] {
        guard let from = startedFrom else { return [] }
        startedFrom = nil
        guard status == .playing, position(at: now) - from > Self.startDelayCorrection else { return [] }
        clock.freeze(at: now)
        clock.set(from, at: now)
        clock.start(at: now)
        return [.seeked(from)]
    }

    /// A start later than this after the command moves the clock back to where it started.
    static let startDelayCorrection: Microseconds = 750_000

    /// Gapless: decide now what follows `entryID`, while the output still has audio buffered.
    mutating func outputNeedsNext(after entryID: EntryID) -> [Effect] {
        // A question about an entry the output no longer holds (it was flushed meanwhile).
        guard status != .stopped, entryID == lastHandedToOutput else { return [] }
        // Single without repeat pauses before the next track: nothing is joined to this one.
        guard !pausesAfterCurrent, let next = entry(following: entryID) else { return [.output(.endOfQueue)] }
        // No gapless join into or out of a stream: its format is known only once it is
        // connected, and a station is no album. The output drains, then `outputFinished`
        // starts the next entry in a stream of its own format.
        if next.track.isStream || queue.entry(entryID)?.track.isStream == true { return [.output(.endOfQueue)] }
        upcoming.append(next.id)
        return [.output(.enqueue(next))]
    }

    mutating func outputFinished(_ entryID: EntryID, at now: Instant) -> [Effect] {
        guard status != .stopped, entryID == lastHandedToOutput else { return [] }
        return trackEnded(entryID, at: now)
    }

    mutating func outputFailed(_ entryID: EntryID, reason: String) -> [Effect] {
        let name = queue.entry(entryID)?.track.location.displayString ?? "\(entryID)"
        return [.log(.warning, "\(name): \(reason); skipping the rest of it")]
    }

    /// A file that cannot be opened is dropped from the queue and playback moves on.
    mutating func trackUnplayable(_ entryID: EntryID, reason: String, at now: Instant) -> [Effect] {
        guard let entry = queue.entry(entryID) else { return [] }
        var effects: [Effect] = [.log(.warning, "\(entry.track.location.displayString): \(reason); skipped")]
        // Checked first: with LoopStatus Track the current entry can also be upcoming.
        if entryID == currentID {
            return effects + removeCurrent(wrapping: loopStatus != .none, at: now)
        }
        let wasUpcoming = upcoming.contains(entryID)
        queue.remove(entryID)
        upcoming.removeAll { $0 == entryID }
        effects.append(.trackList(.removed(entryID)))
        if wasUpcoming, let last = lastHandedToOutput {
            // The output is still waiting to hear what follows the last entry it holds.
            effects += outputNeedsNext(after: last)
        }
        return effects
    }

    /// Drops the current entry and moves on to the one after it (playing stays playing);
    /// with nothing left to move to, stops.
    mutating func removeCurrent(wrapping: Bool, at now: Instant) -> [Effect] {
        guard let entryID = currentID else { return [] }
        let successor = queue.entry(after: entryID, wrapping: wrapping).flatMap { queue.entry($0) }
        queue.remove(entryID)
        upcoming.removeAll { $0 == entryID }
        var effects: [Effect] = [.trackList(.removed(entryID))]
        if let successor, successor.id != entryID {
            effects += jump(to: successor, at: now)
        } else {
            currentID = nil
            effects += stop(at: now)
            if let first = queue.firstInPlayOrder { select(first, at: now) }
        }
        return effects
    }

    /// The current track reached its end (the output ran dry, or a seek went past the end):
    /// move on as the loop setting says. The queue or the loop setting may have changed since
    /// the output was told that nothing follows: what follows now plays (after a short gap,
    /// the stream was drained). Single without repeat pauses at the start of the next track.
    mutating func trackEnded(_ entryID: EntryID, at now: Instant) -> [Effect] {
        let pausing = pausesAfterCurrent
        let next = entry(following: entryID)
        let played = trackPlayedOut(entryID, next: next?.id)
        guard let next else { return played + endOfQueue(at: now) }
        return played + start(next, from: 0, playing: status == .playing && !pausing, at: now)
            + startedPlaying(next.id)
    }

    /// After a change of what follows (loop, shuffle), the entries already handed to the
    /// output may no longer be the right ones. The output cannot take back audio it has
    /// queued, so the current track is reloaded at the current position: a rare, short
    /// re-buffer rather than the wrong track playing.
    mutating func reconcileUpcoming(at now: Instant) -> [Effect] {
        guard status != .stopped, !upcoming.isEmpty, let current else { return [] }
        var expected: [EntryID] = []
        var cursor = current.id
        while expected.count < upcoming.count, let next = entry(following: cursor) {
            expected.append(next.id)
            cursor = next.id
        }
        guard expected != upcoming else { return [] }
        return reloadCurrent(at: now)
    }

    /// Hands the output the current track again, where it is, playing or paused as it was.
    mutating func reloadCurrent(at now: Instant) -> [Effect] {
        guard status != .stopped, let current else { return [] }
        return start(current, from: position(at: now), playing: status == .playing, at: now)
    }

    /// What plays after `entryID` when it ends by itself.
    func entry(following entryID: EntryID) -> QueueEntry? {
        if loopStatus == .track { return queue.entry(entryID) }
        return queue.entry(after: entryID, wrapping: loopStatus == .playlist).flatMap { queue.entry($0) }
    }

    /// The queue has played out: stop, and select its first track for the next Play.
    private mutating func endOfQueue(at now: Instant) -> [Effect] {
        var effects = stop(at: now)
        if let first = queue.firstInPlayOrder { select(first, at: now) }
        effects.append(.log(.info, "end of the queue"))
        return effects
    }
}
