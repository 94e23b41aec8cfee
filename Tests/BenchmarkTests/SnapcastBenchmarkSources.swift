import Foundation
@testable import TestSupport

/// One source feeding the benchmark's snapserver: Aubade (`output = snapcast`, its control
/// script on the stream) or mpd (its `fifo` output into the stream's pipe, as mpd's users
/// feed Snapcast), with what the benchmark asks of both.
final class SnapcastBenchmarkSource {
    enum Kind: String, CaseIterable {
        case aubade, mpd
    }

    let kind: Kind
    private var daemon: Daemon?
    private var mpd: Subprocess?
    private var control: MPDProtocol?
    private var mpdPort: UInt16 = 0
    private var mpdLog: URL?
    private let bus: RawBus?
    private var signals: SignalMonitor?

    /// Starts it playing `files` (in the benchmark's music folder) into `server`'s stream.
    init(_ kind: Kind, files: [URL], server: PrivateSnapserver, work: URL) throws {
        self.kind = kind
        switch kind {
        case .aubade:
            let configuration = try server.aubadeConfiguration()
            daemon = try Daemon(serve: ["--config", configuration.path] + files.map(\.path))
            try daemon?.waitForBusName()
            bus = try RawBus()
            signals = try SignalMonitor(sender: daemon?.uniqueName ?? Daemon.busName)
        case .mpd:
            bus = nil
            let home = work.appendingPathComponent("mpd-\(UUID().uuidString.prefix(6))")
            try FileManager.default.createDirectory(at: home.appendingPathComponent("playlists"), withIntermediateDirectories: true)
            mpdPort = try MPDProtocol.freePort()
            let configuration = home.appendingPathComponent("mpd.conf")
            mpdLog = home.appendingPathComponent("mpd.log")
            try """
                music_directory "\(files[0].deletingLastPathComponent().path)"
                playlist_directory "\(home.appendingPathComponent("playlists").path)"
                db_file "\(home.appendingPathComponent("database").path)"
                state_file "\(home.appendingPathComponent("state").path)"
                log_file "\(home.appendingPathComponent("mpd.log").path)"
                bind_to_address "127.0.0.1"
                port "\(mpdPort)"
                auto_update "no"
                zeroconf_enabled "no"
                audio_output {
                    type "fifo"
                    name "snapcast"
                    path "\(server.fifo.path)"
                    format "48000:16:2"
                    mixer_type "software"
                }

                """.write(to: configuration, atomically: true, encoding: .utf8)
            mpd = try Subprocess("mpd", ["--no-daemon", configuration.path], environment: ["HOME": home.path])
            let control = try MPDProtocol(port: mpdPort)
            self.control = control
            try control.command("update")
            let deadline = Date(timeIntervalSinceNow: 20)
            while try control.command("status")["updating_db"] != nil {
                guard Date() < deadline else { throw DaemonError("mpd's database update did not finish") }
                Thread.sleep(forTimeInterval: 0.02)
            }
            for file in files { try control.command("add \"\(file.lastPathComponent)\"") }
            try control.command("play")
        }
    }

    /// Its log, for a failure.
    var log: String {
        if let daemon { return daemon.stderrLines.joined(separator: "\n") }
        return mpdLog.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? ""
    }

    /// The process whose CPU and memory are the source's.
    var pid: pid_t { daemon?.pid ?? mpd?.pid ?? 0 }

    /// PlayPause (Aubade: MPRIS, as a media key; mpd: `pause`), stamped just before it is sent.
    func playPause(pausing: Bool) throws -> Date {
        let now = Date()
        switch kind {
        case .aubade:
            try bus?.send(destination: Daemon.busName, interface: "org.mpris.MediaPlayer2.Player", member: "PlayPause")
        case .mpd:
            // A connection of its own: mpd drops one left idle (connection_timeout) meanwhile.
            try MPDProtocol(port: mpdPort).command(pausing ? "pause 1" : "pause 0")
        }
        return now
    }

    /// Waits for the source to say the title changed (Aubade: PropertiesChanged with Metadata
    /// titled `title`; mpd: `idle player` returning with `title` current) and returns when.
    func waitForTitle(_ title: String, timeout: TimeInterval) throws -> Date {
        let deadline = Date(timeIntervalSinceNow: timeout)
        switch kind {
        case .aubade:
            let published = signals?.waitForMessage(timeout: timeout) {
                $0.isPropertiesChanged && $0.changedProperties["Metadata"]?.dictionary?["xesam:title"] == .string(title)
            }
            if let time = published?.time { return Date(timeIntervalSince1970: time) }
        case .mpd:
            let idle = try MPDProtocol(port: mpdPort)
            while Date() < deadline {
                _ = try idle.command("idle player")
                let now = Date()
                if try idle.command("currentsong")["Title"] == title { return now }
            }
        }
        throw DaemonError("\(kind) did not change to \(title) within \(timeout) s")
    }

    func stop() {
        signals?.stop()
        daemon?.stop()
        mpd?.stop(grace: 3)
    }
}
