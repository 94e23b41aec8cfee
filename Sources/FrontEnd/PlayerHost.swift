public import PlayerCore

/// The one player, as every front-end sees it (MPRIS, MPD, the next one): its state, and the
/// ways to ask it for something. Commands go in as PlayerCore `Event`s; what they change comes
/// back to every attached front-end as a `PlayerTurn` (`PlayerFrontEnd`).
///
/// Everything here is used on the player's queue (the daemon's core queue): a front-end that
/// lives on another queue hops onto it to call, and completions run on it too.
public protocol PlayerHost: AnyObject {
    var snapshot: PlayerSnapshot { get }
    /// The extrapolated position of the current track, now.
    var position: Microseconds { get }
    /// The queue, in the user's order, with its play order.
    var queue: PlayQueue { get }
    /// Runs one turn of the player; every attached front-end hears of it (`PlayerFrontEnd`).
    func handle(_ event: Event)
    /// Loads the tracks a URI stands for (a `file://` file, folder or playlist, an http(s)
    /// station) without blocking the player: `completion` runs later on the player's queue.
    /// A URI that cannot be played is an error, and changes nothing.
    func loadTracks(forURI uri: String, completion: @escaping (Result<[Track], FrontEndError>) -> Void)

    /// The saved playlists (the playlists folder).
    var playlists: [PlaylistDescription] { get }
    var activePlaylist: PlaylistDescription? { get }
    /// Writes the queue as a playlist off the player's queue (it fsyncs); `completion` runs
    /// later on the player's queue.
    func saveQueue(asPlaylist name: String, completion: @escaping (Result<Void, FrontEndError>) -> Void)
    /// Loads the playlist and makes it the queue; `completion` runs later on the player's queue.
    func activatePlaylist(_ playlist: PlaylistDescription, completion: @escaping (Result<Void, FrontEndError>) -> Void)
}
