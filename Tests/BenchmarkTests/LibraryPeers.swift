import Decoding
import Foundation
import PlayerCore
@testable import TestSupport

/// mpd's two scans of the library: an empty database, then the unchanged folder again.
struct MPDScan {
    struct Run {
        var ms: Double
        var io: ProcIO
    }
    var update: Run
    var rescan: Run
    var songs: Int
    var version: String
}

/// mpd (`mpd --no-daemon`) with a private configuration under `work/mpd`: the library as its
/// music_directory, its own db_file, 127.0.0.1 on a free port, no auto update, a null output.
/// Each scan is `mpc --host 127.0.0.1 --port P update --wait` after a cache drop, timed from
/// mpc's spawn to its exit; bytes from mpd's /proc/PID/io around it.
struct LibraryMPD {
    var work: URL
    var register: (Spawned) -> Void

    /// `evictOnly`: only the files' pages are dropped before each scan (`PageCache.evict`), not
    /// the whole page cache, so mpd's own libraries are not read again.
    func scan(_ library: URL, files: [URL], evictOnly: Bool = false) throws -> MPDScan {
        let home = work.appendingPathComponent("mpd", isDirectory: true)
        let playlists = home.appendingPathComponent("playlists", isDirectory: true)
        try FileManager.default.createDirectory(at: playlists, withIntermediateDirectories: true)
        let port = try MPDProtocol.freePort()
        let configuration = home.appendingPathComponent("mpd.conf")
        try """
            music_directory "\(library.path)"
            playlist_directory "\(playlists.path)"
            db_file "\(home.appendingPathComponent("database").path)"
            log_file "\(home.appendingPathComponent("mpd-own.log").path)"
            bind_to_address "127.0.0.1"
            port "\(port)"
            auto_update "no"
            zeroconf_enabled "no"
            audio_output {
                type "null"
                name "null"
            }

            """.write(to: configuration, atomically: true, encoding: .utf8)
        let mpd = try Spawned("mpd", ["--no-daemon", configuration.path], environment: ["HOME": home.path],
                              logPath: home.appendingPathComponent("mpd.log").path)
        register(mpd)
        defer { mpd.stop(grace: 5) }
        let control = try MPDProtocol(port: port, timeout: 30)
        Thread.sleep(forTimeInterval: 0.5)
        func timedUpdate() throws -> MPDScan.Run {
            if evictOnly { PageCache.evict(files) } else { try PageCache.drop(files: files) }
            let before = try ProcIO.read(mpd.pid)
            let mpc = try Spawned("mpc", ["--host", "127.0.0.1", "--port", "\(port)", "update", "--wait"],
                                  logPath: home.appendingPathComponent("mpc.log").path)
            register(mpc)
            guard let exit = mpc.waitForExit(timeout: 1800), exit.status == 0 else {
                mpc.stop()
                throw DaemonError("mpc update --wait failed: \(mpc.logTail()) / \(mpd.logTail())")
            }
            let after = try ProcIO.read(mpd.pid)
            return MPDScan.Run(ms: mpc.started.milliseconds(to: exit.at), io: after - before)
        }
        let update = try timedUpdate()
        let songs = Int(try control.command("stats")["songs"] ?? "") ?? 0
        let rescan = try timedUpdate()
        let version = ((try? Shell.run("mpd", ["--version"]))?.stdout.split(separator: "\n").first).map(String.init) ?? "?"
        return MPDScan(update: update, rescan: rescan, songs: songs, version: version)
    }
}

/// CPU time per minute of audio of Aubade's decoders — `aubade decode FILE > /dev/null`, the
/// binary under test (the release build in `make bench`), which decodes with the daemon's own
/// decoders — beside the reference tools (`flac -d -c -s FILE`, `opusdec --quiet FILE
/// /dev/null`, `mpg123 -q -t FILE`), all measured the same way: user+sys from wait4, start-up
/// included, on the base files with a warm page cache. Best of 3 each.
struct LibraryDecodeCPU {
    var work: URL
    /// The aubade whose `decode` verb is measured.
    var aubade: String

    func measure(fixture: LibraryFixture) -> [LibraryFigure] {
        let cases: [(format: String, base: Int, tool: String, arguments: (String) -> [String])] = [
            ("FLAC", 5, "flac", { ["-d", "-c", "-s", $0] }),
            ("Opus", 6, "opusdec", { ["--quiet", $0, "/dev/null"] }),
            ("MP3 (CBR 192, for scale)", 0, "mpg123", { ["-q", "-t", $0] }),
        ]
        var figures: [LibraryFigure] = []
        for item in cases {
            let file = fixture.base(item.base)
            PageCache.warm([file])
            let ours: String
            var values: [String: Any] = ["format": item.format]
            do {
                let cpu = try (0..<3).map { _ in try runTool(aubade, ["decode", file.path]) }.min()!
                let perMinute = cpu / (Double(fixture.seconds) / 60) * 1000
                values["aubadeMsPerMinute"] = round3(perMinute)
                ours = String(format: "Aubade %.0f ms", perMinute)
            } catch {
                values["aubade"] = "\(error)"
                ours = "Aubade: not supported in this build (\(error))"
            }
            let theirs: String
            if let cpu = try? (0..<3).map({ _ in try runTool(item.tool, item.arguments(file.path)) }).min() {
                let perMinute = cpu / (Double(fixture.seconds) / 60) * 1000
                values["toolMsPerMinute"] = round3(perMinute)
                theirs = String(format: "%@ %.0f ms", item.tool, perMinute)
            } else {
                theirs = "\(item.tool): failed or not installed"
            }
            values["tool"] = item.tool
            figures.append(LibraryFigure(key: "decode" + (item.format.split(separator: " ").first.map(String.init) ?? item.format),
                                         text: "decode CPU per minute of \(item.format) audio: \(ours), \(theirs)",
                                         values: values, target: nil))
        }
        return figures
    }

    private func runTool(_ tool: String, _ arguments: [String]) throws -> Double {
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard null >= 0 else { throw DaemonError("cannot open /dev/null") }
        defer { close(null) }
        let log = work.appendingPathComponent(URL(fileURLWithPath: tool).lastPathComponent + ".log").path
        let process = try Spawned(tool, arguments, logPath: log, stdoutDescriptor: null)
        guard let exit = process.waitForExit(timeout: 300), exit.status == 0 else {
            process.stop()
            throw DaemonError("\(tool) failed: \(process.logTail())")
        }
        return exit.cpuSeconds
    }
}
