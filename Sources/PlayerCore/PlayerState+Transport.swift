/// Transport commands: play, pause, stop, skip, seek, and the settings clients can write.
extension PlayerState {
    mutating func play(at now: Instant) -> [Effect] {
        switch status {
        case .playing:
            return []
        case .paused where soundServerMissing:
            // Nothing can be heard: wait for the server instead of pretending to play.
            pauseReason = .noSoundServer
            return [.log(.info, "no sound server: playing when it is back")]
        case .paused:
            if let entry = current, let effects = resumeLive(entry, at: now) { return effects }
            status = .playing
            pauseReason = .none
            // A remote output's rooms hear the resumed audio after its buffer: the position
            // holds until then.
            clock.start(at: now + output.latency)
            return [.output(.resume)]
        case .stopped:
            guard let entry = current ?? queue.firstInPlayOrder.flatMap({ queue.entry($0) }) else { return [] }
            return start(entry, from: 0, playing: true, at: now)
        }
    }

    mutating func pause(at now: Instant, reason: PauseReason) -> [Effect] {
        guard status == .playing else {
            // A person's pause makes an automatic pause theirs: it will not resume by itself.
            if reason == .user, status == .paused { pauseReason = .user }
            return []
        }
        status = .paused
        pauseReason = reason
        pausedAt = now
        clock.freeze(at: now)
        return [.output(.pause)]
    }

    mutating func stop(at now: Instant) -> [Effect] {
        guard status != .stopped else { return [] }
        status = .stopped
        pauseReason = .none
        upcoming = []
        clock.freeze(at: now)
        clock.set(0, at: now)
        return [.output(.stop)]
    }

    /// Next / Previous. With no entry in that direction (CanGoNext/CanGoPrevious false) it
    /// does nothing, as MPRIS asks. Playing stays playing, paused stays paused (at the start
    /// of the new track), stopped only moves the selection.
    mutating func skip(forward: Bool, at now: Instant) -> [Effect] {
        guard let currentID else { return [] }
        let wrapping = loopStatus != .none
        let target = forward ? queue.entry(after: currentID, wrapping: wrapping)
                             : queue.entry(before: currentID, wrapping: wrapping)
        guard let target, let entry = queue.entry(target) else { return [] }
        // Consume: Next leaves the skipped entry behind, as mpd does.
        let skipped = forward && status != .stopped ? consumed(currentID, next: target) : []
        return skipped + jump(to: entry, at: now)
    }

    /// Makes `entry` current from its start, keeping the playback status.
    mutating func jump(to entry: QueueEntry, at now: Instant) -> [Effect] {
        switch status {
        case .playing: return start(entry, from: 0, playing: true, at: now)
        case .paused: return start(entry, from: 0, playing: false, at: now)
        case .stopped:
            select(entry.id, at: now)
            return []
        }
    }

    mutating func seek(by offset: Microseconds, at now: Instant) -> [Effect] {
        // A stream cannot seek (CanSeek is false): MPRIS says the call does nothing then.
        guard let entry = current, canSeek(entry) else { return [] }
        let target = max(0, position(at: now).saturatingAdding(offset))
        if let length = entry.track.length, target > length {
            return trackEnded(entry.id, at: now)
        }
        return moveWithinTrack(entry, to: target, at: now)
    }

    mutating func setPosition(_ position: Microseconds, of entryID: EntryID, at now: Instant) -> [Effect] {
        guard let entry = current, entry.id == entryID, position >= 0, canSeek(entry) else { return [] }
        if let length = entry.track.length, position > length { return [] }
        return moveWithinTrack(entry, to: position, at: now)
    }

    private mutating func moveWithinTrack(_ entry: QueueEntry, to position: Microseconds, at now: Instant) -> [Effect] {
        switch status {
        case .stopped:
            // Nothing is loaded: remember where to start and start paused there, so the
            // position the client asked for is what Play will use.
            var effects = start(entry, from: position, playing: false, at: now)
            effects.append(.seeked(position))
            return effects
        case .playing, .paused:
            var effects = start(entry, from: position, playing: status == .playing, at: now)
            effects.append(.seeked(position))
            return effects
        }
    }

    mutating func setShuffle(_ on: Bool) -> [Effect] {
        guard on != shuffle else { return [] }
        shuffle = on
        if on {
            // The current entry and those already handed to the output stay in front, so the
            // shuffled pass goes on from what will actually be heard next.
            queue.shuffle(keepingFirst: (currentID.map { [$0] } ?? []) + upcoming, using: &random)
        } else {
            queue.unshuffle()
        }
        return []
    }

    mutating func setVolume(_ level: Double) -> [Effect] {
        let clamped = clampedVolume(level)
        guard clamped != volume else { return [] }
        volume = clamped
        return [.output(.setVolume(clamped))]
    }

    // MARK: - Shared steps

    /// Loads `entry` into the output at `position`, playing or paused. Any gapless follow-up
    /// the output had been given is dropped with the flush.
    mutating func start(_ entry: QueueEntry, from position: Microseconds, playing: Bool, at now: Instant) -> [Effect] {
        currentID = entry.id
        forgetLiveFacts(except: entry.id)
        if !playing { pausedAt = now }
        upcoming = []
        // Without a sound server nothing can be heard: whatever asked to play (Play, GoTo,
        // OpenUri, a playlist) prepares the entry and plays it when the server is back.
        let waitsForServer = playing && soundServerMissing
        let playing = playing && !waitsForServer
        if playing || status != .paused { pauseReason = playing ? .none : .user }
        status = playing ? .playing : .paused
        if waitsForServer { pauseReason = .noSoundServer }
        clock.freeze(at: now)
        clock.set(position, at: now)
        if playing { clock.start(at: now + output.latency) }
        startedFrom = position
        return [.output(.play(entry, from: position, playing: playing))]
    }

    /// Selects `entry` while stopped: nothing plays, the position is 0.
    mutating func select(_ entryID: EntryID, at now: Instant) {
        currentID = entryID
        forgetLiveFacts(except: entryID)
        upcoming = []
        clock.freeze(at: now)
        clock.set(0, at: now)
    }
}
