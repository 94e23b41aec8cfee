import Inputs
import AudioOutput
import Configuration
import DBusKit
import Decoding
import Dispatch
import FrontEnd
import Glibc
import HTTPKit
import Library
import MPDServer
import MPRIS
import MusicDatabase
import Persistence
import PlayerCore
import SnapcastRooms
import WebFrontEnd

// Threads and queues of `aubade serve` — the whole list, and the only place it is written
// -----------------------------------------------------------------------------------------
// 1. The core queue (`coreQueue`, serial, "aubade.core"): the session-bus connection's watches
//    and timeouts, every MPRIS call and its reply, every turn of PlayerCore (event → reducer →
//    effects → PropertiesChanged, no timer in between), signal sources (SIGTERM, SIGINT,
//    SIGHUP), the playlists folder's inotify source, the system-bus connection (logind).
//    Never reads or writes a file, never waits for another thread: it only takes the
//    PulseAudio mainloop lock briefly (PulseAudioOutput's and SoundServerConnection's
//    methods), and with output = snapcast hops onto the Snapcast queue (SnapcastOutput's
//    methods, `sync`); neither is ever held across blocking I/O. Exceptions, at startup and at exit only: reading the state file and listing
//    the playlists folder before the first call is served, and the final save on quit (or on
//    losing the bus).
// 2. The PulseAudio thread ("aubade-pulse", `pa_threaded_mainloop`): every libpulse callback
//    with the mainloop lock held. Reads the sound server's facts (SoundServerConnection) and,
//    with output = pulseaudio, copies decoded PCM out of each track's `DecodeAhead` buffer
//    into the stream, tracks boundaries; its events hop to the core queue
//    (`coreQueue.async`). It takes only the decode buffers' own short locks.
// 2a. With output = snapcast, the Snapcast queue ("aubade.snapcast", serial, SnapcastOutput)
//    instead writes the PCM: a 10 ms tick that converts from the decode buffers and writes
//    into the snapserver's pipe (non-blocking), and announces what the rooms hear; the core
//    queue's calls into it are `sync` and it never waits for anything.
// 2b. The guard's process queue ("aubade.processes", serial, in GuardDriver): reads the parent
//    processes of the other programs' streams from /proc (kernel memory, never a disk) and hands
//    each reading of the sound server on to the core queue, in order.
// 3. Decoder queues ("aubade.decoder", one serial queue per track handed to the output; the
//    current and the next are alive, a dropped one stops after the chunk or the open it is
//    in — on a hung disk that open holds its worker thread until the read returns): open,
//    probe, seek and decode the file into a bounded buffer (~2 s), a chunk per step. They take their buffer's lock, and
//    the mainloop lock only to wake the PulseAudio thread, never both at once. A station's queue
//    ("aubade.stream") connects there too — waiting, and reconnecting for ever, with the network
//    down — and decodes what the transfer thread buffered; it gives up when its track is dropped.
//    Reconnect attempts are timed on a global dispatch queue and start the next transfer.
// 3b. libcurl's transfer thread ("aubade-http", one per process, CurlKit's TransferThread): every
//    HTTP transfer, each into its bounded ring; paused while the ring is full. Its events (an
//    answer, bytes, the end) wake the station's decoder queue and never wait.
// 4. The loading queue ("aubade.loading", serial): tags and folders for AddTrack, OpenUri,
//    ActivatePlaylist and the music folders (through the tag index, loaded there on first
//    use), cover lookups, the exact length of an estimated MP3 once it plays (a scan on a
//    handle of its own), listing and writing the playlists folder. Results hop back to the
//    core queue. (`aubade serve FILES` reads its files through the same index on the main
//    thread, before the core queue serves anything.)
// 5. The persistence queue ("aubade.persistence", serial, in StateKeeper): writes the state
//    file (atomic, debounced) and the position once a second while playing.
// 5b. The tag index's queue ("aubade.tag-index", serial, in TagIndex): writes the index
//    (atomic, 2 s after the first new entry of a burst). The entries live under its mutex,
//    held for lookups and for the load, never across a file write.
// 6. The library's queue ("aubade.library", serial, in MusicLibrary): loads its database file,
//    walks and stats the music folders, reads new and changed files (through the tag index's
//    reader), watches them with inotify, writes the database file, builds each new immutable
//    snapshot and publishes it under a short lock; its events hop to the MPD queue.
// 7. The MPD queue ("aubade.mpd", serial, in MPDServer): the MPD listeners and every client's
//    socket (non-blocking; long answers produced as the client reads), each command parsed and
//    carried out, library queries on an immutable snapshot, the player as last heard of (each
//    turn of the core queue hops here, in order, before any answer that follows it). A command
//    for the player hops to the core queue and its answer back; nothing here waits for either.
// 7b. The MPD files queue ("aubade.mpd.files", serial): covers beside a song, embedded
//    pictures, `listfiles`, the stored playlists' files; answers hop back to the MPD queue.
// 8. libmicrohttpd's polling thread (HTTPKit, one thread, epoll): the page's connections; it
//    hands each request to the web queue and sends answers given later from any thread.
// 8b. The web queue ("aubade.web", serial, in WebFrontEnd): requests checked and carried out,
//    library pages, the state pushed to open pages (each turn of the core queue hops here);
//    a change for the player hops to the core queue and answers from there.
// 8c. The covers queue ("aubade.web.covers", serial): thumbnails asked of the FFmpeg helper
//    (its own process), one at a time, cached.
// 8d. The rooms' thread (a pthread of its own, with output = snapcast and the page, in
//    SnapcastRoomsClient): snapserver's control port, blocking in poll(); the rooms and the
//    answers to the page's changes hop to the web front-end's queue ("aubade.web").
// Lock order, where two are ever held: mainloop lock → a decode buffer's lock. Nothing takes
// the mainloop lock while holding a decode buffer's lock. A station's connection lock and a
// transfer's locks are never held together (events are delivered with neither held).

