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
    /// The current song as mpd has one (`song:` in `status`, `currentsong`, the anchor of `+N`
    /// and `-N` positions). Aubade's player always has a current entry while its queue is not
    /// empty: the track MPRIS shows, the first one added to an empty queue. mpd has none from a
    /// `clear` (or the removal of its song while stopped) until playback starts, and then
    /// `play` begins at the top of the queue, not at the first song added. So this follows the
    /// player's current entry while it plays or is paused, keeps it when it stops, and drops it
    /// when its entry leaves the queue while stopped, or when random is switched on while stopped.
    private var currentID: EntryID?

    /// The player as it is when the front-end attaches: later turns only say what changed.
    init(snapshot: PlayerSnapshot, queue: PlayQueue, position: Microseconds, at now: Instant) {
        self.snapshot = snapshot
        self.queue = queue
        self.position = position
        positionTaken = now
        versions.update(to: queue)
        // A queue put back from the last run has its current entry, as mpd's state file has.
        currentID = snapshot.current?.id
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
        let currentBefore = currentID
        if before.volume != after.volume { changed.insert(.mixer) }
        if before.loopStatus != after.loopStatus || before.shuffle != after.shuffle || before.single != after.single
            || before.consume != after.consume || before.policy.replayGain != after.policy.replayGain {
            changed.insert(.options)
        }
        // A station's new title changes its entry: a new queue version, as mpd does.
        let title = after.current?.live?.title?.text
        var touched = changedAsMPDShows(turn)
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
        followCurrent(before: before, after: after)
        // The player changed as MPD clients see it: its state, its current song (not the
        // player's pick of one while stopped), a jump in time.
        if before.status != after.status || currentBefore != currentID || turn.seekedTo != nil {
            changed.insert(.player)
        }
        return changed
    }

    /// The entries whose description for MPD clients the turn changed, beside moves: their
    /// tags or length (a length measured), or their priority (`Prio:`, a change of the queue
    /// for mpd: a new version, listed by `plchanges`). Not a cover found for MPRIS: no MPD
    /// answer shows it, and mpd's queue would not change.
    private func changedAsMPDShows(_ turn: PlayerTurn) -> Set<EntryID> {
        switch turn.event {
        case .artworkFound:
            return []
        case .setPriority(let ids, _):
            return Set(ids.filter { id in queue.entry(id)?.priority != turn.queue.entry(id)?.priority })
        default:
            return turn.effects.reduce(into: []) { ids, effect in
                if case .trackList(.metadataChanged(let id)) = effect { ids.insert(id) }
            }
        }
    }

    private mutating func followCurrent(before: PlayerSnapshot, after: PlayerSnapshot) {
        if after.status != .stopped || before.status != .stopped {
            // Playing, paused, or just stopped (mpd keeps the song it stopped at).
            currentID = after.current?.id
        } else if let id = currentID, !queue.contains(id) {
            currentID = nil
        } else if after.shuffle, !before.shuffle {
            // Random on while stopped: mpd shuffles its play order anew and keeps no song.
            currentID = nil
        }
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

    /// The current song as MPD clients see it (see `currentID`), nil when there is none.
    var current: QueueEntry? {
        guard let id = currentID, let entry = queue.entry(id) else { return nil }
        // The player's own copy: a station's title on air is in it.
        return snapshot.current?.id == id ? snapshot.current : entry
    }

    /// The current song's position in the queue.
    var currentPosition: Int? { currentID.flatMap { queue.position(of: $0) } }

    /// What plays after the current song (`nextsong`), as the player will choose it.
    var nextEntry: QueueEntry? {
        guard let current else { return nil }
        if snapshot.loopStatus == .track { return current }
        return queue.entry(after: current.id, wrapping: snapshot.loopStatus == .playlist).flatMap(queue.entry)
    }
}
