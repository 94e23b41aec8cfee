import Foundation

/// Another MPRIS player as a real process: the system python running
/// Scripts/fake_mpris_player.py, which owns `org.mpris.MediaPlayer2.<name>` on the private
/// session bus (its connection's PID is the process's) and plays a sine tone on the private
/// sound server while Playing: from itself (libpulse-simple; the stream's
/// `application.process.id` is the fake's PID) or from a child `pacat` it feeds (the stream is
/// the child's, as with browsers and Electron apps), or no stream at all (`stream: .none`, for
/// the session-category tests, which only need a player on the bus). Being a process, it can be
/// tied to its stream by PID, exits for real, and dies by signal. The tests' only fake player.
///
/// What it received is read from its stdout, a JSON line per event written before each answer:
/// every method call with its CLOCK_MONOTONIC time (`ProcessMPRISPlayer.now()`), every change of
/// status or track. Every change is announced with PropertiesChanged before the call that caused
/// it is answered. Its own user drives it through a private control object (`userPlays()` and
/// friends), which returns once the change is announced. Badly behaved players are options set
/// at its start: Pause ignored, toggling or fought back (`PauseBehaviour`), status answered late
/// (`playerPropertiesDelay`). Stopped by PID only (`stop`), never by name.
final class ProcessMPRISPlayer: CustomStringConvertible {
    /// What the player does with Pause.
    enum PauseBehaviour: String {
        /// Pauses when Playing; otherwise nothing (the MPRIS spec).
        case strict
        /// Pause acts as PlayPause (a paused player starts playing).
        case toggle
        /// Pause is received and changes nothing.
        case ignore
        /// Pauses when Playing, and 0.2 s later plays again by itself (as if its user, or its
        /// own policy, insisted): a badly behaved player.
        case fightsBack = "fights-back"
    }

    /// Where the player's stream comes from.
    enum StreamSource: String {
        /// This process, through libpulse-simple.
        case itself = "self"
        /// A child `pacat`, fed the tone through its stdin.
        case child
        /// No stream at all.
        case none
    }

    struct Options {
        /// The bus name is `org.mpris.MediaPlayer2.<name>`: letters and digits.
        var name: String
        var status: String = "Playing"
        var stream: StreamSource = .itself
        /// The sink to play to; nil: the default sink (the headphones).
        var sink: String?
        var pause: PauseBehaviour = .strict
        var track: Int = 1
        /// Root Identity; nil: "Fake <name>".
        var identity: String?
        var desktopEntry: String?
        /// Seconds before it answers Get and GetAll of the Player interface (its status and
        /// track) — the root interface and the bus daemon answer at once, as with a busy
        /// player. The answer holds the values of the moment the call came; once sent, the fake
        /// logs it (`lateAnswers`).
        var playerPropertiesDelay: Double = 0
    }

    /// One method call the fake received on /org/mpris/MediaPlayer2.
    struct Call: CustomStringConvertible {
        var interface: String
        var member: String
        var arguments: [String]
        var sender: String
        /// CLOCK_MONOTONIC seconds, the timebase of `ProcessMPRISPlayer.now()`.
        var time: Double

        var isTransport: Bool {
            interface == Bus.playerInterface
                && ["Play", "Pause", "PlayPause", "Stop", "Next", "Previous", "Seek", "SetPosition", "OpenUri"]
                .contains(member)
        }

        var description: String {
            String(format: "%.3f ", time) + member + (arguments.isEmpty ? "" : "(\(arguments.joined(separator: ", ")))")
                + " from \(sender)"
        }
    }

    static let controlPath = "/org/aubade/IntegrationTests/FakePlayer"
    static let controlInterface = "org.aubade.IntegrationTests.FakePlayer"

