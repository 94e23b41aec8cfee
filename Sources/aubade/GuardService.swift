import AudioOutput
import Configuration
import DBusKit
import Dispatch
import Glibc
import MPRIS
import PlayerCore

/// `aubade guard`: the audio session for the other players, without a player of our own — for
/// people whose music is Spotify, a browser or mpv. It owns `org.aubade.Guard` (never an MPRIS
/// name), watches the sound server through its observer alone (a connection with no player), follows
/// the MPRIS players on the session bus and logind's sleep, and pauses and resumes them as
/// `aubade serve` does.
///
/// Threads: the core queue ("aubade.guard": the bus, the guard's turns, signals), the
/// PulseAudio thread (facts, handed over), the guard's /proc queue. `@unchecked Sendable`:
/// every member is used on the core queue only.
final class GuardService: @unchecked Sendable {
    private let queue: DispatchQueue
    private let connection: Connection
    private let driver: GuardDriver
    private var object: GuardObject?
    private var players: OtherPlayersWatcher?
    private var soundServer: SoundServerConnection?
    private var sleepWatcher: SleepWatcher?
    private var signalSources: [DispatchSourceSignal] = []
    private var settings: Settings
    private var name: GuardName?

    /// Aubade's own players have their own audio session: the guard leaves them alone.
    static func isAubade(_ name: String) -> Bool { name.hasPrefix(MPRISNames.busName) }

    init(queue: DispatchQueue, settings: Settings) throws(DBusError) {
        self.queue = queue
        self.settings = settings
        connection = try Connection(bus: .session, queue: queue)
        var announce: (GuardDecision) -> Void = { _ in }
        driver = GuardDriver(queue: queue) { announce($0) }
        let object = try GuardObject(connection: connection, tree: ObjectTree(connection: connection)) { [unowned driver] in driver.streamsValue }
        announce = { [weak object] decision in object?.announce(decision) }
        self.object = object
    }

    /// Asks for the name and starts watching. While another process guards (`aubade serve`
    /// with guard-other-players, another `aubade guard`), this one follows everything and
    /// sends nothing, and takes over when that one stops.
    func start(reload: @escaping () throws(ConfigurationError) -> Settings) {
        dispatchPrecondition(condition: .onQueue(queue))
        connection.onDisconnect = {
            Log.error("lost the D-Bus session bus; exiting")
            exit(1)
        }
        let name = GuardName(connection: connection)
        name.onChange = { [unowned self] _ in applyPolicy() }
        self.name = name
        let players = OtherPlayersWatcher(connection: connection, ownNames: { [] }, excluding: Self.isAubade) { [unowned driver] event in
            driver.otherPlayerEvent(event)
        }
        players.otherSignal = { [unowned name] message in name.receive(message) }
        name.claim()
        applyPolicy()
        driver.players = players
        players.start()
        self.players = players
        let driver = self.driver
        // Only the observer: no player, no stream; it watches devices and streams.
        let soundServer = SoundServerConnection(
            identity: StreamIdentity(applicationName: "Aubade guard", applicationID: GuardObject.busName,
                                     iconName: "audio-x-generic"),
            events: { event in
                switch event {
                case .changed(let facts): driver.soundServerChanged(facts)
                case .lost(let reason):
                    Log.notice("lost the sound server (\(reason)); reconnecting")
                    driver.soundServerLost()
                case .connected: Log.info("connected to the sound server")
                }
            })
        soundServer.connectInBackground()
        self.soundServer = soundServer
        let sleepWatcher = SleepWatcher(queue: queue, pauseBeforeSleep: settings.pauseBeforeSleep) { [weak self] in
            guard let self else { return }
            driver.prepareForSleep { [weak self] in self?.sleepWatcher?.readyForSleep() }
        }
        if settings.pauseBeforeSleep { sleepWatcher.start() }
        self.sleepWatcher = sleepWatcher
        installSignals(reload: reload)
        if name.isOwned { Log.info("guarding the other players as \(GuardObject.busName)") }
    }

    /// The settings' policy, on only while we own the name.
    private func applyPolicy() {
        var policy = settings.guardPolicy
        policy.isOn = name?.isOwned == true
        driver.handle(.setPolicy(policy))
    }

    private func installSignals(reload: @escaping () throws(ConfigurationError) -> Settings) {
        for number in [SIGTERM, SIGINT, SIGHUP] { signal(number, SIG_IGN) }
        for number in [SIGTERM, SIGINT] {
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [weak self] in
                Log.info("signal \(number): stopping")
                self?.stop()
            }
            source.resume()
            signalSources.append(source)
        }
        let hangUp = DispatchSource.makeSignalSource(signal: SIGHUP, queue: queue)
        hangUp.setEventHandler { [weak self] in
            guard let self else { return }
            do throws(ConfigurationError) {
                let new = try reload()
                settings = new
                Log.threshold = new.logLevel
                applyPolicy()
                sleepWatcher?.pauseBeforeSleep = new.pauseBeforeSleep
                if new.pauseBeforeSleep { sleepWatcher?.start() }
                Log.info("configuration reloaded")
            } catch {
                Log.error("configuration not reloaded: \(error.description)")
            }
        }
        hangUp.resume()
        signalSources.append(hangUp)
    }

    private func stop() {
        soundServer?.shutdown()
        try? connection.releaseName(GuardObject.busName)
        connection.flush()
        connection.close()
        Log.info("stopped")
        exit(0)
    }

    /// `aubade guard [FLAGS]`: runs until SIGTERM.
    static func run(_ arguments: [String]) -> Int32 {
        let loaded: (settings: Settings, flags: ServeFlags, file: String)
        do throws(ConfigurationError) {
            loaded = try Settings.load(commandLine: arguments)
        } catch {
            CommandLineInterface.printError("aubade guard: \(error.description)")
            return error.isUsageError ? 64 : 1
        }
        if loaded.flags.help, let help = VerbHelp.named("guard") {
            print(help.text)
            return 0
        }
        guard loaded.flags.operands.isEmpty else {
            CommandLineInterface.printError("aubade guard: plays nothing, takes no PATHs (use aubade serve)")
            return 64
        }
        Log.threshold = loaded.settings.logLevel
        let queue = DispatchQueue(label: "aubade.guard")
        let started = queue.sync { () -> GuardService? in
            do throws(DBusError) {
                let service = try GuardService(queue: queue, settings: loaded.settings)
                service.start(reload: { () throws(ConfigurationError) in try Settings.load(commandLine: arguments).settings })
                return service
            } catch {
                Log.error("cannot guard on the session bus: \(error.message)")
                return nil
            }
        }
        guard let service = started else { return 1 }
        withExtendedLifetime(service) { dispatchMain() }
    }
}
