import Foundation
import XCTest
@testable import TestSupport

extension MPDBenchmarkTests {
    /// Aubade with no music folder — no library, the MPD front-end serving only its player —
    /// this build beside the one before the MPD work (`AUBADE_MPD_BASELINE_BINARY`: `make
    /// bench` builds `MPD_BASELINE` once, as the release was built then): peak RSS idle with an
    /// empty queue, and playing one local MP3; start-up for information. `max(runs, 3)` rounds,
    /// the two builds taking turns, a fresh HOME each time.
    func testMemoryWithoutMusicFolder() throws {
        let started = Date()
        let load = loadAverage()
        let environment = ProcessInfo.processInfo.environment
        let baseline = environment["AUBADE_MPD_BASELINE_BINARY"] ?? ""
        let after = "this commit (\(Self.commit()))"
        let before = "before the MPD work (\(environment["AUBADE_MPD_BASELINE_REVISION"] ?? "baseline"))"
        var table = MPDTable(part: "2 memory", title: "Aubade with no music folder: this commit beside the one before the MPD work",
                             columns: [after, before])
        table.row("idleHWM", "peak RSS, idle, empty queue", unit: "MB", goal: .unchangedFrom(before, slack: 0.5),
                  how: "`aubade serve` (this commit: `--mpd-address 127.0.0.1 --mpd-port P`, its MPD front-end listening on TCP "
                  + "and on its Unix socket, as by default; before: no such flags) with a fresh private HOME, no music folder, "
                  + "nothing to play: VmHWM 3 s after its bus name is owned.")
        table.row("playHWM", "peak RSS playing one local MP3", unit: "MB", goal: .unchangedFrom(before, slack: 0.5),
                  how: "The same with a 60 s MP3 (192 kbit/s) given on the command line: VmHWM after 10 s of playing (to the "
                  + "session's null sink).")
        table.row("startup", "start-up: spawn → bus name owned", unit: "ms",
                  how: "From posix_spawn to `org.mpris.MediaPlayer2.aubade` owned on the session bus, polled every 2 ms; the idle "
                  + "starts above.")
        let mp3 = work.appendingPathComponent("tone.mp3")
        try Fixtures.makeMP3(at: mp3.path, seconds: 60)
        guard !baseline.isEmpty, FileManager.default.isExecutableFile(atPath: baseline) else {
            for key in ["idleHWM", "playHWM", "startup"] {
                table.note(key, before, "not measured (AUBADE_MPD_BASELINE_BINARY unset: `make bench BENCH=mpd` builds it)")
            }
            try measureWithoutFolder(table: &table, column: after, binary: aubadeBinary, mpdFlags: true, mp3: mp3)
            table.context = context(started: started, load: load)
            return try table.write()
        }
        for round in 0..<max(runs, 3) {
            let builds = [(after, aubadeBinary, true), (before, baseline, false)]
            for (column, binary, mpdFlags) in round % 2 == 0 ? builds : builds.reversed() {
                try measureWithoutFolder(table: &table, column: column, binary: binary, mpdFlags: mpdFlags, mp3: mp3)
            }
        }
        table.notes.append("Goal: unchanged, i.e. this commit's median at most 0.5 MB above the one before (a few pages of noise).")
        table.context = context(started: started, load: load)
        try table.write()
    }

    private func measureWithoutFolder(table: inout MPDTable, column: String, binary: String, mpdFlags: Bool, mp3: URL) throws {
        for playing in [false, true] {
            let home = work.appendingPathComponent("home-\(UUID().uuidString)", isDirectory: true)
            defer { try? FileManager.default.removeItem(at: home) }
            let server = try MPDBenchServer(name: column, kind: .aubade(binary: binary), home: home, library: nil, register: register)
            let flags = mpdFlags ? ["--mpd-address", "127.0.0.1", "--mpd-port", "\(server.port)"] : []
            let daemon = try Spawned(binary, ["serve"] + flags + (playing ? [mp3.path] : []), environment: server.environment,
                                     logPath: home.appendingPathComponent("aubade.log").path)
            register(daemon)
            defer { daemon.stop(grace: 10) }
            let deadline = Date(timeIntervalSinceNow: 30)
            while !((try? Bus.nameHasOwner(Daemon.busName)) ?? false) {
                guard Date() < deadline, daemon.isRunning else { throw DaemonError("\(binary) did not own its name: \(daemon.logTail())") }
                Thread.sleep(forTimeInterval: 0.002)
            }
            if !playing { table.add("startup", column, daemon.started.milliseconds(to: Stamp.now())) }
            Thread.sleep(forTimeInterval: playing ? 10 : 3)
            table.add(playing ? "playHWM" : "idleHWM", column, ProcAccounting.statusKilobytes(daemon.pid, "VmHWM").map { Double($0) / 1024 })
            daemon.stop(grace: 10)
            // The next daemon's name must not be taken by this one's leftovers.
            let gone = Date(timeIntervalSinceNow: 10)
            while ((try? Bus.nameHasOwner(Daemon.busName)) ?? false), Date() < gone { Thread.sleep(forTimeInterval: 0.01) }
        }
    }
}
