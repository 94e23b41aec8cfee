public import PlayerCore

/// What one turn of the player did: the snapshots before and after, the effects the reducer
/// asked for (those front-ends announce: `seeked`, `trackList`, `routeChanged`…), and the queue
/// as the turn left it.
///
/// Front-ends compare `before` and `after` and tell their clients exactly what differs, at the
/// end of the turn, with no timer in between.
public struct PlayerTurn: Sendable {
    public var before: PlayerSnapshot
    public var after: PlayerSnapshot
    public var effects: [Effect]
    public var queue: PlayQueue
    /// The current track's position at the end of the turn.
    public var position: Microseconds
    /// The event the turn handled.
    public var event: Event

    public init(event: Event, before: PlayerSnapshot, after: PlayerSnapshot, effects: [Effect], queue: PlayQueue,
                position: Microseconds) {
        self.event = event
        self.before = before
        self.after = after
        self.effects = effects
        self.queue = queue
        self.position = position
    }

    /// The position jumped in a way clients could not extrapolate (MPRIS Seeked, MPD `player`).
    public var seekedTo: Microseconds? {
        for effect in effects { if case .seeked(let position) = effect { return position } }
        return nil
    }

    /// The queue's entries or their order changed.
    public var queueChanged: Bool { before.queueRevision != after.queueRevision }
}