/// `aubade serve`: the player, its front-ends (MPRIS, MPD, the page) and its audio output, wired together.
///
/// `@unchecked Sendable`: every member is used on `coreQueue` only (checked with
/// dispatchPrecondition at the entry points); other threads only enqueue work onto it.
final class Daemon: PlayerHost, @unchecked Sendable {
    let coreQueue: DispatchQueue
    private var player = PlayerState(randomSeed: UInt64.random(in: .min ... .max))
    private let connection: Connection
    private var mpris: MPRISService?
    /// Every face of the player (MPRIS, …): each hears of every turn (`FrontEnds`).
    let frontEnds = FrontEnds()
    private let output: OutputBridge
    /// Reads files through the tag index (see `Server.run`).
    let loader: QueueLoader
    /// Told the exact lengths measured later (thread-safe; used on the loading queue).
    let tagIndex: TagIndex
    /// Where files are read for AddTrack and OpenUri, so the core queue never waits on disk.
    let loadingQueue = DispatchQueue(label: "aubade.loading", qos: .utility)
    /// Entries whose estimated length is being measured on the loading queue (core queue only).
    var lengthsBeingMeasured: Set<EntryID> = []
    private var signalSources: [DispatchSourceSignal] = []
    private(set) var busName = MPRISNames.busName
    private var lostSoundServer = false
    private var sleepWatcher: SleepWatcher?
    /// What the configuration said at start or at the last SIGHUP.
    private var settings = Settings()
    private var otherPlayers: OtherPlayersWatcher?
    /// The audio session for the other players (guard-other-players).
    private var guardDriver: GuardDriver?
    private var guardObject: GuardObject?
    /// org.aubade.Guard: only one process guards the other players.
    private var guardName: GuardName?
    /// Who has yet to be ready before the machine may sleep (the player, the guard).
    private var sleepPreparations = 0

