import Foundation
@testable import TestSupport

/// One of the MPD servers the MPD benchmark runs, with everything it keeps under `home`:
/// - Aubade: `aubade serve --music-folder LIBRARY --mpd-address 127.0.0.1 --mpd-port PORT`
///   with HOME and the XDG folders in `home` (its database `~/.cache/aubade/library.db`);
/// - mpd: `mpd --no-daemon home/mpd.conf`: the library as music_directory, its db_file and
///   log in `home`, 127.0.0.1 on a free port, `auto_update "no"`, `metadata_to_use "+comment"`,
///   a null output (it plays in real time, to nothing).
/// Stopped by PID (SIGTERM, then SIGKILL after the grace).
final class MPDBenchServer {
    enum Kind {
        case aubade(binary: String)
        case mpd
    }

    let name: String
    let kind: Kind
    let home: URL
    let library: URL?
    let port: UInt16
    private(set) var process: Spawned?
    private let register: (Spawned) -> Void

    init(name: String, kind: Kind, home: URL, library: URL?, register: @escaping (Spawned) -> Void) throws {
        self.name = name
        self.kind = kind
        self.home = home
        self.library = library
        self.register = register
        port = try MPDProtocol.freePort()
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    var isAubade: Bool {
        if case .aubade = kind { return true }
        return false
    }

    var environment: [String: String?] {
        ["HOME": home.path,
         "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
         "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path,
         "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
         "XDG_STATE_HOME": home.appendingPathComponent(".local/state").path]
    }

    /// Aubade's library database, or mpd's db_file.
    var databaseFile: URL {
        isAubade ? home.appendingPathComponent(".cache/aubade/library.db") : home.appendingPathComponent("database")
    }

    /// Aubade's saved player state (its queue).
    var stateFile: URL { home.appendingPathComponent(".local/state/aubade/state.json") }

    /// Starts the server with `arguments` after the usual ones (Aubade: PATHs to play).
    @discardableResult
    func start(arguments extra: [String] = []) throws -> Spawned {
        precondition(process?.isRunning != true, "\(name) runs already")
        let spawned: Spawned
        switch kind {
        case .aubade(let binary):
            let folder = library.map { ["--music-folder", $0.path] } ?? []
            spawned = try Spawned(binary, ["serve"] + folder + ["--mpd-address", "127.0.0.1", "--mpd-port", "\(port)"] + extra,
                                  environment: environment, logPath: home.appendingPathComponent("aubade.log").path)
        case .mpd:
            let configuration = try writeMPDConfiguration()
            spawned = try Spawned("mpd", ["--no-daemon", configuration.path], environment: ["HOME": home.path],
                                  logPath: home.appendingPathComponent("mpd.log").path)
        }
        register(spawned)
        process = spawned
        return spawned
    }

    /// mpd's music_directory instead of the library, for one start (`makeEmptyDatabase`).
    private var musicDirectoryOverride: URL?

    private func writeMPDConfiguration() throws -> URL {
        let playlists = home.appendingPathComponent("playlists", isDirectory: true)
        try FileManager.default.createDirectory(at: playlists, withIntermediateDirectories: true)
        let configuration = home.appendingPathComponent("mpd.conf")
        try """
            music_directory "\((musicDirectoryOverride ?? library)?.path ?? home.path)"
            playlist_directory "\(playlists.path)"
            db_file "\(databaseFile.path)"
            log_file "\(home.appendingPathComponent("mpd-own.log").path)"
            bind_to_address "127.0.0.1"
            port "\(port)"
            auto_update "no"
            zeroconf_enabled "no"
            metadata_to_use "+comment"
            audio_output {
                type "null"
                name "null"
            }

            """.write(to: configuration, atomically: true, encoding: .utf8)
        return configuration
    }

    /// A connection, as soon as the server accepts one (up to `timeout`).
    func connect(timeout: TimeInterval = 120) throws -> MPDBenchConnection {
        guard let process else { throw DaemonError("\(name) is not running") }
        do {
            return try MPDBenchConnection(port: port, timeout: timeout, alive: { process.isRunning })
        } catch {
            throw DaemonError("\(name): \(error) — \(process.logTail())")
        }
    }

    /// SIGTERM, up to `grace` seconds, then SIGKILL.
    @discardableResult
    func stop(grace: TimeInterval = 30) -> Spawned.Exit? {
        defer { process = nil }
        return process?.stop(grace: grace)
    }

    func removeDatabase() {
        try? FileManager.default.removeItem(at: databaseFile)
    }

    /// mpd: an empty database in db_file, so that the next start loads it and waits for
    /// `update` (an mpd without a database file starts updating at once, by itself): mpd started
    /// once on an empty music folder, then stopped.
    func makeEmptyDatabase() throws {
        guard case .mpd = kind else { return }
        removeDatabase()
        let empty = home.appendingPathComponent("empty-music", isDirectory: true)
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        musicDirectoryOverride = empty
        defer { musicDirectoryOverride = nil }
        try start()
        let connection = try connect()
        let deadline = Date(timeIntervalSinceNow: 60)
        while try connection.ok("status").fields["updating_db"] != nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        stop()
        guard FileManager.default.fileExists(atPath: databaseFile.path) else {
            throw DaemonError("mpd on an empty folder wrote no database at \(databaseFile.path)")
        }
    }

    /// Aubade: gives `home` a saved player state with an empty queue, written by this very
    /// binary (started without a music folder, then stopped): restored at the next start, it
    /// keeps Aubade from putting the whole music folder in its queue, which it does on a first
    /// start with nothing saved — so what is timed is the library alone, as mpd's update.
    func seedEmptyQueue() throws {
        guard case .aubade(let binary) = kind else { return }
        let seed = home.deletingLastPathComponent().appendingPathComponent("\(home.lastPathComponent)-seed", isDirectory: true)
        try? FileManager.default.removeItem(at: seed)
        try FileManager.default.createDirectory(at: seed, withIntermediateDirectories: true)
        let seeder = try MPDBenchServer(name: "seed", kind: kind, home: seed, library: nil, register: register)
        _ = binary
        try seeder.start()
        _ = try seeder.connect(timeout: 30)
        seeder.stop()
        guard FileManager.default.fileExists(atPath: seeder.stateFile.path) else {
            throw DaemonError("Aubade without a music folder saved no state in \(seeder.stateFile.path)")
        }
        try FileManager.default.createDirectory(at: stateFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: stateFile)
        try FileManager.default.copyItem(at: seeder.stateFile, to: stateFile)
        try? FileManager.default.removeItem(at: seed)
    }

    /// Kilobytes of a /proc/PID/status field (VmHWM, VmRSS) of the running server.
    func status(_ field: String) -> Int? { process.flatMap { ProcAccounting.statusKilobytes($0.pid, field) } }

    /// utime + stime in seconds.
    var cpuSeconds: Double? { process.flatMap { ProcAccounting.cpuTicks($0.pid) }.map { Double($0) / ProcAccounting.ticksPerSecond } }
}
