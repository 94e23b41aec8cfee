import Foundation
@testable import TestSupport

/// One player's processes, started by `PeerLauncher` (the bridge, mpDris2, after its player).
final class PeerSession {
    let peer: Peer
    var processes: [Spawned] = []
    /// The clock that `start → bus name owned` runs from.
    var nameClock = Stamp.now()
    var mpd: MPDProtocol?
    /// mpd's port, for a fresh connection (mpd closes one idle for `connection_timeout`, 60 s).
    var mpdPort: UInt16?
    var main: Spawned { processes[0] }
    private var playStamp: Stamp?

    init(peer: Peer) { self.peer = peer }

    /// Starts playing: a no-op stamp for the players started with what they play, `play` for mpd.
    func play() throws -> Stamp {
        if let playStamp { return playStamp }
        guard let mpd else { return processes[0].started }
        let stamp = Stamp.now()
        try mpd.command("play")
        playStamp = stamp
        return stamp
    }

    /// mpd's own word that it stopped (when mpDris2's signal did not come).
    func waitForMPDStop(timeout: TimeInterval) -> Bool {
        guard let mpd else { return false }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if (try? mpd.command("status"))?["state"] == "stop" { return true }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return false
    }

    /// Stops its processes by PID, the bridge before its player.
    func stop(grace: TimeInterval = 3) {
        for process in processes.reversed() { process.stop(grace: grace) }
        mpd = nil
    }

    /// mpd's `status` on a fresh connection: "state stop, error …" (nil: not mpd, or no answer).
    func mpdStatus() -> String? {
        guard let mpdPort, let status = try? MPDProtocol(port: mpdPort, timeout: 2).command("status") else { return nil }
        return "state \(status["state"] ?? "?")" + (status["error"].map { ", error “\($0)”" } ?? "")
    }

    func logTails() -> String {
        processes.map { "\($0.name): \($0.logTail())" }.joined(separator: "\n")
    }
}

/// Starts the players of the peer benchmarks as a user runs them, each with its own HOME and
/// XDG folders under `work`, all on the `headphones` sink:
/// - Aubade: `aubade serve MEDIA`;
/// - `mpg123 -q -o pulse -a headphones MEDIA`;
/// - `mpv --no-video --no-terminal --ao=pulse --audio-device=pulse/headphones --idle=no MEDIA`
///   with `PULSE_PROP=media.role=music` (mpv sets no role; mpv-mpris loads by itself);
/// - mpd (`--no-daemon`, a private config: 127.0.0.1, a free port, no auto update, no zeroconf,
///   a pulse output on `headphones`), its database updated, the queue cleared and MEDIA added
///   (`add` takes a path inside the music directory or a URL), then mpDris2 on it. mpd is not
///   told to play: `PeerSession.play()` does that.
struct PeerLauncher {
    var aubadeBinary: String
    var work: URL
    /// Told of every process started, before anything else can fail (for the tearDown).
    var register: (Spawned) -> Void

    /// What a player is given: `media` for Aubade, mpg123 and mpv; for mpd its music
    /// directory and what to `add` (a path relative to that directory, or a URL).
    struct Media {
        var argument: String
        var mpdMusicDirectory: URL
        var mpdEntry: String

        static func file(_ file: URL) -> Media {
            Media(argument: file.path, mpdMusicDirectory: file.deletingLastPathComponent(), mpdEntry: file.lastPathComponent)
        }

        /// A URL; mpd gets `emptyFolder` as its music directory.
        static func url(_ url: String, emptyFolder: URL) -> Media {
            Media(argument: url, mpdMusicDirectory: emptyFolder, mpdEntry: url)
        }
    }

    func home(of peer: Peer) -> URL { work.appendingPathComponent("home-\(peer.rawValue)", isDirectory: true) }

