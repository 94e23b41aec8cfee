import Foundation

/// The real `playerctld` (Debian's playerctl 2.4.1) on the private session bus: it follows the
/// most recently active MPRIS player, and many media-key and status-bar setups send their keys
/// to it (`playerctl -p playerctld play-pause`). It aborts (`playerctl-ERROR **: cannot update
/// properties for unknown interface`) when a player sends PropertiesChanged on
/// /org/mpris/MediaPlayer2 for anything but the four MPRIS interfaces — what Aubade did before
/// its own interfaces moved to /org/aubade/Player. Stopped by PID.
final class Playerctld {
    static let busName = "org.mpris.MediaPlayer2.playerctld"
    static let interface = "com.github.altdesktop.playerctld"

    let process: Subprocess

    init() throws {
        process = try Subprocess("playerctld", [])
        let deadline = Date(timeIntervalSinceNow: 10)
        while try !Bus.nameHasOwner(Self.busName) {
            guard process.isRunning, Date() < deadline else {
                let why = process.isRunning ? "did not take \(Self.busName) in 10 s" : "exited (\(process.status ?? -1))"
                process.stop(grace: 1)
                throw DaemonError("playerctld \(why): \(process.stderr.text)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    deinit { stop() }

    func stop() { process.stop(grace: 2) }

    var isRunning: Bool { process.isRunning }

    /// What playerctld printed at its ERROR or CRITICAL levels (a dying playerctld says why
    /// there). Its warnings are left out: 2.4.1 warns about TrackList for every player that has
    /// one, while it reads the player's properties (it checks `playlists.supported` there, a
    /// copy-and-paste slip in playerctl-daemon.c).
    var errors: [String] {
        process.stderr.lines.filter { $0.contains("-ERROR") || $0.contains("-CRITICAL") || $0.contains("Aborted") }
    }

    /// The players playerctld knows, the active one first.
    func playerNames() throws -> [String] {
        let reply = try Bus.call("org.freedesktop.DBus.Properties.Get", ["string:\(Self.interface)", "string:PlayerNames"],
                                 destination: Self.busName, path: Bus.objectPath)
        guard reply.succeeded, let names = reply.values.first?.strings else {
            throw BusError("playerctld's PlayerNames: \(reply)")
        }
        return names
    }

    /// `playerctl -p playerctld ARGUMENTS`: what a key bound to playerctld does.
    static func playerctl(_ arguments: String...) throws -> CommandResult {
        try Shell.run("playerctl", ["-p", "playerctld"] + arguments)
    }
}
