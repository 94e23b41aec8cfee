/// What PlayerCore wants done, returned from `PlayerState.handle(_:at:)` for the adapters to carry out.
///
/// Property changes are not effects: the MPRIS adapter compares `PlayerState.snapshot`
/// before and after each turn and announces exactly what differs, at the end of the turn.
public enum Effect: Sendable, Equatable {
    case output(OutputCommand)
    /// The position jumped in a way clients could not extrapolate (MPRIS Seeked).
    case seeked(Microseconds)
    case log(LogLevel, String)
    /// Tell the world the route changed (and why).
    case routeChanged(RouteChange)
    case interruptionBegan
    case interruptionEnded(shouldResume: Bool)
    /// Paused for sleep: the daemon may let the system go (release its delay inhibitor).
    case readyForSleep
    /// A decision of the session category, for the log and `aubade monitor`.
    case categoryDecision(String)
    /// Send Pause or Play to another MPRIS player (category playback).
    case commandOtherPlayer(String, OtherPlayerCommand)
    /// Ask for `.handBackDue` after this long.
    case scheduleHandBack(after: Microseconds)
    /// Hold (true) or release the logind sleep inhibitor that keeps the machine awake while playing.
    case keepAwake(Bool)
    /// The queue changed: for the TrackList signals.
    case trackList(TrackListChange)
    /// Stop serving: the daemon exits cleanly.
    case quit
}

/// A command for the audio output.
public enum OutputCommand: Sendable, Equatable {
    /// Flush whatever is queued and play `entry` from `position`; corked unless `playing`.
    case play(QueueEntry, from: Microseconds, playing: Bool)
    /// Gapless follow-up: continue with `entry` right after the one the output asked about.
    case enqueue(QueueEntry)
    /// Nothing follows: play out what is buffered, then report finished.
    case endOfQueue
    /// Cork: the stream holds its place and plays nothing.
    case pause
    case resume
    /// Release the stream.
    case stop
    case setVolume(Double)
    /// Mute the stream (an output switched off) or let it be heard again.
    case setMuted(Bool)
    /// Switch a sound card to another profile (a Bluetooth headset from the call profile to A2DP).
    case switchCardProfile(card: String, profile: String)
}

public enum LogLevel: String, Sendable, Comparable, CaseIterable {
    case debug, info, notice, warning, error

    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rank < rhs.rank }
}

/// How the queue changed, as MPRIS TrackList signals tell it.
public enum TrackListChange: Sendable, Equatable {
    /// These entries were inserted, in order, after `after` (nil: at the start).
    case added([EntryID], after: EntryID?)
    case removed(EntryID)
    /// These entries were removed at once.
    case removedSeveral([EntryID])
    /// The same entries in another order.
    case reordered
    /// What is known about this entry changed (its cover was found).
    case metadataChanged(EntryID)
    /// The whole queue is new.
    case replaced
}

/// Where new tracks go in the queue.
public enum QueuePlace: Sendable, Equatable {
    case atStart
    case after(EntryID)
    case atEnd
    /// At this index of the queue (0 is the start; past the end is the end).
    case position(Int)
}

public enum OtherPlayerCommand: String, Sendable, Equatable {
    case pause = "Pause"
    case play = "Play"
}
