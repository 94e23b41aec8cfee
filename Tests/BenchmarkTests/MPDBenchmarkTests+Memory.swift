import Foundation
import XCTest
@testable import TestSupport

extension MPDBenchmarkTests {
    /// Aubade before the MPD work (`AUBADE_MPD_BASELINE_BINARY`: `make bench` builds
    /// `MPD_BASELINE` once, as the release was built then) and now:
    /// - with no music folder — no library, the MPD front-end serving only its player: peak RSS
    ///   idle with an empty queue, and playing one local MP3; start-up for information;
    ///   `max(runs, 3)` rounds, the two builds taking turns, a fresh HOME each time;
    /// - its first start as a new user has it with the 100,000-track music folder (nothing
    ///   saved: both builds put the whole folder in their queue, and this one also builds its
    ///   library), once each (`AUBADE_BENCH_MPD_FIRST_START=0` leaves it out).
    func testMemoryBeforeAndAfter() throws {
        let started = Date()
        let load = loadAverage()
        let environment = ProcessInfo.processInfo.environment
        let baseline = environment["AUBADE_MPD_BASELINE_BINARY"] ?? ""
        let after = "this commit (\(Self.commit()))"
        let before = "before the MPD work (\(environment["AUBADE_MPD_BASELINE_REVISION"] ?? "baseline"))"
        var table = MPDTable(part: "2 before and after", title: "Aubade before the MPD work and now", columns: [after, before])
        table.row("idleHWM", "no music folder: peak RSS, idle, empty queue", unit: "MB", goal: .unchangedFrom(before, slack: 0.5),
                  how: "`aubade serve` (this commit: `--mpd-address 127.0.0.1 --mpd-port P`, its MPD front-end listening on TCP "
                  + "and on its Unix socket, as by default; before: no such flags) with a fresh private HOME, no music folder, "
                  + "nothing to play: VmHWM 3 s after its bus name is owned.")
        table.row("playHWM", "no music folder: peak RSS playing one local MP3", unit: "MB", goal: .unchangedFrom(before, slack: 0.5),
                  how: "The same with a 60 s MP3 (192 kbit/s) given on the command line: VmHWM after 10 s of playing (to the "
                  + "session's null sink).")
        table.row("startup", "no music folder: start-up, spawn → bus name owned", unit: "ms",
                  how: "From posix_spawn to `org.mpris.MediaPlayer2.aubade` owned on the session bus, polled every 2 ms; the idle "
                  + "starts above.")
        table.row("firstStartLibrary", "first start, music folder of the MPD library, nothing saved: library complete", unit: "s",
                  how: "A fresh HOME with nothing in it, the page cache dropped, `aubade serve --music-folder LIB` (this commit "
                  + "also `--mpd-address 127.0.0.1 --mpd-port P`): from the spawn to `stats` counting every song. Both builds "
                  + "also put the whole folder in their queue (a first start with nothing saved), next rows.")
        table.row("firstStartQueue", "… its queue complete (CPU quiet)", unit: "s",
                  how: "From the same spawn to the last moment the process used CPU before 5 quiet seconds (sampled every 0.5 s); "
                  + "this commit's `status` `playlistlength` then beside it.")
        table.row("firstStartHWM", "… its peak RSS", unit: "MB",
                  how: "VmHWM then (and VmRSS); the size of the state saved when it is stopped (SIGTERM).")
        table.row("firstStartCPU", "… its CPU time", unit: "s", how: "utime + stime then.")
        let mp3 = work.appendingPathComponent("tone.mp3")
        try Fixtures.makeMP3(at: mp3.path, seconds: 60)
        let builds = [(after, aubadeBinary, true)] + (FileManager.default.isExecutableFile(atPath: baseline) ? [(before, baseline, false)] : [])
        if builds.count == 1 {
            for key in ["idleHWM", "playHWM", "startup", "firstStartQueue", "firstStartHWM", "firstStartCPU"] {
                table.note(key, before, "not measured (AUBADE_MPD_BASELINE_BINARY unset: `make bench BENCH=mpd` builds it)")
            }
        }
        for round in 0..<max(runs, 3) {
            for (column, binary, mpdFlags) in round % 2 == 0 ? builds : builds.reversed() {
                try measureWithoutFolder(table: &table, column: column, binary: binary, mpdFlags: mpdFlags, mp3: mp3)
            }
        }
        table.notes.append("Goal: unchanged, i.e. this commit's median at most 0.5 MB above the one before (a few pages of noise).")
        if environment["AUBADE_BENCH_MPD_FIRST_START"] == "0" {
            table.notes.append("The first start was not measured (AUBADE_BENCH_MPD_FIRST_START=0).")
        } else {
            let (facts, prepared) = try fixture.prepare()
            self.facts = facts
            print("BENCHMARK mpd: \(prepared)")
            table.note("firstStartLibrary", before, "no library")
            for (column, binary, mpdFlags) in builds {
                try measureFirstStart(table: &table, column: column, binary: binary, mpdFlags: mpdFlags)
            }
        }
        table.context = context(started: started, load: load)
        try table.write()
    }

