import Foundation

/// `PULSE_SERVER` as the test process found it (or as PipeWireFactsTests's own session set it,
/// before this is first read), read once, before our private servers set it.
let externalPulseServer = ProcessInfo.processInfo.environment["PULSE_SERVER"]

/// The client variables a private server sets, to put back when it stops.
private let clientVariables = ["PULSE_SERVER", "PULSE_CLIENTCONFIG", "PULSE_COOKIE"]

/// A private PulseAudio for the tests: own runtime dir, home, cookie and client.conf, two null
/// sinks (`headphones`, the default, and `speakers`) and `module-role-cork` (a `phone` stream
/// corks `music`). Started by PID and stopped by PID, never by name.
/// When `PULSE_SERVER` is already set, that server is used and nothing is started, unless
/// `alwaysPrivate` (tests that unload or move devices must not change a shared server).
final class PulseServer: @unchecked Sendable {
    // @unchecked Sendable: used from the test thread only.
    let directory: URL
    private var process: Subprocess?
    let isExternal: Bool
    /// The client variables as they were before this server set them.
    private var savedEnvironment: [String: String?] = [:]

    init(alwaysPrivate: Bool = false) throws {
        isExternal = externalPulseServer != nil && !alwaysPrivate
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("aubade-pulse-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        guard !isExternal else { return }
        let fm = FileManager.default
        let run = directory.appendingPathComponent("run"), home = directory.appendingPathComponent("home")
        try fm.createDirectory(at: run, withIntermediateDirectories: true,
                               attributes: [.posixPermissions: 0o700])
        try fm.createDirectory(at: home, withIntermediateDirectories: true)
        try """
        load-module module-native-protocol-unix auth-anonymous=1 socket=\(socketPath)
        load-module module-null-sink sink_name=headphones sink_properties="device.form_factor=headphone"
        load-module module-null-sink sink_name=speakers sink_properties="device.form_factor=speaker"
        set-default-sink headphones
        load-module module-role-cork trigger_roles=phone cork_roles=music,video
        """.write(to: directory.appendingPathComponent("test.pa"), atomically: true, encoding: .utf8)
        try "autospawn = no\n".write(to: directory.appendingPathComponent("client.conf"),
                                      atomically: true, encoding: .utf8)
        let environment = ProcessInfo.processInfo.environment
        for name in clientVariables { savedEnvironment[name] = .some(environment[name]) }
        setenv("PULSE_SERVER", "unix:\(socketPath)", 1)
        setenv("PULSE_CLIENTCONFIG", directory.appendingPathComponent("client.conf").path, 1)
        setenv("PULSE_COOKIE", directory.appendingPathComponent("cookie").path, 1)
    }

    var socketPath: String { directory.appendingPathComponent("run/native").path }

    /// Starts pulseaudio and waits until `pactl info` answers.
    func start() throws {
        guard !isExternal, process == nil else { return }
        process = try Subprocess("/usr/bin/pulseaudio",
                                 ["--exit-idle-time=-1", "-n", "-F", directory.appendingPathComponent("test.pa").path,
                                  "--realtime=no", "--high-priority=no", "--daemonize=no"],
                                 environment: ["XDG_RUNTIME_DIR": directory.appendingPathComponent("run").path,
                                               "HOME": directory.appendingPathComponent("home").path],
                                 // Off the session bus: a pulseaudio there (scripts/audio-session)
                                 // owns org.PulseAudio1, and a second one would exit.
                                 unsetting: ["DBUS_SESSION_BUS_ADDRESS"],
                                 captureOutput: false)
        for _ in 0..<100 {
            if (try? pactl("info"))?.contains("Server Name") == true { return }
            usleep(50_000)
        }
        throw POSIXError(.ETIMEDOUT)
    }

    /// Stops our pulseaudio by its PID.
    func stop() {
        guard let process else { return }
        self.process = nil
        _ = process.terminate()
    }

    /// Removes the server's files and gives the process its client variables back.
    func removeFiles() {
        if !isExternal { try? FileManager.default.removeItem(at: directory) }
        for (name, value) in savedEnvironment {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
        savedEnvironment = [:]
    }

    /// The index of the module that created sink `name` (a `module-null-sink`).
    func moduleIndex(ofSink name: String) throws -> String? {
        try pactl("list", "short", "modules").split(separator: "\n")
            .first { $0.split(whereSeparator: { $0 == "\t" || $0 == " " }).contains("sink_name=\(name)") }
            .flatMap { $0.split(separator: "\t").first.map(String.init) }
    }

    @discardableResult
    func pactl(_ arguments: String...) throws -> String {
        try Subprocess.run("/usr/bin/pactl", arguments)
    }

    /// The `pactl list sink-inputs` block of sink input `index`, or nil if it does not exist.
    func sinkInput(_ index: UInt32) throws -> String? {
        let list = try pactl("list", "sink-inputs")
        return list.components(separatedBy: "Sink Input #").dropFirst()
            .first { $0.hasPrefix("\(index)\n") }
    }

    /// Records `seconds` of s16le stereo 44.1 kHz from a source and returns the samples.
    func record(from device: String, seconds: Double) throws -> [Int16] {
        let parec = try Subprocess("/usr/bin/parec",
                                   ["-d", device, "--raw", "--format=s16le", "--rate=44100",
                                    "--channels=2", "--latency-msec=20"], captureOutput: true)
        // Count bytes, not wall time: parec may take a while to connect.
        let data = parec.read(count: Int(seconds * 44100) * 4, timeout: seconds + 3)
        _ = parec.terminate()
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }
}
