import FrontEnd
import MPDProtocol
import PlayerCore

/// The player as the MPD front-end last heard of it, kept on the MPD queue: every answer about the
/// player (`status`, `currentsong`, `playlistinfo`…) reads it without waiting for the player's own
/// queue, and every turn updates it, at once and in order, before any command sent after that
/// turn is answered.
struct PlayerMirror {
    private(set) var snapshot: PlayerSnapshot
    private(set) var queue = PlayQueue()
    private(set) var versions = QueueVersions()
    /// The position at `positionTaken`, extrapolated while playing.
    private var position: Microseconds = 0
    private var positionTaken = Instant(microseconds: 0)
    /// Seconds of music played since the start (`stats` playtime), counted at each turn.
    private var playedBefore: Microseconds = 0
    private var playingSince: Instant?
    /// The title on air of the current station, to notice a new one (a new queue version).
    private var liveTitle: String?

    init(snapshot: PlayerSnapshot) {
        self.snapshot = snapshot
    }

    /// Takes in one turn of the player; says which `idle` subsystems it changed.
    mutating func apply(_ turn: PlayerTurn, at now: Instant) -> IdleSubsystems {
        let before = snapshot
        let after = turn.after
        var changed: IdleSubsystems = []
        snapshot = after
        position = turn.position
        positionTaken = now
        if after.status == .playing, playingSince == nil { playingSince = now }
        if after.status != .playing, let since = playingSince {
            playedBefore += max(0, now.microseconds - since.microseconds)
            playingSince = nil
        }
        if before.status != after.status || before.current?.id != after.current?.id || turn.seekedTo != nil {
            changed.insert(.player)
        }
        if before.volume != after.volume { changed.insert(.mixer) }
        if before.loopStatus != after.loopStatus || before.shuffle != after.shuffle || before.single != after.single
            || before.consume != after.consume || before.policy.replayGain != after.policy.replayGain {
            changed.insert(.options)
        }
        // A station's new title changes its entry: a new queue version, as mpd does.
        let title = after.current?.live?.title?.text
        // An entry whose metadata changed is a change of the queue only if MPD clients see it:
        // a cover found for MPRIS's artUrl as a song starts, or a length measured to the value
        // it was estimated at, moves no version (mpd moves none when a song starts, and every
        // `playlist` idler would fetch the queue again).
        let describedBefore = queue
        var touched: Set<EntryID> = turn.effects.reduce(into: []) { ids, effect in
            if case .trackList(.metadataChanged(let id)) = effect,
               Self.describedDifferently(id, before: describedBefore, after: turn.queue) { ids.insert(id) }
        }
        if let current = after.current, title != liveTitle, after.current?.id == before.current?.id, title != nil {
            touched.insert(current.id)
        }
        liveTitle = title
        let version = versions.version
        if turn.queueChanged || !touched.isEmpty {
            queue = turn.queue
            versions.update(to: queue, touched: touched)
        }
        if versions.version != version { changed.insert(.playlist) }
        return changed
    }

    /// Whether MPD's description of the entry (its tags and length) differs between the two
    /// queues: what only MPRIS shows (the cover's URL) and whether the length was an estimate
    /// are no part of it.
    private static func describedDifferently(_ id: EntryID, before: PlayQueue, after: PlayQueue) -> Bool {
        guard var old = before.entry(id)?.track, var new = after.entry(id)?.track else { return true }
        old.artURL = nil
        new.artURL = nil
        old.lengthIsEstimate = false
        new.lengthIsEstimate = false
        return old != new
    }

    /// Where the current track is now.
    func elapsed(at now: Instant) -> Microseconds {
        var elapsed = position
        if snapshot.status == .playing { elapsed += max(0, now.microseconds - positionTaken.microseconds) }
        if let length = snapshot.current?.track.length { elapsed = min(elapsed, length) }
        return max(0, elapsed)
    }

    /// Microseconds of music played since the daemon started.
    func playtime(at now: Instant) -> Microseconds {
        playedBefore + (playingSince.map { max(0, now.microseconds - $0.microseconds) } ?? 0)
    }

    /// The current entry's position in the queue.
    var currentPosition: Int? { snapshot.current.flatMap { queue.position(of: $0.id) } }

    /// What plays after the current entry (`nextsong`), as the player will choose it.
    var nextEntry: QueueEntry? {
        guard let current = snapshot.current, snapshot.status != .stopped || true else { return nil }
        if snapshot.loopStatus == .track { return current }
        return queue.entry(after: current.id, wrapping: snapshot.loopStatus == .playlist).flatMap(queue.entry)
    }
}