    /// The last entry a queue change added (for a load that goes on adding after it).
    var lastAddedEntry: EntryID?

    let shelf: PlaylistShelf
    /// The music folders as a database, and the MPD front-end that serves it (Daemon+MPD).
    var library: MusicLibrary?
    var mpd: MPDFrontEnd?
    var web: WebFrontEnd?
    var httpServer: HTTPServer?
    /// The page's rooms with output = snapcast (Daemon+Web).
    var roomsClient: SnapcastRoomsClient?
    private let keeper: StateKeeper
    private let covers: CoverCache

    init(queue: DispatchQueue, directories: XDGDirectories, playlistsFolder: String, loader: QueueLoader,
         tagIndex: TagIndex) throws(DBusError) {
        coreQueue = queue
        self.loader = loader
        self.tagIndex = tagIndex
        connection = try Connection(bus: .session, queue: queue)
        output = OutputBridge()
        shelf = PlaylistShelf(path: playlistsFolder, queue: queue, loadingQueue: loadingQueue)
        keeper = StateKeeper(directory: directories.stateDirectory)
        covers = CoverCache(directory: directories.coversDirectory)
    }

    /// Owns the bus name, exports MPRIS, then queues `tracks` and plays them — or, given
    /// none, puts back the saved state (paused).
    func start(playing tracks: [Track], settings: Settings, volumeFlag: Double?,
               reload: @escaping () throws(ConfigurationError) -> Settings) throws(DBusError) {
        dispatchPrecondition(condition: .onQueue(coreQueue))
        connection.onDisconnect = { [unowned self] in
            // Losing the session bus is fatal: systemd restarts us on a fresh one. The state
            // is saved first (synchronously), so the restart resumes where the music was.
            Log.error("lost the D-Bus session bus; saving the state and exiting")
            keeper.flush(player.memento(at: MonotonicClock.now()))
            tagIndex.flush()
            exit(1)
        }
        // First of all: once the name is on the bus a client may send SIGHUP or SIGTERM, whose
        // default actions would end the daemon. Their handlers run on this queue, so not before
        // the start is done.
        installSignalHandlers()
        installReload(reload)
        // The playlists are listed before the name is on the bus: a client that sees the name
        // finds them all, and no PlaylistCount change is announced for the first listing.
        shelf.onChange = { [weak self] old, new in
            guard let self else { return }
            self.frontEnds.playlistsDidChange(PlaylistsChange(before: old, after: new, activeBefore: self.shelf.active,
                                                              activeAfter: self.shelf.active))
        }
        shelf.start()
        busName = try claimBusName()
        // After the bus name: a second instance finds the state folder locked and leaves it be.
        keeper.claim()
        self.settings = settings
        let mpris = try MPRISService(connection: connection, host: self)
        self.mpris = mpris
        frontEnds.attach(mpris)
        startLibraryFrontEnds(settings: settings)
        output.streamSettings = StreamSettings(caFile: settings.streamCAFile)
        output.replayGain = { [unowned self] entry in
            dispatchPrecondition(condition: .onQueue(coreQueue))
            return player.replayGainDecision(for: entry)
        }
        output.start(Self.outputChoice(settings), events: { [weak self] event, serial in
            guard let self else { return }
            self.coreQueue.async { self.handle(event, serial: serial) }
        }, soundServerEvents: { [weak self] event in
            guard let self else { return }
            self.coreQueue.async { self.handle(event) }
        }, streamEvents: { [weak self] entry, status, run in
            guard let self else { return }
            self.coreQueue.async {
                // A status of a connection replaced since (Next, a long pause) is old news.
                guard self.output.isCurrentStream(run) else { return }
                self.handle(.streamStatus(entry, status))
            }
        })
        handle(.setOutput(output.placement))
        let guardDriver = GuardDriver(queue: coreQueue) { [weak self] decision in
            self?.mpris?.announceOtherPlayerDecision(decision)
        }
        self.guardDriver = guardDriver
        mpris.otherStreams = { [unowned guardDriver] in guardDriver.streamsValue }
        guardObject = try? GuardObject(connection: connection, tree: mpris.tree) { [unowned guardDriver] in guardDriver.streamsValue }
        let otherPlayers = OtherPlayersWatcher(connection: connection, ownNames: { [unowned self] in [busName] }) { [unowned self] event in
            handle(event)
            guardDriver.otherPlayerEvent(event)
        }
        guardDriver.players = otherPlayers
        let guardName = GuardName(connection: connection)
        guardName.onChange = { [unowned self] _ in applyGuardSetting(settings) }
        otherPlayers.otherSignal = { [unowned guardName] message in guardName.receive(message) }
        self.guardName = guardName
        otherPlayers.start()
        self.otherPlayers = otherPlayers
        handle(.setPolicy(settings.policy))
        applyGuardSetting(settings)
        // Each sleep setting does only its own thing: the watcher serves both.
        let sleepWatcher = SleepWatcher(queue: coreQueue, pauseBeforeSleep: settings.pauseBeforeSleep) { [weak self] in
            self?.prepareForSleep()
        }
        if settings.pauseBeforeSleep || settings.inhibitSleepWhilePlaying { sleepWatcher.start() }
        self.sleepWatcher = sleepWatcher
        if !tracks.isEmpty {
            if let volume = settings.initialVolume { handle(.setVolume(volume)) }
            handle(.enqueue(tracks, play: true))
        } else if let memento = keeper.load() {
            handle(.restore(memento))
            if let volume = volumeFlag { handle(.setVolume(volume)) }
        } else {
            // A first start with nothing given: a music-folder that names a file or a playlist
            // waits in the queue, silent. A folder is the library (MPD clients, MPRIS OpenUri
            // choose from it) and is not queued whole: a library of 100,000 songs would fill the
            // queue to its capacity, and an MPD user expects an empty queue, as mpd starts with.
            if let volume = settings.initialVolume { handle(.setVolume(volume)) }
            queueMusicFolders(settings.musicFolders.filter { !Self.isDirectory($0) })
        }
        keeper.start(on: coreQueue, memento: { [unowned self] in player.memento(at: MonotonicClock.now()) })
        keeper.noteTurn(player, seeked: false)
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    private func queueMusicFolders(_ folders: [String]) {
        guard !folders.isEmpty else { return }
        let loader = self.loader
        loadingQueue.async { [self] in
            let load = LoadInProgress(daemon: self)
            let problems = loader.load(folders.compactMap(FilePath.init)) { batch in
                load.deliver(batch) { [self] first in handle(.enqueue(first, play: false)) }
            }
            for problem in problems { Log.warning(problem.description) }
        }
    }

    /// SIGHUP reads the configuration again; a broken file is logged and the old settings stay.
    private func installReload(_ reload: @escaping () throws(ConfigurationError) -> Settings) {
        signal(SIGHUP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: coreQueue)
        source.setEventHandler { [self] in
            do throws(ConfigurationError) {
                apply(try reload())
            } catch {
                Log.error("configuration not reloaded: \(error.description)")
            }
        }
        source.resume()
        signalSources.append(source)
    }

    /// Applies everything that can change while running, and says what cannot.
    private func apply(_ new: Settings) {
        let changes = settings.changes(to: new)
        settings = new
        Log.threshold = new.logLevel
        handle(.setPolicy(new.policy))
        applyGuardSetting(new)
        sleepWatcher?.pauseBeforeSleep = new.pauseBeforeSleep
        output.streamSettings.caFile = new.streamCAFile
        if new.pauseBeforeSleep || new.inhibitSleepWhilePlaying { sleepWatcher?.start() }
        let described = changes.map { "\($0.key) \($0.old) → \($0.new)" }.joined(separator: ", ")
        Log.info("configuration reloaded" + (changes.isEmpty ? " (nothing changed)" : ": " + described))
        for change in changes {
            switch change.takesEffect {
            case .now: break
            case .nextStart: Log.notice("\(change.key) is read only when aubade serve starts: the next start uses it")
            case .restart: Log.notice("\(change.key) takes effect after a restart (systemctl --user restart aubade)")
            }
        }
    }

    /// guard-other-players: on, we guard the other players unless `aubade guard` (or another
    /// `aubade serve`) already does — whoever owns org.aubade.Guard guards (`GuardName`); we
    /// take over when it stops.
    private func applyGuardSetting(_ settings: Settings) {
        if settings.guardOtherPlayers { guardName?.claim() } else { guardName?.release() }
        var policy = settings.guardPolicy
        policy.isOn = settings.guardOtherPlayers && guardName?.isOwned == true
        guardDriver?.handle(.setPolicy(policy))
    }

    /// Before sleep the player pauses, and so do the other players; the machine may sleep
    /// once both are done (the guard waits at most a second for the players' answers).
    private func prepareForSleep() {
        sleepPreparations = 2
        guardDriver?.prepareForSleep { [weak self] in self?.readyForSleep() } ?? readyForSleep()
        handle(.sleepImminent)
    }

    private func readyForSleep() {
        guard sleepPreparations > 0 else { return sleepWatcher?.readyForSleep() ?? () }
        sleepPreparations -= 1
        if sleepPreparations == 0 { sleepWatcher?.readyForSleep() }
    }

    private func claimBusName() throws(DBusError) -> String {
        switch try connection.requestName(MPRISNames.busName) {
        case .primaryOwner, .alreadyOwner:
            Log.info("serving \(MPRISNames.busName)")
            return MPRISNames.busName
        case .exists, .inQueue:
            let name = MPRISNames.instanceBusName(pid: getpid())
            guard try connection.requestName(name) == .primaryOwner else {
                throw DBusError.failed("could not own \(name)")
            }
            Log.notice("\(MPRISNames.busName) is taken by another player; serving \(name)")
            return name
        }
    }

    private func installSignalHandlers() {
        for number in [SIGTERM, SIGINT] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: coreQueue)
            source.setEventHandler { [weak self] in
                Log.info("signal \(number): stopping")
                self?.handle(.quit)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    // MARK: - PlayerHost

    var snapshot: PlayerSnapshot { player.snapshot }

    var position: Microseconds { player.position(at: MonotonicClock.now()) }

    /// One turn: the event, the reducer, its effects, then one PropertiesChanged.
    func handle(_ event: Event) {
        dispatchPrecondition(condition: .onQueue(coreQueue))
        if event == .quit {
            // Saved before the quit stops the player (which rewinds it): a restart resumes here.
            keeper.flush(player.memento(at: MonotonicClock.now()))
        }
        let before = player.snapshot
        let now = MonotonicClock.now()
        let effects = player.handle(event, at: now)
        for effect in effects { perform(effect) }
        let after = player.snapshot
        frontEnds.playerDidTurn(PlayerTurn(event: event, before: before, after: after, effects: effects,
                                           queue: player.queue, position: player.position(at: now)))
        keeper.noteTurn(player, seeked: effects.contains { if case .seeked = $0 { return true } else { return false } })
        if let current = after.current, current.id != before.current?.id, current.track.artURL == nil {
            lookUpCover(of: current)
        }
        measureLengthIfEstimated(before: before, after: after)
    }

    /// Covers are looked up when an entry becomes current (not for the whole queue), off the
    /// core queue; the answer updates the entry (TrackMetadataChanged, Metadata).
    private func lookUpCover(of entry: QueueEntry) {
        let covers = self.covers
        // The daemon lives as long as the process: capturing it strongly is safe.
        loadingQueue.async { [self] in
            guard let path = entry.track.path, let url = covers.artURL(for: path) else { return }
            coreQueue.async { [self] in handle(.artworkFound(entry.id, url: url)) }
        }
    }

    var queue: PlayQueue { player.queue }

    func loadTracks(forURI uri: String, completion: @escaping (Result<[Track], FrontEndError>) -> Void) {
        dispatchPrecondition(condition: .onQueue(coreQueue))
        let loader = self.loader
        let deliver = UncheckedSendable(completion)
        // Reading tags of a big folder takes a while: off the core queue, so the bus stays
        // answered. The first batch answers the call (and can play at once); the rest of the
        // folder goes into the queue after it as it is read.
        loadingQueue.async { [self] in
            let load = LoadInProgress(daemon: self)
            do throws(LoadProblem) {
                let problems = try loader.load(uri: uri) { batch in
                    load.deliver(batch) { first in deliver.value(.success(first)) }
                }
                for problem in problems { Log.warning(problem.description) }
            } catch {
                // The URI came from the bus: capped and escaped before it is repeated.
                let text = "\(EchoText.safe(uri)): \(EchoText.safe(error.reason))"
                Log.warning(text)
                coreQueue.async { deliver.value(.failure(.invalidArgument(text))) }
            }
        }
    }

    var playlists: [PlaylistDescription] { shelf.playlists }
    var activePlaylist: PlaylistDescription? { shelf.active }

    func saveQueue(asPlaylist name: String, completion: @escaping (Result<Void, FrontEndError>) -> Void) {
        dispatchPrecondition(condition: .onQueue(coreQueue))
        shelf.save(name: name, tracks: player.queue.entries.map(\.track), completion: completion)
    }

    func activatePlaylist(_ playlist: PlaylistDescription, completion: @escaping (Result<Void, FrontEndError>) -> Void) {
        dispatchPrecondition(condition: .onQueue(coreQueue))
        guard let info = shelf.info(for: playlist) else { return completion(.failure(.notFound("no playlist \(playlist.objectPath)"))) }
        let folder = shelf.folder
        let loader = self.loader
        let deliver = UncheckedSendable(completion)
        loadingQueue.async { [self] in
            let (tracks, problems) = folder.tracks(of: info, loader: loader)
            coreQueue.async { [self] in
                for problem in problems { Log.warning(problem.description) }
                guard !tracks.isEmpty else {
                    return deliver.value(.failure(.failed("nothing playable in \(info.path)")))
                }
                let before = self.shelf.active
                self.shelf.active = playlist
                self.handle(.replaceQueue(tracks, play: true))
                self.frontEnds.playlistsDidChange(PlaylistsChange(before: self.shelf.playlists, after: self.shelf.playlists,
                                                                  activeBefore: before, activeAfter: playlist))
                deliver.value(.success(()))
            }
        }
    }

    private func handle(_ event: OutputEvent, serial: PlaySerial) {
        dispatchPrecondition(condition: .onQueue(coreQueue))
        switch event {
        case .started, .needsNext, .finished, .failed, .unplayable, .streamLost, .markHeard:
            // About a run replaced since (a seek or restart of the same entry): a `.finished`
            // of the old run would otherwise end the new one.
            guard output.isCurrent(serial) else {
                Log.debug("dropped a stale output event (\(event), run \(serial), now \(output.serial))")
                return
            }
        default:
            break
        }
        switch event {
        case .started(let entry): handle(.outputStarted(entry))
        case .markHeard(let entry, let title): handle(.liveTitleHeard(entry, title))
        case .needsNext(let entry): handle(.outputNeedsNext(after: entry))
        case .finished(let entry): handle(.outputFinished(entry))
        case .failed(let entry, let reason): handle(.outputFailed(entry, reason: reason))
        case .unplayable(let entry, let reason): handle(.trackUnplayable(entry, reason: reason))
        case .streamLost(let reason): handle(.outputStreamLost(reason: reason))
        case .volumeChanged(let level): handle(.outputVolumeChanged(level))
        case .serverLost(let reason):
            lostSoundServer = true
            handle(.soundServerLost(reason: reason))
        case .serverConnected:
            Log.info("connected to \(output.destination)")
            if lostSoundServer {
                lostSoundServer = false
                handle(.outputReconnected)
            }
        case .corkRequested: handle(Event.corkRequested)
        case .uncorkRequested: handle(Event.uncorkRequested)
        }
    }

    /// The sound server's facts (routes, calls, the other streams) for PlayerCore and the guard.
    /// Its loss pauses nothing here: a PulseAudio output reports its own (`serverLost`), and
    /// a Snapcast output plays on without it (only the calls go unseen).
    private func handle(_ event: SoundServerEvent) {
        dispatchPrecondition(condition: .onQueue(coreQueue))
        switch event {
        case .connected:
            if output.placement != .soundServer { Log.info("connected to the sound server (watching for calls)") }
        case .lost(let reason):
            guardDriver?.soundServerLost()
            if output.placement != .soundServer {
                Log.notice("lost the sound server (\(reason)): calls on this machine go unseen until it is back")
            }
        case .changed(let facts):
            guardDriver?.soundServerChanged(facts)
            handle(Event.soundServerChanged(facts))
        }
    }

    /// `output =` and the snapcast keys of aubade.conf, as the bridge's choice.
    static func outputChoice(_ settings: Settings) -> OutputChoice {
        switch settings.output {
        case .pulseaudio: return .pulseAudio
        case .snapcast:
            let source = settings.snapcastSource
            let snapcast = SnapcastSettings(fifoPath: source.path,
                                            format: AudioOutput.PCMFormat(sampleRate: source.sampleRate, channels: source.channels),
                                            buffer: Int64(settings.snapcastBuffer * 1_000))
            return .snapcast(snapcast, uri: source.uri)
        }
    }

    private func perform(_ effect: Effect) {
        switch effect {
        case .output(let command):
            output.perform(command, volume: player.volume)
        case .seeked:
            break  // the front-ends announce it (`PlayerTurn`)
        case .log(let level, let message):
            Log.write(level, message)
        case .routeChanged(let change):
            Log.info("route change (\(change.reason.rawValue)): \(change.previous?.description ?? "none") → \(change.current?.description ?? "none")")
        case .interruptionBegan:
            Log.info("interruption began")
        case .interruptionEnded(let shouldResume):
            Log.info("interruption ended\(shouldResume ? "; resuming" : "")")
        case .trackList(let change):
            if case .added(let ids, _) = change, let last = ids.last { lastAddedEntry = last }
        case .readyForSleep:
            readyForSleep()
        case .categoryDecision(let decision):
            Log.info("category \(player.policy.category.rawValue): \(decision)")
        case .commandOtherPlayer(let name, let command):
            otherPlayers?.command(name, command)
        case .scheduleHandBack(let delay):
            // At most a day: DispatchTimeInterval traps on a product past Int64 nanoseconds.
            coreQueue.asyncAfter(deadline: .now() + .microseconds(Int(min(max(delay, 0), 86_400_000_000)))) { [self] in handle(.handBackDue) }
        case .keepAwake(let awake):
            sleepWatcher?.keepAwake(awake)
        case .quit:
            // After this turn, so a Quit call is answered before the name goes away.
            coreQueue.async { [self] in shutDown() }
        }
    }

    private func shutDown() {
        mpd?.stop()
        httpServer?.stop()
        roomsClient?.stop()
        web?.stop()
        library?.stop()
        output.shutdown()
        tagIndex.flush()
        try? connection.releaseName(busName)
        connection.flush()
        connection.close()
        Log.info("stopped")
        exit(0)
    }
}
