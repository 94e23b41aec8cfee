import Foundation

/// A sound server of the test's own, of the kind `AUBADE_SOUND_SERVER` names (PulseAudio, or
/// PipeWire + WirePlumber + pipewire-pulse), configured as `scripts/audio-session` configures
/// the harness's: the `headphones` (default) and `speakers` null sinks, and on PulseAudio
/// module-role-cork. A fault test may kill it, freeze it and start it again.
///
/// Why not the harness's server: a server restarted by the test would be a child of the test
/// process that `scripts/audio-session` does not know, so nobody would stop it when the
/// session ends (on PipeWire, three of them); and killing the harness's server would take the
/// sinks away from every other test in the run.
///
/// The daemon does not get the server's socket: it gets `daemonSocket`, a symbolic link to it
/// that exists only while the test lets the daemon reach the server. So after a restart the
/// test can make its own recording of the sink monitor flow first, then let the daemon in:
/// the first sample the daemon plays after the outage is in the recording. For the daemon the
/// server "comes back" when the link appears (connect() on a missing path fails as it does on a
/// dead server's stale socket).
final class PrivateSoundServer {
    enum Kind: String {
        case pulseaudio
        case pipewire

        /// `AUBADE_SOUND_SERVER`; unset means PulseAudio, as in `SoundServer.current`.
        static var current: Kind {
            Kind(rawValue: ProcessInfo.processInfo.environment["AUBADE_SOUND_SERVER"] ?? "") ?? .pulseaudio
        }
    }

    let kind: Kind
    /// A short temporary directory (socket paths are limited to 108 bytes), removed by `close`.
    let directory: URL
    private var runtime: URL { directory.appendingPathComponent("runtime", isDirectory: true) }
    private var home: URL { directory.appendingPathComponent("home", isDirectory: true) }
    /// The server's own socket; this test's pactl and parec use it.
    var serverSocket: URL { runtime.appendingPathComponent("pulse/native") }
    /// What the daemon is given (see the type's comment).
    var daemonSocket: URL { directory.appendingPathComponent("daemon-socket") }

    /// The running server processes, in start order (one for PulseAudio, three for PipeWire),
    /// each under a shell (see ShellWrappedProcess: pulseaudio closes its inherited descriptors).
    private(set) var processes: [ShellWrappedProcess] = []
    private var closed = false

    var pids: [Int32] { processes.map(\.pid) }
    var isRunning: Bool { !processes.isEmpty && processes.allSatisfy(\.isRunning) }

    /// For `Daemon(serve:environment:)`: the daemon reaches this server (through the link) only.
    var daemonEnvironment: [String: String] { ["PULSE_SERVER": "unix:\(daemonSocket.path)"] }
    /// For pactl and parec run by the test.
    var clientEnvironment: [String: String?] { ["PULSE_SERVER": "unix:\(serverSocket.path)"] }

