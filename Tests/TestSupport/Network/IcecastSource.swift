import Foundation

/// A radio station's playout feeding an `IcecastServer` mount: a python3 source client (the
/// script below, run by PID) that sends `PUT /mount` as libshout does (basic auth
/// `source:PASSWORD`, `Content-Type: audio/mpeg`, `Ice-Name`, `Expect: 100-continue`: icecast
/// answers `HTTP/1.1 100 Continue` and then reads the body), then the MP3 file in real time.
///
/// Pacing comes from the MP3 frame headers, not from the wall clock: frame k goes out when
/// CLOCK_MONOTONIC reaches start + its media time (the durations of the frames before it), so
/// the stream runs at exactly the file's speed. Tags and the encoder's Xing/Info frame are not
/// sent (a station sends bare frames). With `loop` the file starts over, the media time going on.
///
/// `titles` are set through the admin API at media times: just before the first byte of the
/// first frame at or after that time is sent. Each is logged with the frame's media time and
/// the CLOCK_MONOTONIC time of the send (`titleChanges`, compare with `monotonicNow()`). Icecast
/// then attaches the title to the 1400-byte chunk of the stream it is filling, so listeners get
/// it at the first `icy-metaint` boundary in that chunk or after it: up to 1399 bytes (about
/// 90 ms at 128 kbit/s) BEFORE the frame it was set at, and at most one metaint after.
///
/// The source does not reconnect: after `IcecastServer.restart()` it ends (`isRunning` false);
/// call `restart()` or `IcecastServer.startSource` again.
final class IcecastSource {
    /// A title the source set: at the frame of media time `mediaSeconds`, whose first byte was
    /// sent at `monotonicSeconds` (CLOCK_MONOTONIC).
    struct TitleChange: Equatable {
        var mediaSeconds: Double
        var monotonicSeconds: Double
        var title: String
    }

    let server: IcecastServer
    let mount: String
    let file: URL
    let loop: Bool
    let titles: [(atSeconds: Double, title: String)]
    let name: String
    let titleCharset: String
    /// The temporary directory with the script and its config; removed by `stop()`.
    let directory: URL
    private var process: Subprocess
    private var stopped = false

    /// Use `IcecastServer.startSource`.
    init(server: IcecastServer, mount: String, file: URL, loop: Bool,
         titles: [(atSeconds: Double, title: String)], name: String, titleCharset: String) throws {
        self.server = server
        self.mount = mount
        self.file = file
        self.loop = loop
        self.titles = titles
        self.name = name
        self.titleCharset = titleCharset
        var template = Array("\(NSTemporaryDirectory())aubade-source.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw DaemonError("mkdtemp failed: errno \(errno)") }
        directory = URL(fileURLWithPath: String(cString: made), isDirectory: true)
        do {
            let config: [String: Any] = [
                "port": server.port, "mount": mount, "password": IcecastServer.sourcePassword,
                "admin_user": IcecastServer.adminUser, "admin_password": IcecastServer.adminPassword,
                "file": file.path, "loop": loop, "name": name, "charset": titleCharset,
                "titles": titles.map { [$0.atSeconds, $0.title] as [Any] },
            ]
            try JSONSerialization.data(withJSONObject: config).write(to: directory.appendingPathComponent("source.json"))
            process = try Self.launch(in: directory, server: server, mount: mount)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    deinit { stop() }

    var isRunning: Bool { process.isRunning }
    var pid: Int32 { process.pid }

    /// The scheduled titles set so far, in order.
    var titleChanges: [TitleChange] {
        process.stderr.lines.compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count == 4, fields[0] == "title", let media = Double(fields[1]),
                  let clock = Double(fields[2]) else { return nil }
            return TitleChange(mediaSeconds: media, monotonicSeconds: clock, title: String(fields[3]))
        }
    }

    /// Waits until `count` scheduled titles were set; false on timeout or when the source ended.
    func waitForTitleChanges(_ count: Int, timeout: TimeInterval) -> Bool {
        // Counted inside the wait: reading `titleChanges` there would take the buffer's lock again.
        var seen = 0
        return process.stderr.waitForLine(timeout: timeout) { line in
            if line.hasPrefix("title ") { seen += 1 }
            return seen >= count
        } != nil
    }

    /// What the script logged ("connected …", "title …", "loop N", "end", "error …").
    var log: String { process.stderr.lines.suffix(40).joined(separator: "\n") }

    /// Sets a title now, through the admin API (`IcecastServer.setTitle`), in `titleCharset`.
    func setTitleNow(_ title: String) throws {
        try server.setTitle(title, mount: mount, charset: titleCharset)
    }

    /// Stops the source by PID (SIGTERM, then SIGKILL): listeners of the mount are disconnected.
    func stop() {
        process.stop(grace: 3)
        guard !stopped else { return }
        stopped = true
        try? FileManager.default.removeItem(at: directory)
    }

    /// Stops this source process and starts a new one: the file from its start, the title
    /// schedule from media time 0 again.
    func restart() throws {
        precondition(!stopped, "restart() after stop()")
        process.stop(grace: 3)
        process = try Self.launch(in: directory, server: server, mount: mount)
    }

    /// CLOCK_MONOTONIC in seconds: the clock of `TitleChange.monotonicSeconds`.
    static func monotonicNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Starts the script and waits until icecast lists the mount (10 s at most).
    private static func launch(in directory: URL, server: IcecastServer, mount: String) throws -> Subprocess {
        let child = try Subprocess(PythonScript.interpreter, [try PythonScript.path("icecast_source"),
                                            directory.appendingPathComponent("source.json").path])
        let deadline = Date(timeIntervalSinceNow: 10)
        while true {
            if child.stderr.lines.contains(where: { $0.hasPrefix("connected ") }),
               (try? server.hasSource(mount: mount)) == true {
                return child
            }
            if !child.isRunning || Date() >= deadline {
                child.stop(grace: 1)
                child.stderr.waitUntilClosed(timeout: 1)
                throw DaemonError("the icecast source for \(mount) did not start: \(child.stderr.text)\n"
                                  + "icecast2 (\(server.state))'s log:\n\(server.log)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }
}
