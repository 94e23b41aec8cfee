/// A face of the player towards its clients (MPRIS on the bus, MPD on a socket…): it turns its
/// clients' requests into `Event`s for the `PlayerHost`, and each `PlayerTurn` into what its
/// clients are told (PropertiesChanged, an MPD client's `idle` answer…).
///
/// Attached to the player with `FrontEnds.attach`; called on the player's queue, at the end of
/// every turn, so whatever one front-end did is seen by all of them at once.
public protocol PlayerFrontEnd: AnyObject {
    /// One turn of the player has ended: announce what changed.
    func playerDidTurn(_ turn: PlayerTurn)
    /// The saved playlists changed (a file added, removed, renamed), or the active one did.
    func playlistsDidChange(_ change: PlaylistsChange)
}

extension PlayerFrontEnd {
    public func playlistsDidChange(_ change: PlaylistsChange) {}
}

/// The saved playlists before and after a change.
public struct PlaylistsChange: Sendable, Equatable {
    public var before: [PlaylistDescription]
    public var after: [PlaylistDescription]
    public var activeBefore: PlaylistDescription?
    public var activeAfter: PlaylistDescription?

    public init(before: [PlaylistDescription], after: [PlaylistDescription],
                activeBefore: PlaylistDescription?, activeAfter: PlaylistDescription?) {
        self.before = before
        self.after = after
        self.activeBefore = activeBefore
        self.activeAfter = activeAfter
    }
}
