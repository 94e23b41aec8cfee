public import Dispatch
public import FrontEnd
import JSON
public import MusicDatabase
import PlayerCore

/// The page as one front-end of the player (docs/web.md, docs/frontends.md): attached to the
/// daemon's `FrontEnds` like MPRIS and MPD, it hears every turn and pushes what changed to every
/// open page, and it carries the pages' requests to the player as events.
///
/// Three queues: the `PlayerFrontEnd` side runs on the player's; requests, the state the pages
/// are told and their event streams on `queue` (the HTTP library's threads only hand requests
/// over); covers are made on `covers`, one at a time (each is a request to the FFmpeg helper).
public final class WebFrontEnd: PlayerFrontEnd, @unchecked Sendable {
    // @unchecked Sendable: `host` is used on `playerQueue` only; the rest on `queue`.
    unowned let host: any PlayerHost
    let playerQueue: DispatchQueue
    let queue = DispatchQueue(label: "aubade.web")
    let settings: WebSettings
    let library: MusicLibrary?
    let covers: CoverStore
    let files: PageFiles

    // On `queue`:
    var facts: PlayerFacts
    var version: UInt64 = 1
    var playerQueueCopy: PlayQueue
    var queueVersion: UInt64 = 1
    var libraryVersion: UInt64 = 1
    var albumIndex: AlbumIndex?
    var streams: [ObjectIdentifier: any WebEventSink] = [:]
    var limiter = RateLimiter()
    /// The rooms (output = snapcast), and the last the pages were told of (nil: unknown now).
    var roomsControl: (any RoomsControl)?
    var rooms: [RoomFacts]?
    let requestGuard: RequestGuard
    let clock: @Sendable () -> Double

    public init(host: any PlayerHost, playerQueue: DispatchQueue, settings: WebSettings, library: MusicLibrary?,
                thumbnails: @escaping CoverStore.Thumbnailer, clock: @escaping @Sendable () -> Double) {
        dispatchPrecondition(condition: .onQueue(playerQueue))
        self.host = host
        self.playerQueue = playerQueue
        self.settings = settings
        self.library = library
        self.clock = clock
        covers = CoverStore(thumbnails: thumbnails)
        files = PageFiles(folders: settings.pageFolders)
        facts = PlayerFacts(snapshot: host.snapshot, position: host.position, queue: host.queue)
        playerQueueCopy = host.queue
        requestGuard = RequestGuard(loopbackOnly: settings.loopbackOnly, token: settings.token, port: settings.port)
    }

    /// Where the page's files were found (nil: none; the daemon logs it).
    public var pageFolder: String? { files.folder }

    // MARK: PlayerFrontEnd (on the player's queue)

    public func playerDidTurn(_ turn: PlayerTurn) {
        let new = PlayerFacts(snapshot: turn.after, position: turn.position, queue: turn.queue)
        let seeked = turn.seekedTo != nil
        let queueChanged = turn.queueChanged
        let queueCopy = queueChanged ? turn.queue : nil
        queue.async { [self] in
            if let queueCopy {
                playerQueueCopy = queueCopy
                queueVersion += 1
            }
            guard new.differs(from: facts, seeked: seeked) || queueChanged else {
                facts = new
                return
            }
            facts = new
            version += 1
            broadcast("state", stateDocument())
            if queueChanged {
                broadcast("queue", ["version": .integer(Int64(clamping: queueVersion)), "length": .integer(Int64(facts.queueLength))])
            }
        }
    }

    public func playlistsDidChange(_ change: PlaylistsChange) {
        queue.async { [self] in broadcast("playlists", ["count": .integer(Int64(change.after.count))]) }
    }

    /// The library changed: pages showing it fetch their page again.
    public func libraryChanged() {
        queue.async { [self] in
            libraryVersion += 1
            broadcast("library", ["version": .integer(Int64(clamping: libraryVersion))])
        }
    }

    // MARK: On `queue`

    func stateDocument() -> JSONValue {
        StateDocument.make(facts, version: version, queueVersion: queueVersion, output: settings.output,
                           library: library?.snapshot)
    }

    func broadcast(_ event: String, _ value: JSONValue) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !streams.isEmpty else { return }
        let data = JSONText.write(value)
        for (key, stream) in streams where !stream.send(event: event, data: data) {
            streams[key] = nil
        }
    }

    /// The index of albums of the library as it is now (made again after each change).
    func currentAlbumIndex() -> AlbumIndex? {
        guard let snapshot = library?.snapshot else { return nil }
        if let albumIndex, albumIndex.snapshot === snapshot { return albumIndex }
        let index = AlbumIndex(snapshot: snapshot)
        albumIndex = index
        return index
    }

    /// Runs `event` on the player and answers once its turn is done.
    func perform(_ event: Event, reply: @escaping @Sendable (WebResponse) -> Void) {
        playerQueue.async { [self] in
            host.handle(event)
            reply(WebReply.ok)
        }
    }

    /// Closes every page's stream (the daemon stops).
    public func stop() {
        queue.sync {
            for stream in streams.values { stream.close() }
            streams = [:]
        }
    }
}
