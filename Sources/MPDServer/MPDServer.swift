import Dispatch
import FrontEnd
import MPDProtocol
import MusicDatabase
import PlayerCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The MPD front-end's server: its listeners, its clients, the player as it last heard of it,
/// and every command carried out — on the player through `MPDFrontEnd`, on the library through
/// its snapshots, on files through a queue of their own.
///
/// Threads: everything here runs on `queue` ("aubade.mpd", serial): the sockets, the clients,
/// the commands and library queries (each works on an immutable snapshot). It never waits for
/// the player's queue: a command for the player hops there and its answer hops back. File reads
/// (covers, pictures, folders, stored playlists) go to `files` ("aubade.mpd.files") and hop back.
final class MPDServer: @unchecked Sendable {
    // @unchecked Sendable: every member is used on `queue` only.
    let queue: DispatchQueue
    let files = DispatchQueue(label: "aubade.mpd.files", qos: .utility)
    /// Embedded pictures read lately (`readpicture` comes in chunks).
    let pictures = PictureCache()
    let settings: MPDServerSettings
    let library: MusicLibrary?
    /// Update jobs given out or started whose end this queue has not yet heard of: `status`
    /// shows `updating_db` until the `update` change it announces is broadcast here, as mpd
    /// does in one turn (the library's own running job ends a moment before its event arrives:
    /// a client saw no `updating_db`, then `changed: update` after it).
    var updatesNotFinished = Set<Int>()
    let playlists: StoredPlaylists
    /// The daemon's side: the player's queue, the events, loads.
    unowned let frontEnd: MPDFrontEnd
    private(set) var mirror: PlayerMirror
    private let log: @Sendable (LogLevel, String) -> Void
    let clock: @Sendable () -> Instant
    let startedAt: Instant
    /// Outputs as `outputs` lists them (the one real output, by the daemon's choice).
    var outputs: [OutputInfo]

    private var listeners: [(socket: ListeningSocket, source: DispatchSourceRead)] = []
    private var clients: [Int: MPDClient] = [:]
    private var nextClientNumber = 1
    private var timeoutTimer: DispatchSourceTimer?
    /// Said once: the client limit was reached.
    private var toldClientLimit = false
    /// No descriptor was left for a new client: the listeners wait (`pauseAccepting`).
    private var acceptingPaused = false
    /// When the shortage of descriptors was last logged (once a minute at most).
    private var toldDescriptorShortage: DispatchTime?

    init(settings: MPDServerSettings, library: MusicLibrary?, playlists: StoredPlaylists, frontEnd: MPDFrontEnd,
         mirror: PlayerMirror, outputs: [OutputInfo], clock: @escaping @Sendable () -> Instant,
         log: @escaping @Sendable (LogLevel, String) -> Void) {
        queue = DispatchQueue(label: "aubade.mpd")
        self.settings = settings
        self.library = library
        self.playlists = playlists
        self.frontEnd = frontEnd
        self.mirror = mirror
        self.outputs = outputs
        self.clock = clock
        self.log = log
        startedAt = clock()
    }

    func log(_ level: LogLevel, _ message: String) { log(level, message) }

    // MARK: Listening

    /// Opens the Unix socket and the TCP port. A port already taken (a real mpd) is one log
    /// line, and the socket is served alone: never a failed start.
    func start() {
        dispatchPrecondition(condition: .onQueue(queue))
        if let path = settings.socketPath {
            open { () throws(SocketError) in try ListeningSocket.unix(path: path) }
        }
        if let address = settings.address {
            open { () throws(SocketError) in try ListeningSocket.tcp(host: address, port: settings.port) }
        }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let interval = max(1, min(settings.timeout / 4, 5))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            let now = DispatchTime.now()
            for client in Array(clients.values) { client.closeIfSilent(for: settings.timeout, now: now) }
        }
        timer.resume()
        timeoutTimer = timer
    }

    private func open(_ make: () throws(SocketError) -> ListeningSocket) {
        do throws(SocketError) {
            let socket = try make()
            let source = DispatchSource.makeReadSource(fileDescriptor: socket.descriptor, queue: queue)
            source.setEventHandler { [weak self, weak socket] in
                if let self, let socket { self.acceptClients(on: socket) }
            }
            source.resume()
            listeners.append((socket, source))
            log(.info, "MPD clients served on \(socket.address)")
        } catch {
            if error.code == EADDRINUSE {
                log(.warning, "MPD: \(error.address) is taken (another mpd?): not serving MPD clients there")
            } else {
                log(.warning, "MPD: cannot listen on \(error.description)")
            }
        }
    }

    private func acceptClients(on listener: ListeningSocket) {
        while !acceptingPaused {
            let accepted: ConnectedSocket?
            do throws(SocketError) {
                accepted = try listener.accept()
            } catch {
                return pauseAccepting(error)
            }
            guard let socket = accepted else { return }
            guard clients.count < settings.maximumClients else {
                // mpd's max_connections: the newcomer is turned away, the others served.
                if !toldClientLimit {
                    toldClientLimit = true
                    log(.warning, "MPD: \(settings.maximumClients) clients at once already; turning new ones away")
                }
                socket.close()
                continue
            }
            toldClientLimit = false
            let client = MPDClient(number: nextClientNumber, socket: socket, isLocal: listener.isLocal,
                                   permissions: settings.initialPermissions, server: self)
            nextClientNumber += 1
            clients[client.number] = client
            client.start()
        }
    }

    /// The process has no descriptor left (EMFILE: a low `ulimit -n`, or mpd-max-clients above
    /// it). The connection stays in the listen queue and the listener stays readable: accepting
    /// again at once would spin on it. The listeners rest until a client leaves, or half a
    /// second (descriptors freed elsewhere in the daemon).
    private func pauseAccepting(_ error: SocketError) {
        guard !acceptingPaused else { return }
        acceptingPaused = true
        for listener in listeners { listener.source.suspend() }
        let now = DispatchTime.now()
        if toldDescriptorShortage.map({ now.uptimeNanoseconds &- $0.uptimeNanoseconds > 60_000_000_000 }) ?? true {
            toldDescriptorShortage = now
            log(.warning, "MPD: no file descriptor left for a new client (\(error.reason), \(clients.count) connected): "
                + "new clients wait until one leaves")
        }
        queue.asyncAfter(deadline: .now() + 0.5) { [weak self] in self?.resumeAccepting() }
    }

    private func resumeAccepting() {
        guard acceptingPaused else { return }
        acceptingPaused = false
        for listener in listeners { listener.source.resume() }
    }

    func clientClosed(_ client: MPDClient) {
        clients[client.number] = nil
        resumeAccepting()
    }

    /// Closes every listener and client (the daemon is stopping).
    func stop() {
        dispatchPrecondition(condition: .onQueue(queue))
        resumeAccepting()  // a suspended source must not be cancelled and released
        for client in Array(clients.values) { client.close() }
        for listener in listeners { listener.source.cancel() }
        listeners = []
        timeoutTimer?.cancel()
    }

    var clientCount: Int { clients.count }

    // MARK: Changes

    /// One turn of the player: the mirror follows, and every client hears of what changed.
    func apply(_ turn: PlayerTurn, at now: Instant) {
        let changes = mirror.apply(turn, at: now)
        broadcast(changes)
    }

    func broadcast(_ changes: IdleSubsystems) {
        guard !changes.isEmpty else { return }
        for client in Array(clients.values) { client.notify(changes) }
    }
}