    /// The first start with the music folder and nothing saved, once.
    private func measureFirstStart(table: inout MPDTable, column: String, binary: String, mpdFlags: Bool) throws {
        let home = work.appendingPathComponent("home-first-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let server = try MPDBenchServer(name: column, kind: .aubade(binary: binary), home: home, library: fixture.directory,
                                        register: register)
        let flags = mpdFlags ? ["--mpd-address", "127.0.0.1", "--mpd-port", "\(server.port)"] : []
        try PageCache.drop(files: [])
        let daemon = try Spawned(binary, ["serve", "--music-folder", fixture.directory.path] + flags, environment: server.environment,
                                 logPath: home.appendingPathComponent("aubade.log").path)
        register(daemon)
        defer { daemon.stop(grace: 60) }
        var connection: MPDBenchConnection?
        if mpdFlags {
            connection = try MPDBenchConnection(port: server.port, timeout: 120, alive: { daemon.isRunning })
            var answer = try connection!.ok("stats")
            while (Int(answer.fields["songs"] ?? "") ?? 0) < facts.count {
                let idle = try connection!.command("idle database", timeout: 3600)
                guard idle.end == .ok else { throw DaemonError("\(column): idle database: \(idle.end)") }
                answer = try connection!.ok("stats")
                if (Int(answer.fields["songs"] ?? "") ?? 0) >= facts.count {
                    table.add("firstStartLibrary", column, daemon.started.milliseconds(to: idle.at) / 1000)
                }
            }
        }
        var lastTicks = ProcAccounting.cpuTicks(daemon.pid) ?? 0
        var lastBusy = Stamp.now()
        let deadline = Date(timeIntervalSinceNow: 3600)
        while lastBusy.milliseconds(to: Stamp.now()) < 5000, Date() < deadline, daemon.isRunning {
            Thread.sleep(forTimeInterval: 0.5)
            let ticks = ProcAccounting.cpuTicks(daemon.pid) ?? lastTicks
            if ticks > lastTicks + 1 {
                lastTicks = ticks
                lastBusy = Stamp.now()
            }
        }
        table.add("firstStartQueue", column, daemon.started.milliseconds(to: lastBusy) / 1000)
        if let connection {
            let length = try connection.ok("status", timeout: 120).fields["playlistlength"] ?? "?"
            table.note("firstStartQueue", column, "\(length) songs queued")
        }
        let hwm = ProcAccounting.statusKilobytes(daemon.pid, "VmHWM").map { Double($0) / 1024 }
        let rss = ProcAccounting.statusKilobytes(daemon.pid, "VmRSS").map { Double($0) / 1024 } ?? 0
        table.add("firstStartHWM", column, hwm)
        table.add("firstStartCPU", column, ProcAccounting.cpuTicks(daemon.pid).map { Double($0) / ProcAccounting.ticksPerSecond })
        table.notes.append("\(column), first start: resident by mapping (MB) at the end: " + Self.residentByKind(daemon.pid, binary: binary))
        daemon.stop(grace: 60)
        let state = (try? FileManager.default.attributesOfItem(atPath: server.stateFile.path)[.size] as? Int) ?? 0
        table.note("firstStartHWM", column, String(format: "VmRSS %.0f MB at the end; the state it saved %.1f MB", rss, Double(state) / 1e6))
        let gone = Date(timeIntervalSinceNow: 10)
        while ((try? Bus.nameHasOwner(Daemon.busName)) ?? false), Date() < gone { Thread.sleep(forTimeInterval: 0.01) }
    }

    /// /proc/PID/smaps' Rss summed by kind of mapping: the binary, the heap, other anonymous
    /// memory (thread stacks, Swift's allocations), each shared library; largest first.
    static func residentByKind(_ pid: pid_t, binary: String) -> String {
        var byKind: [String: Int] = [:]
        var kind = ""
        for line in (ProcAccounting.read("/proc/\(pid)/smaps") ?? "").split(separator: "\n") {
            if let first = line.first, first.isHexDigit, line.contains("-") {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                let path = fields.count > 5 ? fields[5...].joined(separator: " ") : ""
                if path == binary || path.hasSuffix("/aubade") { kind = "the binary" }
                else if path == "[heap]" { kind = "heap" }
                else if path.isEmpty || path.hasPrefix("[") { kind = "anonymous and stacks" }
                else { kind = String(path.split(separator: "/").last ?? "") }
            } else if line.hasPrefix("Rss:") {
                byKind[kind, default: 0] += Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
            }
        }
        return byKind.sorted { $0.value > $1.value }.prefix(8)
            .map { String(format: "%@ %.2f", $0.key, Double($0.value) / 1024) }.joined(separator: ", ")
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
            let label = "\(column), \(playing ? "playing" : "idle"): resident by mapping"
            if !table.notes.contains(where: { $0.hasPrefix(label) }) {
                table.notes.append("\(label) (MB): " + Self.residentByKind(daemon.pid, binary: binary))
            }
            daemon.stop(grace: 10)
            // The next daemon's name must not be taken by this one's leftovers.
            let gone = Date(timeIntervalSinceNow: 10)
            while ((try? Bus.nameHasOwner(Daemon.busName)) ?? false), Date() < gone { Thread.sleep(forTimeInterval: 0.01) }
        }
    }
}
