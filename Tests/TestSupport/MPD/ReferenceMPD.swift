import Foundation

/// Debian's mpd 0.23.12, the reference the MPD front-end is held to: `mpd --no-daemon CONF`
/// with a configuration and files of its own (database, state, log, stored playlists) in a
/// folder of its own, listening on 127.0.0.1 on a free port and on a Unix socket in that
/// folder, its music folder `music`, no automatic update, a null output with a software mixer
/// (so `setvol` works as on a real device), and `Comment` among its tags (Aubade lists it).
///
/// `start` returns once mpd answers on its Unix socket and its database is made (`update`,
/// then `status` until no `updating_db` is left). mpd binds every listener before it serves
/// any, and exits when one cannot be bound: an answer on the socket, which is ours alone,
/// proves the TCP port is ours too (another test's mpd may hold a port we thought free).
/// `stop` ends it by PID and removes its folder.
///
///     let mpd = try ReferenceMPD.start(music: folder)
///     defer { mpd.stop() }
///     let answer = try mpd.connect().command("lsinfo")
final class ReferenceMPD {
    let folder: URL
    let port: Int
    let music: URL
    /// Its stored playlists (`playlist_directory`).
    let playlists: URL
    var socketPath: String { folder.appendingPathComponent("socket").path }
    var logFile: URL { folder.appendingPathComponent("log") }
    private let process: Subprocess

    var pid: Int32 { process.pid }
    var isRunning: Bool { process.isRunning }

    /// Starts mpd on `music`; `configuration` adds lines to its configuration (a `password`,
    /// `default_permissions`). Tries three ports: one found free may be taken before mpd binds it.
    static func start(music: URL, configuration: [String] = [], timeout: TimeInterval = 20) throws -> ReferenceMPD {
        var failure: (any Error)?
        for _ in 0..<3 {
            let folder = TestRunDirectory.url.appendingPathComponent("mpd-\(UUID().uuidString)", isDirectory: true)
            do {
                let mpd = try ReferenceMPD(music: music, folder: folder, port: try Loopback.freePort(),
                                           configuration: configuration)
                do {
                    try mpd.waitUntilServing(timeout: Sanitizer.scaled(timeout))
                    return mpd
                } catch {
                    mpd.stop()
                    failure = error
                }
            } catch {
                try? FileManager.default.removeItem(at: folder)
                throw error
            }
        }
        throw failure ?? MPDConnectionError("mpd did not start")
    }

    private init(music: URL, folder: URL, port: Int, configuration: [String]) throws {
        self.folder = folder
        self.port = port
        self.music = music
        playlists = folder.appendingPathComponent("playlists", isDirectory: true)
        try FileManager.default.createDirectory(at: playlists, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("mpd.conf")
        // Quotes and backslashes in a path would need escaping in mpd's syntax: ours have none.
        let lines = [
            "music_directory \"\(music.path)\"",
            "playlist_directory \"\(playlists.path)\"",
            "db_file \"\(folder.appendingPathComponent("database").path)\"",
            "state_file \"\(folder.appendingPathComponent("state").path)\"",
            "log_file \"\(folder.appendingPathComponent("log").path)\"",
            "bind_to_address \"127.0.0.1\"",
            "bind_to_address \"\(folder.appendingPathComponent("socket").path)\"",
            "port \"\(port)\"",
            "auto_update \"no\"",
            "zeroconf_enabled \"no\"",
            "metadata_to_use \"+comment\"",
            "audio_output {",
            "    type \"null\"",
            "    name \"null\"",
            "    mixer_type \"software\"",
            "}",
        ] + configuration
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        process = try Subprocess("mpd", ["--no-daemon", file.path], environment: ["HOME": folder.path])
    }

    /// A new client of this mpd, over TCP or (`unix`) its socket.
    func connect(unix: Bool = false, timeout: TimeInterval = 10) throws -> MPDConnection {
        try MPDConnection(unix ? .unix(path: socketPath) : .tcp(port: port), timeout: Sanitizer.scaled(timeout))
    }

    /// Its exit status, once it exited (after `kill`), or nil after `timeout` seconds.
    func waitForExit(timeout: TimeInterval) -> Int32? {
        process.waitForExit(timeout: timeout)
    }

    /// By PID: SIGTERM, then SIGKILL; its folder removed.
    func stop() {
        process.stop(grace: 5)
        try? FileManager.default.removeItem(at: folder)
    }

    /// What mpd said on stderr and in its log (for a failure's message).
    var output: String {
        let log = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        return process.stderr.text + log
    }

    private func waitUntilServing(timeout: TimeInterval) throws {
        let control = try MPDConnection(.unix(path: socketPath), timeout: timeout, connectTimeout: timeout) {
            guard process.isRunning else { throw MPDConnectionError("mpd exited: \(output)") }
            return true
        }
        defer { control.close() }
        try ReferenceMPD.waitForDatabase(control, timeout: timeout)
    }

    /// `update`, then `status` every 10 ms until no update runs: the database holds the music
    /// folder as it is now. Works on any MPD server (Aubade's too).
    static func waitForDatabase(_ connection: MPDConnection, timeout: TimeInterval) throws {
        let update = try connection.command("update")
        guard update.isOK else { throw MPDConnectionError("update: \(update)") }
        try waitForUpdates(connection, timeout: timeout)
    }

    /// `status` every 10 ms until it shows no `updating_db`.
    static func waitForUpdates(_ connection: MPDConnection, timeout: TimeInterval) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            let status = try connection.command("status")
            if status.isOK, status.value("updating_db") == nil { return }
            guard Date() < deadline else { throw MPDConnectionError("the database update did not end within \(timeout) s") }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
}