    /// `created` gets the session before anything is spawned, so a caller can stop what a
    /// launch that fails half-way started.
    func launch(_ peer: Peer, _ media: Media, created: (PeerSession) -> Void = { _ in }) throws -> PeerSession {
        let session = PeerSession(peer: peer)
        created(session)
        let home = home(of: peer)
        try? FileManager.default.removeItem(at: home)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let environment: [String: String?] = [
            "HOME": home.path,
            "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
            "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path,
            "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
            "XDG_STATE_HOME": home.appendingPathComponent(".local/state").path,
        ]
        func spawn(_ tool: String, _ arguments: [String], _ extra: [String: String?] = [:]) throws -> Spawned {
            let process = try Spawned(tool, arguments, environment: environment.merging(extra) { _, new in new },
                                      logPath: home.appendingPathComponent("\((tool as NSString).lastPathComponent).log").path)
            register(process)
            session.processes.append(process)
            return process
        }
        switch peer {
        case .aubade:
            session.nameClock = try spawn(aubadeBinary, ["serve", media.argument]).started
        case .mpg123:
            _ = try spawn("mpg123", ["-q", "-o", "pulse", "-a", "headphones", media.argument])
        case .mpv:
            session.nameClock = try spawn("mpv", ["--no-video", "--no-terminal", "--ao=pulse", "--audio-device=pulse/headphones",
                                                  "--idle=no", media.argument], ["PULSE_PROP": "media.role=music"]).started
        case .mpd:
            let port = try MPDProtocol.freePort()
            let playlists = home.appendingPathComponent("playlists")
            try FileManager.default.createDirectory(at: playlists, withIntermediateDirectories: true)
            let configuration = home.appendingPathComponent("mpd.conf")
            try """
                music_directory "\(media.mpdMusicDirectory.path)"
                playlist_directory "\(playlists.path)"
                db_file "\(home.appendingPathComponent("database").path)"
                state_file "\(home.appendingPathComponent("state").path)"
                log_file "\(home.appendingPathComponent("mpd-own.log").path)"
                bind_to_address "127.0.0.1"
                port "\(port)"
                auto_update "no"
                zeroconf_enabled "no"
                audio_output {
                    type "pulse"
                    name "x"
                    sink "headphones"
                }

                """.write(to: configuration, atomically: true, encoding: .utf8)
            _ = try spawn("mpd", ["--no-daemon", configuration.path])
            let control = try MPDProtocol(port: port)
            session.mpd = control
            session.mpdPort = port
            try control.command("update")
            let deadline = Date(timeIntervalSinceNow: 20)
            while try control.command("status")["updating_db"] != nil {
                guard Date() < deadline else { throw DaemonError("mpd's database update did not finish") }
                Thread.sleep(forTimeInterval: 0.02)
            }
            try control.command("clear")
            try control.command("add \"\(media.mpdEntry)\"")
            let bridge = home.appendingPathComponent("mpDris2.conf")
            try """
                [Connection]
                host = 127.0.0.1
                port = \(port)

                [Library]
                music_dir = \(media.mpdMusicDirectory.path)

                [Bling]
                notify = False
                mmkeys = False

                """.write(to: bridge, atomically: true, encoding: .utf8)
            session.nameClock = try spawn("mpDris2", ["-c", bridge.path]).started
        }
        return session
    }
}

/// What the peer benchmarks say about the run: which players are installed, versions, the
/// sound server, the machine, the load.
enum PeerRunFacts {
    /// Aubade and the peers that are installed; a line for each one skipped.
    static func installedPlayers() -> (players: [Peer], skipped: [String]) {
        var players: [Peer] = [.aubade]
        var skipped: [String] = []
        if (try? Shell.which("mpg123")) != nil { players.append(.mpg123) } else {
            skipped.append("mpg123: not installed (apt-get install mpg123, or make bench-deps)")
        }
        if (try? Shell.which("mpv")) == nil {
            skipped.append("mpv + mpv-mpris: mpv not installed (apt-get install mpv mpv-mpris, or make bench-deps)")
        } else if !FileManager.default.fileExists(atPath: "/etc/mpv/scripts/mpris.so") {
            skipped.append("mpv + mpv-mpris: mpv-mpris not installed (no /etc/mpv/scripts/mpris.so)")
        } else {
            players.append(.mpv)
        }
        if (try? Shell.which("mpd")) == nil || (try? Shell.which("mpDris2")) == nil {
            skipped.append("mpd + mpDris2: not installed (apt-get install mpd mpdris2, or make bench-deps)")
        } else {
            players.append(.mpd)
        }
        return (players, skipped)
    }

    /// "pulseaudio 16.1" from `pactl info`.
    static func soundServer() -> String {
        let info = (try? Shell.run("pactl", ["info"]))?.stdout ?? ""
        var name = ProcessInfo.processInfo.environment["AUBADE_SOUND_SERVER"] ?? "pulseaudio"
        var version = ""
        for line in info.split(separator: "\n") {
            if line.hasPrefix("Server Name: ") { name = String(line.dropFirst("Server Name: ".count)) }
            if line.hasPrefix("Server Version: ") { version = " " + line.dropFirst("Server Version: ".count) }
        }
        return name + version
    }

    /// The 1, 5 and 15 min load averages.
    static func loadAverage() -> String {
        (ProcAccounting.read("/proc/loadavg") ?? "?").split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// `uname -m`, cores and CPU model.
    static func machine() -> String {
        "\(BenchmarkFiles.machine()) (uname -m: \(((try? Shell.run("uname", ["-m"]))?.trimmedOutput) ?? "?"))"
    }

    /// Each player's version line (mpv-mpris's package version beside mpv's).
    static func versions(aubadeBinary: String, players: [Peer]) -> [String: String] {
        func first(_ tool: String, _ arguments: [String]) -> String {
            ((try? Shell.run(tool, arguments, timeout: 10))?.stdout.split(separator: "\n").first).map(String.init) ?? "?"
        }
        var result = ["aubade": first(aubadeBinary, ["--version"])]
        if players.contains(.mpg123) { result["mpg123"] = first("mpg123", ["--version"]) }
        if players.contains(.mpv) {
            let mpris = ((try? Shell.run("dpkg-query", ["-W", "-f", "${Version}", "mpv-mpris"]))?.trimmedOutput).map { ", mpv-mpris \($0)" } ?? ""
            result["mpv"] = first("mpv", ["--version"]).components(separatedBy: " Copyright").first! + mpris
        }
        if players.contains(.mpd) {
            result["mpd"] = first("mpd", ["--version"]) + ", " + first("mpDris2", ["--version"])
        }
        return result
    }
}
