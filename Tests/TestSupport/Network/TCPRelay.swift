import Foundation

/// The network between the daemon and a station, made breakable: a python3 TCP relay on
/// 127.0.0.1:`port` (kept across restarts) forwarding each connection to `targetPort`.
///
/// - `stop()`: the relay process ends (by PID), every connection through it with it, and the
///   port refuses connections until `start()`: a network outage, with icecast and its source
///   untouched (so a listener that comes back finds the station, not a 404).
/// - `freeze()` / `thaw()`: SIGSTOP / SIGCONT: connections stay open but carry nothing (a
///   stalled server); new connections wait in the listen backlog.
/// - `.hangUp` mode: each connection is accepted and closed at once, so every attempt of a
///   client shows in `acceptedCount`.
final class TCPRelay {
    enum Mode: String { case forward, hangUp = "hangup" }

    let port: Int
    let targetPort: Int
    let directory: URL
    private var process: Subprocess?
    /// Connections accepted by the relay processes stopped before the current one.
    private var acceptedBefore = 0
    private var frozen = false

    init(to targetPort: Int, mode: Mode = .forward) throws {
        self.targetPort = targetPort
        var template = Array("\(NSTemporaryDirectory())aubade-relay.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw DaemonError("mkdtemp failed: errno \(errno)") }
        directory = URL(fileURLWithPath: String(cString: made), isDirectory: true)
        do {
            let (port, process) = try Self.launch(in: directory, port: 0, target: targetPort, mode: mode)
            self.port = port
            self.process = process
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    deinit { remove() }

    /// `http://127.0.0.1:PORT/PATH` through the relay.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path.hasPrefix("/") ? "" : "/")\(path)" }

    var isRunning: Bool { process?.isRunning ?? false }

    /// Connections accepted so far, by every relay process on this port.
    var acceptedCount: Int {
        acceptedBefore + (process?.stdout.lines.filter { $0.hasPrefix("accepted") }.count ?? 0)
    }

    /// Ends the relay and every connection through it; the port then refuses connections.
    func stop() {
        guard let process else { return }
        if frozen { process.signal(SIGCONT); frozen = false }
        process.stop(grace: 2)
        process.stdout.waitUntilClosed(timeout: 2)
        acceptedBefore += process.stdout.lines.filter { $0.hasPrefix("accepted") }.count
        self.process = nil
    }

    /// Starts the relay again on the same port.
    func start(mode: Mode = .forward) throws {
        stop()
        // The port was ours a moment ago; SO_REUSEADDR lets the relay bind it again at once.
        var lastError: (any Error)?
        for _ in 0..<20 {
            do {
                process = try Self.launch(in: directory, port: port, target: targetPort, mode: mode).1
                return
            } catch {
                lastError = error
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        throw lastError ?? DaemonError("the relay did not start again on port \(port)")
    }

    func freeze() {
        process?.signal(SIGSTOP)
        frozen = true
    }

    func thaw() {
        process?.signal(SIGCONT)
        frozen = false
    }

    /// Stops the relay and removes its folder.
    func remove() {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    private static func launch(in directory: URL, port: Int, target: Int, mode: Mode) throws -> (Int, Subprocess) {
        let child = try Subprocess(PythonScript.interpreter, [try PythonScript.path("tcp_relay"), String(port),
                                            String(target), mode.rawValue])
        guard let line = child.stdout.waitForLine(timeout: 10, where: { $0.hasPrefix("port ") })?.line,
              let bound = Int(line.dropFirst(5)) else {
            child.stop(grace: 1)
            child.stderr.waitUntilClosed(timeout: 1)
            throw DaemonError("the TCP relay did not start on port \(port): \(child.stderr.text)")
        }
        return (bound, child)
    }
}
