public import Dispatch
public import FrontEnd
public import Library
public import MPDProtocol
public import MusicDatabase
public import PlayerCore

/// MPD as one front-end of the player: attached to the daemon's `FrontEnds` like MPRIS, it hears
/// every turn (and passes it to its server's queue, where the clients are), and it carries the
/// clients' commands to the player as events.
///
/// The `PlayerFrontEnd` side runs on the player's queue; the server on its own (`MPDServer`).
public final class MPDFrontEnd: PlayerFrontEnd, @unchecked Sendable {
    // @unchecked Sendable: `host` and `captured` are used on `playerQueue` only; `server` is
    // set once in init and used on its own queue.
    private unowned let host: any PlayerHost
    private let playerQueue: DispatchQueue
    private let clock: @Sendable () -> Instant
    private var server: MPDServer!
    /// Turns made while `perform` runs an event: the first is that event's.
    private var captured: [PlayerTurn]?

    /// - Parameters:
    ///   - outputs: what `outputs` lists (the daemon's real output).
    ///   - loader: reads files for `add file:///…` from local clients and stored playlists.
    public init(host: any PlayerHost, playerQueue: DispatchQueue, settings: MPDServerSettings, library: MusicLibrary?,
                playlistsFolder: String, loader: QueueLoader, outputs: [OutputInfo],
                clock: @escaping @Sendable () -> Instant, log: @escaping @Sendable (LogLevel, String) -> Void) {
        dispatchPrecondition(condition: .onQueue(playerQueue))
        self.host = host
        self.playerQueue = playerQueue
        self.clock = clock
        let playlists = StoredPlaylists(folder: playlistsFolder, loader: loader)
        // The player as it is now, before any turn: a client connecting first sees it.
        let mirror = PlayerMirror(snapshot: host.snapshot, queue: host.queue, position: host.position, at: clock())
        server = MPDServer(settings: settings, library: library, playlists: playlists, frontEnd: self,
                           mirror: mirror, outputs: outputs, clock: clock, log: log)
    }

    /// Opens the listeners (one log line for each, or for each that could not open).
    public func start() {
        let server = self.server!
        server.queue.async { server.start() }
    }

    public func stop() {
        let server = self.server!
        server.queue.sync { server.stop() }
    }

    /// The library changed (`LibraryEvent`): clients idling on `database`/`update` hear of it.
    public func libraryChanged(_ changes: IdleSubsystems) {
        let server = self.server!
        server.queue.async { server.broadcast(changes) }
    }

    /// An update job started or ended: clients idling on `update` hear of it, and `status`
    /// follows it in the same turn.
    public func libraryUpdate(job: Int, finished: Bool) {
        let server = self.server!
        server.queue.async {
            if finished { server.updatesNotFinished.remove(job) } else { server.updatesNotFinished.insert(job) }
            server.broadcast(IdleSubsystems.update)
        }
    }

    // MARK: PlayerFrontEnd (on the player's queue)

    public func playerDidTurn(_ turn: PlayerTurn) {
        captured?.append(turn)
        let server = self.server!
        let now = clock()
        server.queue.async { server.apply(turn, at: now) }
    }

    public func playlistsDidChange(_ change: PlaylistsChange) {
        guard change.before != change.after else { return }
        libraryChanged(.storedPlaylist)
    }

    // MARK: For the server (called on its queue)

    /// Runs `event` on the player; `completion` gets its turn, on the server's queue, after the
    /// server has taken that turn in (a command's answer never runs ahead of its effect).
    func perform(_ event: Event, completion: @escaping @Sendable (PlayerTurn?) -> Void) {
        let server = self.server!
        playerQueue.async { [self] in
            captured = []
            host.handle(event)
            let turn = captured?.first
            captured = nil
            server.queue.async { completion(turn) }
        }
    }

    /// The tracks a `file://` URI or an http(s) URL stands for, read as the player reads them.
    func loadTracks(forURI uri: String, completion: @escaping @Sendable (Result<[Track], FrontEndError>) -> Void) {
        let server = self.server!
        playerQueue.async { [self] in
            host.loadTracks(forURI: uri) { result in
                let box = UncheckedBox(result)
                server.queue.async { completion(box.value) }
            }
        }
    }

    /// Saves the queue as a stored playlist through the player (as MPRIS's SaveAsPlaylist does).
    func saveQueue(asPlaylist name: String, completion: @escaping @Sendable (Result<Void, FrontEndError>) -> Void) {
        let server = self.server!
        playerQueue.async { [self] in
            host.saveQueue(asPlaylist: name) { result in
                server.queue.async { completion(result) }
            }
        }
    }
}

/// A value handed between queues that Swift cannot prove Sendable (tracks are; the result type
/// holding them is, too, but the compiler does not see through every generic).
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
