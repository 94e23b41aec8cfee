/// MPD's playback modes on the one player: repeat and single are the LoopStatus (repeat with
/// single is Track, repeat alone Playlist), consume removes what has played.
extension PlayerState {
    /// MPD's repeat: the LoopStatus is anything but None.
    public var repeats: Bool { loopStatus != .none }

    /// Single without repeat: the queue pauses at the start of the next track.
    var pausesAfterCurrent: Bool { single != .off && loopStatus == .none }

    mutating func setLoopStatus(_ loop: LoopStatus, at now: Instant) -> [Effect] {
        loopStatus = loop
        // An MPRIS client asks for a loop, not for MPD's "pause after this track".
        switch loop {
        case .none, .playlist: single = .off
        case .track: if single == .off { single = .on }
        }
        return reconcileUpcoming(at: now)
    }

    mutating func setRepeat(_ on: Bool, at now: Instant) -> [Effect] {
        loopStatus = on ? (single == .off ? .playlist : .track) : .none
        return reconcileUpcoming(at: now)
    }

    mutating func setSingle(_ mode: SingleMode, at now: Instant) -> [Effect] {
        single = mode
        if loopStatus != .none { loopStatus = mode == .off ? .playlist : .track }
        return reconcileUpcoming(at: now)
    }

    /// The current track ended by itself (the next one took over, or the output ran dry):
    /// `oneshot` has done its work, and with consume the track leaves the queue.
    mutating func trackPlayedOut(_ entryID: EntryID, next: EntryID?) -> [Effect] {
        if single == .oneshot {
            single = .off
            if loopStatus == .track { loopStatus = .playlist }
        }
        return consumed(entryID, next: next)
    }

    /// With consume on, `entryID` (which has played, or was skipped with Next) leaves the queue,
    /// unless it is also what plays next (a repeated track).
    mutating func consumed(_ entryID: EntryID, next: EntryID?) -> [Effect] {
        guard consume, entryID != next, queue.contains(entryID) else { return [] }
        queue.remove(entryID)
        upcoming.removeAll { $0 == entryID }
        if currentID == entryID { currentID = next }
        return [.trackList(.removed(entryID))]
    }
}