    /// Seconds on CLOCK_MONOTONIC, the clock of `Call.time` (Python's time.monotonic()): the one
    /// clock of every time a test compares (RecordingLogind's too).
    static func now() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// The mpris:trackid of track `track` of the player named `name` (as its Metadata says;
    /// track 0 has no Metadata): `/org/mpris/MediaPlayer2/<name>/track/<track>`.
    static func trackPath(name: String, track: Int) -> String {
        let element = name.replacingOccurrences(of: ".", with: "_").replacingOccurrences(of: "-", with: "_")
        return "/org/mpris/MediaPlayer2/\(element)/track/\(track)"
    }

    let options: Options
    let busName: String
    var identity: String { options.identity ?? "Fake \(options.name)" }
    /// The script's temporary directory, removed by `stop`.
    private let directory: URL
    private let process: Subprocess
    private let lock = NSLock()
    private var parsedLines = 0
    private var _calls: [Call] = []
    private var _statuses: [(status: String, track: Int, cause: String)] = []
    private var _errors: [String] = []
    private var _lateAnswers: [Call] = []
    private var controlsDone = 0
    private var ready: (pid: Int32, streamPID: Int32, uniqueName: String)?
    private var stopped = false

    /// The python process (the owner of the bus name).
    var pid: Int32 { process.pid }
    /// The process whose stream plays: the fake itself, its child pacat, or 0 (no stream);
    /// known once `waitUntilReady` returned.
    var streamPID: Int32 { lock.withLock { ready?.streamPID ?? 0 } }
    /// Its connection (":1.N"), once ready.
    var uniqueName: String { lock.withLock { ready?.uniqueName ?? "" } }
    var isRunning: Bool { process.isRunning }