    /// Makes the directory and the configuration, starts the server and lets the daemon in.
    init(kind: Kind = .current) throws {
        self.kind = kind
        var template = Array("\(NSTemporaryDirectory())aubade-server.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw DaemonError("mkdtemp failed: errno \(errno)") }
        directory = URL(fileURLWithPath: String(cString: made), isDirectory: true)
        do {
            try writeConfiguration()
            try start()
            try linkDaemonSocket()
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    // MARK: Life

    /// Starts the server with the configuration and socket of the first start; returns once it
    /// answers `pactl info` and has both sinks with `headphones` the default.
    func start() throws {
        guard processes.isEmpty else { throw DaemonError("the private \(kind) is already running") }
        // A killed daemonized pulseaudio's pid file blocks its restart ("Daemon already
        // running", platform-facts.md). Ours runs with --use-pid-file=no; removing is harmless.
        try? FileManager.default.removeItem(at: runtime.appendingPathComponent("pulse/pid"))
        // The dead server's socket file is still there; the new server replaces it.
        switch kind {
        case .pulseaudio:
            // Without the session bus: PulseAudio claims org.PulseAudio1 there and exits if the
            // harness's server holds it (scripts/audio-session, --keep-bus). It needs no bus.
            var environment = serverEnvironment
            environment["DBUS_SESSION_BUS_ADDRESS"] = .some(nil)
            processes.append(try ShellWrappedProcess("pulseaudio", [
                "--exit-idle-time=-1", "-n", "-F", directory.appendingPathComponent("session.pa").path,
                "--realtime=no", "--high-priority=no", "--daemonize=no", "--use-pid-file=no",
                "--log-target=file:\(directory.appendingPathComponent("pulse.log").path)",
            ], environment: environment))
            try waitUntilAnswering()
        case .pipewire:
            // A killed pipewire leaves its socket file: waiting for it would pass at once, and
            // WirePlumber, started before the new pipewire listens, exits ("Failed to connect to
            // PipeWire", status 69: a restart failed so in CI). The new pipewire makes it again.
            for name in ["pipewire-0", "pipewire-0-manager"] {
                try? FileManager.default.removeItem(at: runtime.appendingPathComponent(name))
            }
            processes.append(try ShellWrappedProcess("pipewire", [], environment: serverEnvironment))
            try waitFor("pipewire's socket", timeout: 10) {
                FileManager.default.fileExists(atPath: self.runtime.appendingPathComponent("pipewire-0").path)
            }
            processes.append(try ShellWrappedProcess("wireplumber", [], environment: serverEnvironment))
            processes.append(try ShellWrappedProcess("pipewire-pulse", [], environment: serverEnvironment))
            try waitUntilAnswering()
            try pactl(["load-module", "module-null-sink", "sink_name=speakers",
                       "sink_properties=\"device.form_factor=speaker device.description=Speakers\""])
            try pactl(["load-module", "module-null-sink", "sink_name=headphones",
                       "sink_properties=\"device.form_factor=headphone device.description=Headphones\""])
        }
        try waitFor("headphones as the default sink", timeout: 10) {
            // WirePlumber picks the default itself a moment after the sinks appear: set it again.
            if (try? self.pactl(["get-default-sink"])) == "headphones" { return true }
            _ = try? self.pactl(["set-default-sink", "headphones"])
            return false
        }
    }

    /// SIGKILL to every server process (a crash, or an upgrade's restart seen from a client),
    /// newest first; returns once they are gone. The daemon's link goes too.
    func kill() {
        unlinkDaemonSocket()
        for process in processes.reversed() { process.signal(SIGCONT) }
        for process in processes.reversed() { process.signal(SIGKILL) }
        for process in processes.reversed() { _ = process.waitForExit(timeout: 5) }
        processes.removeAll()
    }

    /// SIGSTOP to every server process: the server hangs, its sockets stay open.
    func freeze() {
        for process in processes { process.signal(SIGSTOP) }
    }

    /// SIGCONT to every server process.
    func thaw() {
        for process in processes { process.signal(SIGCONT) }
    }

    /// The daemon can reach the server again.
    func linkDaemonSocket() throws {
        unlinkDaemonSocket()
        try FileManager.default.createSymbolicLink(at: daemonSocket, withDestinationURL: serverSocket)
    }

    func unlinkDaemonSocket() {
        unlink(daemonSocket.path)
    }

    /// Thaws and stops every server process by PID (SIGTERM, then SIGKILL), newest first, and
    /// removes the directory. Safe to call twice.
    func close() {
        guard !closed else { return }
        closed = true
        unlinkDaemonSocket()
        thaw()
        for process in processes.reversed() { process.stop(grace: 3) }
        processes.removeAll()
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: Talking to it

    @discardableResult
    func pactl(_ arguments: [String], timeout: TimeInterval = 10) throws -> String {
        let result = try Shell.run("pactl", arguments, environment: clientEnvironment, timeout: timeout)
        guard result.succeeded else {
            throw BusError("pactl \(arguments.joined(separator: " ")) on the private \(kind) failed: \(result)")
        }
        return result.trimmedOutput
    }

    /// The stream of the client in process `pid`.
    func sinkInput(ofProcess pid: Int32) throws -> SinkInput? {
        Pulse.parseSinkInputs(try pactl(["list", "sink-inputs"])).first { $0.processID == pid }
    }

    /// `parec` of `device` on this server, running until stopped.
    func record(_ device: String = "headphones.monitor") throws -> SinkRecorder {
        try SinkRecorder(device: device, environment: clientEnvironment)
    }

    /// The last lines of the server's logs, for failure messages.
    var logTail: String {
        let names = kind == .pulseaudio ? ["pulse.log"] : []
        let files = names.map { directory.appendingPathComponent($0).path }
        let logs = files.compactMap { path in
            (try? String(contentsOfFile: path, encoding: .utf8)).map { "--- \(path):\n" + $0.split(separator: "\n").suffix(15).joined(separator: "\n") }
        }
        let stderr = processes.map { "--- \($0.executable) stderr:\n" + $0.stderr.lines.suffix(15).joined(separator: "\n") }
        return (logs + stderr).joined(separator: "\n")
    }

    // MARK: Setting up

    /// HOME and the XDG directories of the server's own (what WirePlumber remembers stays here).
    private var serverEnvironment: [String: String?] {
        [
            "HOME": home.path,
            "XDG_RUNTIME_DIR": runtime.path,
            "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
            "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path,
            "XDG_STATE_HOME": home.appendingPathComponent(".local/state").path,
            "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
            "PULSE_SERVER": "unix:\(serverSocket.path)",
        ]
    }

    private func writeConfiguration() throws {
        let manager = FileManager.default
        try manager.createDirectory(at: runtime.appendingPathComponent("pulse"), withIntermediateDirectories: true)
        try manager.createDirectory(at: home, withIntermediateDirectories: true)
        chmod(runtime.path, 0o700)
        chmod(runtime.appendingPathComponent("pulse").path, 0o700)
        switch kind {
        case .pulseaudio:
            // As scripts/audio-session's session.pa, with this socket.
            try """
                load-module module-native-protocol-unix auth-anonymous=1 socket=\(serverSocket.path)
                load-module module-null-sink sink_name=speakers sink_properties="device.form_factor=speaker device.description=Speakers"
                load-module module-null-sink sink_name=headphones sink_properties="device.form_factor=headphone device.description=Headphones"
                set-default-sink headphones
                load-module module-role-cork trigger_roles=phone cork_roles=music,video

                """.write(to: directory.appendingPathComponent("session.pa"), atomically: true, encoding: .utf8)
        case .pipewire:
            // As scripts/audio-session: no device monitors, no restored targets or volumes.
            let config = home.appendingPathComponent(".config/wireplumber")
            try manager.createDirectory(at: config.appendingPathComponent("main.lua.d"), withIntermediateDirectories: true)
            try manager.createDirectory(at: config.appendingPathComponent("bluetooth.lua.d"), withIntermediateDirectories: true)
            try """
                alsa_monitor.enabled = false
                v4l2_monitor.enabled = false
                libcamera_monitor.enabled = false
                stream_defaults.properties["restore-target"] = false
                stream_defaults.properties["restore-props"] = false

                """.write(to: config.appendingPathComponent("main.lua.d/51-aubade-headless.lua"), atomically: true, encoding: .utf8)
            try "bluez_monitor.enabled = false\n"
                .write(to: config.appendingPathComponent("bluetooth.lua.d/51-aubade-headless.lua"), atomically: true, encoding: .utf8)
        }
    }

    private func waitUntilAnswering() throws {
        var last = "not run"
        try waitFor("the private \(kind) to answer pactl info (last: \(last))", timeout: 10) {
            let result = try? Shell.run("pactl", ["info"], environment: self.clientEnvironment, timeout: 5)
            last = result.map(String.init(describing:)) ?? "could not start pactl"
            return result?.succeeded == true
        }
    }

    /// Polls every 20 ms; fails early (with the logs) when a server process exited.
    private func waitFor(_ what: @autoclosure () -> String, timeout: TimeInterval, _ condition: () throws -> Bool) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if try condition() { return }
            if let dead = processes.first(where: { !$0.isRunning }) {
                throw DaemonError("\(dead.executable) exited (status \(dead.status.map(String.init) ?? "?")) "
                                  + "while waiting for \(what()):\n\(logTail)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw DaemonError("timed out after \(timeout) s waiting for \(what()):\n\(logTail)")
    }
}

/// `parec` of a sink's monitor (s16le stereo 44.1 kHz) in the background, on the server that
/// `environment` names. It ends by itself when that server dies; what arrived until then stays.
final class SinkRecorder {
    static let bytesPerSecond = 44_100 * 2 * 2
    let device: String
    private let recorder: Subprocess

    init(device: String, environment: [String: String?]) throws {
        self.device = device
        recorder = try Subprocess("parec", ["--raw", "--format=s16le", "--rate=44100", "--channels=2",
                                            "--latency-msec=20", "-d", device],
                                  environment: environment, binaryStdout: true)
    }

    /// The most the recording has been ahead of the monotonic clock (recorded seconds minus
    /// clock seconds) at any reading of `lag()`: the moment it was level with real time.
    private var bestLead: Double?

    /// How far the recording now trails real time, in seconds, against the moment it trailed
    /// least (readings by this method only, so call it often while waiting): audio the sink has
    /// played that has not reached the test yet (in the server's queue, in parec, in its pipe).
    /// The monitor runs on the system clock, so a recording cannot be ahead; it falls behind
    /// when a loaded machine leaves parec or the test's reader waiting.
    func lag() -> Double {
        let lead = seconds - ProcessInfo.processInfo.systemUptime
        let best = max(bestLead ?? lead, lead)
        bestLead = best
        return best - lead
    }

    /// A signal to parec (SIGSTOP leaves it waiting, as a loaded machine would).
    func signal(_ signal: Int32) { recorder.signal(signal) }

    /// Everything recorded so far (the recorder goes on).
    var data: Data { recorder.stdout.data }
    var byteCount: Int { recorder.stdout.data.count }
    var seconds: Double { Double(byteCount) / Double(SinkRecorder.bytesPerSecond) }
    var isRunning: Bool { recorder.isRunning }

    /// Waits until `seconds` of audio in total arrived; throws (with parec's stderr) otherwise.
    func waitForAudio(seconds wanted: Double, timeout: TimeInterval) throws {
        let bytes = Int(wanted * Double(SinkRecorder.bytesPerSecond))
        guard recorder.stdout.waitForByteCount(bytes, timeout: timeout) else {
            throw BusError("parec -d \(device) delivered \(String(format: "%.2f", seconds)) of \(wanted) s "
                           + "within \(timeout) s: \(recorder.stderr.text)")
        }
    }

    /// Stops parec (by PID; it may have ended already) and returns everything recorded.
    func stop() -> Data {
        recorder.stop(signal: SIGINT, grace: 2)
        recorder.stdout.waitUntilClosed(timeout: 2)
        return recorder.stdout.data
    }

    deinit {
        recorder.stop(signal: SIGINT, grace: 1)
    }
}
