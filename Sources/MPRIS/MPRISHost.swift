public import DBusKit
public import PlayerCore

/// What the MPRIS adapter needs from the daemon: the player's state, and a way to hand it events.
///
/// All calls come on the D-Bus connection's queue, which is also where the player runs, so a
/// method call becomes an event, a turn of the reducer and its announcements, then the reply.
public protocol MPRISHost: AnyObject {
    var snapshot: PlayerSnapshot { get }
    /// The extrapolated position of the current track, now.
    var position: Microseconds { get }
    /// Runs one turn of the player (the host announces the changes through `MPRISService`).
    func handle(_ event: Event)
    /// The queue, for the TrackList interface.
    var queue: PlayQueue { get }
    /// Loads the tracks a URI stands for (a file, a folder, a playlist) without blocking the
    /// bus: `completion` runs later on the bus's queue. A URI that cannot be played is the
    /// D-Bus error to reply with, and changes nothing.
    func loadTracks(forURI uri: String, completion: @escaping (Result<[Track], DBusError>) -> Void)

    /// The saved playlists, for the Playlists interface.
    var playlists: [PlaylistDescription] { get }
    var activePlaylist: PlaylistDescription? { get }
    /// Writes the queue as a playlist (org.aubade.Queue1.SaveAsPlaylist) off the bus's queue
    /// (it fsyncs); `completion` runs later on the bus's queue.
    func saveQueue(asPlaylist name: String, completion: @escaping (Result<Void, DBusError>) -> Void)
    /// Loads the playlist and makes it the queue; `completion` runs later on the bus's queue.
    func activatePlaylist(_ playlist: PlaylistDescription, completion: @escaping (Result<Void, DBusError>) -> Void)
}

/// A saved playlist as the Playlists interface shows it.
public struct PlaylistDescription: Sendable, Equatable {
    /// The playlist's object path (`/org/aubade/Playlist/…`).
    public var objectPath: String
    public var name: String
    /// An icon URI, or "" (MPRIS: empty when there is none).
    public var icon: String
    /// Seconds since 1970, for the ModifiedDate and CreationDate orderings.
    public var modified: Int64
    public var created: Int64
    /// Position in the user's own order.
    public var userOrder: Int

    public init(objectPath: String, name: String, icon: String = "", modified: Int64, created: Int64, userOrder: Int) {
        self.objectPath = objectPath
        self.name = name
        self.icon = icon
        self.modified = modified
        self.created = created
        self.userOrder = userOrder
    }
}
