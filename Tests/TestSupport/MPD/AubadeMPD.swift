import Foundation
import XCTest

/// `aubade serve` as an MPD server: the daemon, the TCP port it serves MPD clients on
/// (127.0.0.1, a free one: the test harness starts every daemon with `--mpd-address none`)
/// and its Unix socket (`$XDG_RUNTIME_DIR/aubade/mpd.socket`, in the test's private session).
struct AubadeMPD {
    let daemon: Daemon
    let port: Int

    var socketPath: String {
        let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"] ?? "/tmp"
        return runtime + "/aubade/mpd.socket"
    }

    /// A new client, over TCP or (`unix`) the Unix socket.
    func connect(unix: Bool = false, timeout: TimeInterval = 10) throws -> MPDConnection {
        try MPDConnection(unix ? .unix(path: socketPath) : .tcp(port: port), timeout: Sanitizer.scaled(timeout))
    }
}

extension AubadeTestCase {
    /// Starts `aubade serve` with `music` as its library and `playlists` as its stored
    /// playlists, serving MPD clients on a free port of 127.0.0.1, and waits until it says it
    /// listens there (its log line: a port taken meanwhile by another test is a line saying so,
    /// and the daemon is started again on another). The daemon is stopped after the test.
    ///
    /// With no saved state, Aubade queues its music folder at its first start (silently, to
    /// play later): callers that want an empty queue clear it (see `clearFirstQueue`).
    func startMPDDaemon(music: URL, playlists: URL, arguments: [String] = [],
                        file: StaticString = #filePath, line: UInt = #line) throws -> AubadeMPD {
        for _ in 0..<3 {
            let port = try Loopback.freePort()
            let daemon = try startDaemon(["--music-folder", music.path, "--playlists-folder", playlists.path,
                                          "--mpd-address", "127.0.0.1", "--mpd-port", "\(port)"] + arguments)
            let timeout = Sanitizer.scaled(10)
            let listening = daemon.process.stderr.waitForLine(timeout: timeout) { line in
                line.contains("MPD clients served on 127.0.0.1:\(port)") || line.contains("127.0.0.1:\(port) is taken")
            }
            if listening?.line.contains("MPD clients served") == true { return AubadeMPD(daemon: daemon, port: port) }
            guard listening != nil else {
                throw DaemonError("aubade did not serve MPD clients on 127.0.0.1:\(port) within \(timeout) s: \(daemon.stderrLines)")
            }
            daemon.stop()
        }
        throw DaemonError("aubade found no free port for MPD clients in three tries")
    }

    /// Waits until Aubade's first-start queue of its music folder holds `songs` entries, then
    /// clears it: the queue is empty, as a new mpd's, and nothing is still being added.
    func clearFirstQueue(_ connection: MPDConnection, songs: Int, timeout: TimeInterval = 10) throws {
        var length = "?"
        try eventually("Aubade's first queue of its music folder (\(songs) songs; last seen \(length))",
                       timeout: Sanitizer.scaled(timeout)) {
            length = try connection.command("status").value("playlistlength") ?? "?"
            return length == "\(songs)"
        }
        let cleared = try connection.command("clear")
        guard cleared.isOK else { throw DaemonError("clear: \(cleared)") }
    }
}