    /// Starts the fake without waiting for it (see `waitUntilReady`, or `start` for several).
    init(_ options: Options) throws {
        self.options = options
        busName = "org.mpris.MediaPlayer2.\(options.name)"
        var template = Array("\(NSTemporaryDirectory())aubade-fake.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw DaemonError("mkdtemp failed: errno \(errno)") }
        directory = URL(fileURLWithPath: String(cString: made), isDirectory: true)
        do {
            var arguments = [try PythonScript.path("fake_mpris_player"), "--name", options.name, "--status", options.status,
                             "--stream", options.stream.rawValue, "--pause", options.pause.rawValue,
                             "--track", String(options.track), "--identity", options.identity ?? "Fake \(options.name)"]
            if let sink = options.sink { arguments += ["--sink", sink] }
            if let entry = options.desktopEntry { arguments += ["--desktop-entry", entry] }
            if options.playerPropertiesDelay > 0 {
                arguments += ["--player-properties-delay", String(options.playerPropertiesDelay)]
            }
            process = try Subprocess(PythonScript.interpreter, arguments)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Starts every fake at once (python's start-up is the slow part), then waits for each:
    /// its name owned and its stream on the server. On a failure, the ones started are stopped.
    static func start(_ options: [Options], timeout: TimeInterval = 10) throws -> [ProcessMPRISPlayer] {
        var players: [ProcessMPRISPlayer] = []
        do {
            for option in options { players.append(try ProcessMPRISPlayer(option)) }
            let deadline = Date(timeIntervalSinceNow: timeout)
            for player in players { try player.waitUntilReady(deadline: deadline) }
            try waitForStreams(of: players, deadline: deadline)
            return players
        } catch {
            for player in players { player.stop() }
            throw error
        }
    }

    /// Waits for the script's ready line, then for the name on the bus and the stream on the server.
    func waitUntilReady(timeout: TimeInterval = 10) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        try waitUntilReady(deadline: deadline)
        try Self.waitForStreams(of: [self], deadline: deadline)
    }

    private func waitUntilReady(deadline: Date) throws {
        let line = process.stdout.waitForLine(timeout: max(0, deadline.timeIntervalSinceNow)) {
            $0.contains("\"event\": \"ready\"") || $0.contains("\"event\": \"error\"")
        }
        parse()
        guard line != nil, lock.withLock({ ready != nil }) else {
            process.stop(grace: 1)
            process.stderr.waitUntilClosed(timeout: 1)
            throw DaemonError("the fake player \(busName) did not start: errors \(errors), stdout "
                              + "\(process.stdout.text.suffix(500).debugDescription), stderr \(process.stderr.text.suffix(1500))")
        }
        // The script requested the name before printing; the bus has answered it by then.
        guard try Bus.nameOwner(busName) == uniqueName else {
            throw DaemonError("\(busName) is not owned by the fake's connection \(uniqueName)")
        }
    }

    /// Polls `pactl list sink-inputs` until every player with a stream has one.
    private static func waitForStreams(of players: [ProcessMPRISPlayer], deadline: Date) throws {
        let wanted = players.filter { $0.options.stream != .none }
        var missing = wanted
        while !missing.isEmpty {
            let present = Set(try Pulse.sinkInputs().compactMap(\.processID))
            missing = wanted.filter { !present.contains($0.streamPID) }
            if missing.isEmpty { return }
            if let dead = missing.first(where: { !$0.isRunning }) {
                throw DaemonError("the fake player \(dead.busName) exited before its stream appeared: \(dead)")
            }
            if Date() >= deadline {
                throw DaemonError("no sink input of \(missing.map { "\($0.busName) (pid \($0.streamPID))" })")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    // MARK: Reading what it received

    /// Every method call received (property reads too), oldest first.
    var calls: [Call] {
        parse()
        return lock.withLock { _calls }
    }

    /// Play, Pause, PlayPause, Stop and the other Player methods; not property reads.
    var transportCalls: [Call] { calls.filter(\.isTransport) }
    func calls(_ member: String) -> [Call] { transportCalls.filter { $0.member == member } }
    var transportMark: Int { transportCalls.count }
    func transportCalls(after mark: Int) -> [Call] { Array(transportCalls.dropFirst(mark)) }

    /// PlaybackStatus as the fake last reported it.
    var playbackStatus: String {
        parse()
        return lock.withLock { _statuses.last?.status ?? options.status }
    }

    var track: Int {
        parse()
        return lock.withLock { _statuses.last?.track ?? options.track }
    }

    /// Its mpris:trackid now; nil on track 0 (no track).
    var trackID: String? {
        let track = track
        return track == 0 ? nil : Self.trackPath(name: options.name, track: track)
    }

    /// The answers it held back (`playerPropertiesDelay`), once sent: the call answered, and
    /// the time of the answer.
    var lateAnswers: [Call] {
        parse()
        return lock.withLock { _lateAnswers }
    }

    /// Every status it has had (the first is the initial one), with what caused the change.
    var statusHistory: [String] {
        parse()
        return lock.withLock { [options.status] + _statuses.map { "\($0.status)/\($0.track) (\($0.cause))" } }
    }

    /// Errors the script reported (the sound server refused, pacat went away).
    var errors: [String] {
        parse()
        return lock.withLock { _errors }
    }

    /// PlaybackStatus read over the bus, as other clients see it.
    func busPlaybackStatus() throws -> String {
        let reply = try Bus.call("\(Bus.propertiesInterface).Get", ["string:\(Bus.playerInterface)", "string:PlaybackStatus"],
                                 destination: busName)
        guard reply.succeeded, let status = reply.values.first?.string else {
            throw BusError("Get PlaybackStatus of \(busName) failed: \(reply)")
        }
        return status
    }

    /// The parent of process `pid` (from /proc/PID/stat), nil when it is gone.
    static func parentPID(of pid: Int32) -> Int32? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.range(of: ") ", options: .backwards) else { return nil }
        // After the command name: the state, then the parent's PID.
        let fields = stat[close.upperBound...].split(separator: " ")
        return fields.count > 1 ? Int32(fields[1]) : nil
    }

    /// Its stream as the sound server lists it.
    func sinkInput() throws -> SinkInput? {
        let pid = streamPID
        return pid == 0 ? nil : try Pulse.sinkInput(ofProcess: pid)
    }

    var description: String {
        "\(busName) (pid \(pid), stream pid \(streamPID), \(options.stream.rawValue) stream, \(options.pause.rawValue) Pause, "
            + "track \(trackID ?? "none")) statuses \(statusHistory), transport calls \(transportCalls)"
            + (errors.isEmpty ? "" : ", errors \(errors)")
    }

    /// stdout and stderr, for a failed test's report.
    var log: String {
        (process.stdout.lines + process.stderr.lines.map { "stderr: \($0)" }).suffix(80).joined(separator: "\n")
    }

    private func parse() {
        let lines = process.stdout.lines
        lock.withLock {
            while parsedLines < lines.count {
                let line = lines[parsedLines]
                parsedLines += 1
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let event = object["event"] as? String else { continue }
                switch event {
                case "call":
                    _calls.append(Call(interface: object["interface"] as? String ?? "?",
                                       member: object["member"] as? String ?? "?",
                                       arguments: object["args"] as? [String] ?? [], sender: object["sender"] as? String ?? "?",
                                       time: object["time"] as? Double ?? 0))
                case "status":
                    _statuses.append((object["status"] as? String ?? "?", object["track"] as? Int ?? 0,
                                      object["cause"] as? String ?? "?"))
                case "ready":
                    ready = (Int32(object["pid"] as? Int ?? 0), Int32(object["stream_pid"] as? Int ?? 0),
                             object["unique_name"] as? String ?? "")
                case "answered":
                    _lateAnswers.append(Call(interface: object["interface"] as? String ?? "?",
                                             member: object["member"] as? String ?? "?",
                                             arguments: object["args"] as? [String] ?? [], sender: "-",
                                             time: object["time"] as? Double ?? 0))
                case "control":
                    controlsDone += 1
                case "error":
                    _errors.append(object["message"] as? String ?? line)
                default:
                    break
                }
            }
        }
    }

    // MARK: Its own user

    /// The user presses play on the player itself (not over MPRIS).
    func userPlays() throws { try control("UserPlay") }
    /// The user presses pause on the player itself.
    func userPauses() throws { try control("UserPause") }
    func userStops() throws { try control("UserStop") }
    /// The user picks another track; the status stays.
    func userChangesTrack(to track: Int) throws { try control("UserChangeTrack", ["int32:\(track)"]) }

    /// Calls the control method and waits for its "control" line, so that `playbackStatus`
    /// shows the change (the fake writes it before answering; our reader thread may lag).
    private func control(_ method: String, _ arguments: [String] = []) throws {
        parse()
        let before = lock.withLock { controlsDone }
        let reply = try Bus.call("\(Self.controlInterface).\(method)", arguments, destination: busName, path: Self.controlPath)
        guard reply.succeeded else { throw BusError("\(method) on \(busName) failed: \(reply)") }
        let deadline = Date(timeIntervalSinceNow: 5)
        while true {
            parse()
            if lock.withLock({ controlsDone > before }) { return }
            guard Date() < deadline else { throw BusError("\(busName) answered \(method) but logged no control line") }
            _ = process.stdout.waitForLine(from: process.stdout.lines.count, timeout: 0.05) { _ in true }
        }
    }

    // MARK: Stopping

    /// Stops the fake by PID (`signal`, then SIGKILL after `grace`), and waits until the bus has
    /// dropped its connection and the child pacat (if any) is gone. Idempotent.
    func stop(signal: Int32 = SIGTERM, grace: TimeInterval = 2) {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        let child = options.stream == .child ? streamPID : 0
        process.stop(signal: signal, grace: grace)
        if first {
            // The child dies with its parent (PR_SET_PDEATHSIG); make sure, by its PID.
            if child > 0 {
                let deadline = Date(timeIntervalSinceNow: 2)
                while Shell.isAlive(pid: child), Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
                if Shell.isAlive(pid: child) { kill(child, SIGKILL) }
            }
            let unique = uniqueName
            if !unique.isEmpty {
                let deadline = Date(timeIntervalSinceNow: 3)
                while Date() < deadline, (try? Bus.nameHasOwner(unique)) == true { Thread.sleep(forTimeInterval: 0.02) }
            }
            try? FileManager.default.removeItem(at: directory)
        }
    }

    deinit { stop(signal: SIGKILL, grace: 1) }
}
