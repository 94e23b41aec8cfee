import Foundation
import XCTest
@testable import TestSupport

/// Internet radio, Aubade beside its peers on one icecast2 mount, run by `make bench` on
/// PulseAudio (skipped unless `AUBADE_BENCH=1`; needs /usr/bin/icecast2).
///
/// One `IcecastServer` (icecast's own burst, 65535 bytes ≈ 4.1 s at 128 kbit/s: a listener gets
/// that much recent audio at once, as at any real station; metadata every 1400 bytes, see
/// `metadataInterval`) with one mount, fed in real time by `IcecastSource` from `StreamTones`.
/// Players: Aubade (the binary in `AUBADE_BINARY`, `make bench` builds a release one; `aubade
/// serve URL`), `mpg123 -o pulse URL`, mpv + mpv-mpris, mpd + mpDris2 with the URL in its queue
/// (`PeerLauncher`). `AUBADE_BENCH_RUNS` repetitions (default 3), the players' order rotating.
/// Each player, each repetition, one session:
/// 1. a fresh source (tone A, then B at `StreamTones.boundaryFrame` with the title "… Tone B"),
///    left 5 s to fill icecast's burst; parec on `headphones.monitor` and dbus-monitor start;
///    the player starts: process start (mpd: `play`) → first loud window at the sink;
/// 2. the title: when tone B is heard at the sink, against PropertiesChanged(Metadata) naming it
///    (dbus-monitor's stamps; mpd also polled with `currentsong`);
/// 3. 60 s of steady streaming (`AUBADE_BENCH_STREAM_SECONDS`): utime+stime from /proc/PID/stat
///    scaled to a minute, VmHWM at the end;
/// 4. `IcecastServer.restart()` (SIGTERM by PID, started again on the same port) and at once a
///    new source playing tone C: restart → first C at the sink, the longest silence between,
///    and whether the player came back at all within 60 s.
/// Prints `BENCHMARK streams …` lines and the table; writes `streams.md` and `streams.json`.
/// While working on it: `AUBADE_BENCH_STREAM_PLAYERS=aubade,mpv` (Aubade and those only),
/// `AUBADE_BENCH_STREAM_SECONDS` (the steady streaming), `AUBADE_BENCH_STREAM_RECOVERY` (the
/// wait after the restart), `AUBADE_BENCH_STREAM_METAINT`; the table says what was changed.
/// A benchmark, not a test: it fails only when it cannot measure Aubade at all.
final class StreamBenchmarkTests: XCTestCase {
    static let mount = "/radio.mp3"
    static let burstSize = 65535
    /// `<mp3-metadata-interval>` (icy-metaint). Icecast's default, 16000 bytes, is one block a
    /// second at 128 kbit/s, and a title can only come at a block: up to a second after the
    /// music changed, whatever the player does. 1400 (icecast's own chunk size) puts every new
    /// title within about ±90 ms of the frame it was set at (IcecastSource.swift), so the title
    /// figure shows the players rather than the interval. `AUBADE_BENCH_STREAM_METAINT` changes it.
    static let metadataInterval = Int(ProcessInfo.processInfo.environment["AUBADE_BENCH_STREAM_METAINT"] ?? "")
        .flatMap { $0 >= 256 ? $0 : nil } ?? 1400
    /// 60 s; `AUBADE_BENCH_STREAM_SECONDS` shortens it while working on the benchmark (the table says so).
    static let steadySeconds = Double(ProcessInfo.processInfo.environment["AUBADE_BENCH_STREAM_SECONDS"] ?? "")
        .flatMap { $0 >= 10 ? $0 : nil } ?? 60
    /// How long a player is given to come back after the restart.
    static let recoverySeconds = Double(ProcessInfo.processInfo.environment["AUBADE_BENCH_STREAM_RECOVERY"] ?? "")
        .flatMap { $0 >= 10 ? $0 : nil } ?? 60
    /// The source runs this long before a player starts: icecast's burst is full by then.
    static let warmUpSeconds = 5.0

    private var work: URL!
    private var tones: StreamTones!
    private var aubadeBinary = ""
    private var players: [Peer] = []
    private var skipped: [String] = []
    private var notes: [String] = []
    private var icecast: IcecastServer?
    private var source: IcecastSource?
    /// Every player process started and not yet stopped: stopped by PID in tearDown whatever happened.
    private var live: [Spawned] = []
    private var monitor: SignalMonitor?

    override func setUpWithError() throws {
        try super.setUpWithError()
        let environment = ProcessInfo.processInfo.environment
        guard environment["AUBADE_BENCH"] == "1" else {
            throw XCTSkip("a benchmark: run it with `make bench` (AUBADE_BENCH=1)")
        }
        if environment["AUBADE_SOUND_SERVER"] == "pipewire", environment["AUBADE_BENCH_PEERS_PIPEWIRE"] != "1" {
            throw XCTSkip("the stream benchmark runs on PulseAudio (AUBADE_BENCH_PEERS_PIPEWIRE=1 to run it on PipeWire too)")
        }
        guard IcecastServer.isInstalled else {
            throw XCTSkip("\(IcecastServer.executable) not installed (run scripts/install-deps)")
        }
        try AudioSession.require()
        if try Bus.nameHasOwner(Daemon.busName) {
            throw DaemonError("\(Daemon.busName) is already owned: another aubade runs on this bus")
        }
        aubadeBinary = try Daemon.binaryPath()
        work = TestRunDirectory.url.appendingPathComponent("streams", isDirectory: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        // Long enough that no session reaches the loop: start at 5 s, the title, the steady minute.
        tones = try StreamTones(in: work.appendingPathComponent("tones", isDirectory: true),
                                seconds: max(90, Int(Self.warmUpSeconds + StreamTones.boundarySeconds + Self.steadySeconds) + 20))
    }

    override func tearDown() {
        for process in live.reversed() { process.stop(grace: 3) }
        live.removeAll()
        monitor?.stop()
        monitor = nil
        source?.stop()
        source = nil
        icecast?.stop()
        icecast = nil
        if let work { try? FileManager.default.removeItem(at: work) }
        super.tearDown()
    }

    private var runs: Int {
        Int(ProcessInfo.processInfo.environment["AUBADE_BENCH_RUNS"] ?? "").flatMap { $0 > 0 ? $0 : nil } ?? 3
    }

    // MARK: The benchmark

    func testStreams() throws {
        (players, skipped) = PeerRunFacts.installedPlayers()
        // AUBADE_BENCH_STREAM_PLAYERS=aubade,mpv: only those (while working on the benchmark; the table says so).
        if let only = ProcessInfo.processInfo.environment["AUBADE_BENCH_STREAM_PLAYERS"], !only.isEmpty {
            let wanted = only.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            for peer in players where !wanted.contains(peer.rawValue) { skipped.append("\(peer.title): left out by AUBADE_BENCH_STREAM_PLAYERS") }
            players = players.filter { wanted.contains($0.rawValue) }
            if !players.contains(.aubade) { players.insert(.aubade, at: 0) }
        }
        let server = try IcecastServer(burstSize: Self.burstSize, metadataInterval: Self.metadataInterval)
        icecast = server
        let url = server.url(mount: Self.mount)
        let releaseNote = ProcessInfo.processInfo.environment["AUBADE_BINARY"]?.isEmpty ?? true
            ? "Aubade binary: \(aubadeBinary) (AUBADE_BINARY not set: probably a DEBUG build, unfair to Aubade; `make bench` passes a release one)"
            : "Aubade binary: \(aubadeBinary)"
        print("BENCHMARK streams: \(runs) repetitions of \(players.map(\.title).joined(separator: ", ")) on \(url) "
              + "(icecast2, burst \(Self.burstSize) bytes, icy-metaint \(Self.metadataInterval)) on \(PeerRunFacts.soundServer()); \(releaseNote)")
        for line in skipped { print("BENCHMARK streams: skipped \(line)") }
        notes.append(releaseNote)
        let loadBefore = PeerRunFacts.loadAverage()
        var figures = StreamFigures(players: players, steadySeconds: Self.steadySeconds, recoverySeconds: Self.recoverySeconds,
                                    metadataInterval: Self.metadataInterval, runs: runs)

        for run in 1...runs {
            let order = Array(players[((run - 1) % players.count)...] + players[..<((run - 1) % players.count)])
            print("BENCHMARK streams: repetition \(run)/\(runs), order \(order.map(\.rawValue).joined(separator: " → "))")
            for peer in order {
                do {
                    let sample = try session(peer, url: url, server: server)
                    figures.add(peer, sample, run: run)
                    print("  \(peer.title): \(sample.summary)")
                } catch {
                    print("  \(peer.title) session failed: \(error)")
                    figures.fail(peer, "run \(run): \(error)")
                }
                stopPlayers()
            }
        }

        let table = figures.all
        for figure in table { print(figure.line(players: players, benchmark: "streams")) }
        notes.append("The title boundary: MPEG frame \(StreamTones.boundaryFrame) (" + String(format: "%.3f s", StreamTones.boundarySeconds)
                     + " of media time), \(tones.chunkAlignment) bytes before one of icecast's 1400-byte chunks ends, so icecast "
                     + "should put the title " + String(format: "%.1f ms", Double(tones.chunkAlignment) / StreamTones.bytesPerSecond * 1000)
                     + " after the boundary (StreamTones)" + (tones.boundaryFrameBytes == nil ? "; its bytes are not unique in the "
                     + "file, so no raw listener checked where icecast put it" : ""))
        notes += figures.notes(players: players)
        notes.append("Load average (1, 5, 15 min) before the run \(loadBefore), after \(PeerRunFacts.loadAverage()), on "
                     + "\(ProcessInfo.processInfo.activeProcessorCount) CPUs: other work on the machine shares the cores with the players")
        let header: [String: Any] = [
            "date": ISO8601DateFormatter().string(from: Date()),
            "machine": PeerRunFacts.machine(),
            "server": PeerRunFacts.soundServer(),
            "runs": runs,
            "file": "one icecast2 2.4.4 mount on 127.0.0.1 (burst-size \(Self.burstSize) bytes, icy-metaint \(Self.metadataInterval)), "
                + "fed in real time: 128 kbit/s CBR 44.1 kHz stereo MP3s (sox + lame), tone A 440 Hz → tone B 880 Hz "
                + "(title change at the boundary, \(String(format: "%.3f", StreamTones.boundarySeconds)) s), tone C 1320 Hz after the restart",
            "versions": PeerRunFacts.versions(aubadeBinary: aubadeBinary, players: players),
            "icecast": ["burstSize": Self.burstSize, "metadataInterval": Self.metadataInterval, "url": url],
        ]
        let (markdown, directory) = try PeerReportFiles.write(
            figures: table, players: players, header: header, notes: notes, skipped: skipped, basename: "streams",
            title: "Internet radio: Aubade beside its peers on one icecast2 mount",
            benchmark: "internet radio beside the peers (stream benchmark)")
        print(markdown)
        for figure in table where figure.met != nil {
            print("BENCHMARK streams: target \(figure.met == true ? "met" : "NOT met"): \(figure.name): \(figure.verdict)")
        }
        print("BENCHMARK streams: written to \(directory.path)/streams.md and streams.json")
        XCTAssertNotNil(table[0].median(.aubade), "Aubade was never measured: \(table[0].failures[.aubade] ?? [])")
    }

    // MARK: One session

    private func session(_ peer: Peer, url: String, server: IcecastServer) throws -> StreamSample {
        var sample = StreamSample()
        // 1. A fresh source, its burst filled; the recorders; the player.
        source?.stop()
        source = nil
        if !server.isRunning { try server.restart() }  // a restart that failed last time
        let fed = try server.startSource(mount: Self.mount, file: tones.ab, loop: true,
                                         titles: [(atSeconds: 0, title: StreamTones.titleA),
                                                  (atSeconds: StreamTones.boundarySeconds - 0.001, title: StreamTones.titleB)],
                                         name: "Aubade Bench FM")
        source = fed
        let probe = tones.boundaryFrameBytes.map {
            TitlePlacementProbe(port: server.port, mount: Self.mount, metaint: Self.metadataInterval, frame: $0,
                                title: Data(StreamTones.titleB.utf8), timeout: StreamTones.boundarySeconds + 15)
        }
        Thread.sleep(forTimeInterval: Self.warmUpSeconds)
        let recorder = try MonitorRecorder(logPath: work.appendingPathComponent("parec.log").path)
        live.append(recorder.process)
        defer { recorder.stop() }
        try recorder.waitUntilFlowing()
        let clocks = Stamp.now()
        let watch = peer.busName == nil ? nil : try SignalMonitor(rules: [
            "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path='/org/mpris/MediaPlayer2'",
        ])
        monitor = watch
        defer {
            watch?.stop()
            monitor = nil
        }
        let launcher = PeerLauncher(aubadeBinary: aubadeBinary, work: work) { [unowned self] in live.append($0) }
        let empty = work.appendingPathComponent("no-music", isDirectory: true)
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let player = try launcher.launch(peer, .url(url, emptyFolder: empty)) { current = $0 }
        if peer == .mpd, let name = peer.busName {
            // mpDris2 first, or it could miss the title.
            let deadline = Date(timeIntervalSinceNow: 10)
            while Date() < deadline, !((try? Bus.nameHasOwner(name)) ?? false) { Thread.sleep(forTimeInterval: 0.05) }
        }
        let started = try player.play()
        guard let loud = recorder.waitForLoud(from: recorder.byte(atTime: started.monotonic &- 20_000_000) ?? 0, timeout: 15),
              let heard = recorder.time(ofByte: loud) else {
            throw DaemonError("no audio at the sink within 15 s" + (player.mpdStatus().map { " (mpd: \($0))" } ?? "")
                              + "; its last words: " + lastWords(of: player, launcher: launcher))
        }
        sample.firstAudio = (Double(heard) - Double(started.monotonic)) / 1e6

        // 2. The title: tone B at the sink, and the players' word of it.
        var onsetB = ToneOnsetSearch(recorder: recorder, tone: StreamTones.frequencyB, other: StreamTones.frequencyA, from: loud)
        let titleDeadline = Date(timeIntervalSinceNow: StreamTones.boundarySeconds + 30)
        var heardB: Double?
        var mpdOwnTitle: Double?
        while heardB == nil, Date() < titleDeadline, player.main.isRunning {
            if let mpd = player.mpd, mpdOwnTitle == nil, (try? mpd.command("currentsong"))?["Title"]?.contains(StreamTones.markerB) == true {
                mpdOwnTitle = Double(Stamp.now().monotonic)
            }
            heardB = onsetB.poll()
            if heardB == nil { Thread.sleep(forTimeInterval: 0.05) }
        }
        if let heardB {
            if let watch {
                let message = watch.waitForMessage(timeout: 10) { message in
                    guard let metadata = message.changedProperties["Metadata"]?.dictionary else { return false }
                    return metadata.values.contains { value in
                        (value.string.map { [$0] } ?? value.strings ?? []).contains { $0.contains(StreamTones.markerB) }
                    }
                }
                if let wall = message?.time {
                    let signal = (wall - clocks.wall) * 1e9 + Double(clocks.monotonic)
                    sample.titleOffset = (signal - heardB) / 1e9
                    sample.titleSource = peer == .mpd ? "mpDris2" : "MPRIS"
                }
            }
            if let mpdOwnTitle {
                sample.mpdOwnTitleOffset = (mpdOwnTitle - heardB) / 1e9
                if sample.titleOffset == nil {
                    sample.titleOffset = sample.mpdOwnTitleOffset
                    sample.titleSource = "mpd's currentsong (no PropertiesChanged from mpDris2)"
                }
            }
        } else {
            sample.problems.append("tone B not heard within \(Int(StreamTones.boundarySeconds + 30)) s")
        }
        probe?.wait(timeout: 5)
        sample.icecastPlacement = probe?.placementMilliseconds
        if let problem = probe?.problem { sample.problems.append("raw listener: \(problem)") }
        watch?.stop()

        // 3. Steady streaming.
        Thread.sleep(forTimeInterval: 1)
        let roots = player.processes.map(\.pid)
        guard let ticks0 = ProcAccounting.cpuTicks(roots[0]) else {
            throw DaemonError("\(peer.title) is gone before the steady minute: \(player.logTails())")
        }
        let bridge0 = roots.count > 1 ? ProcAccounting.cpuTicks(roots[1]) : nil
        let steadyStart = Stamp.now()
        let steadyEnd = Date(timeIntervalSinceNow: Self.steadySeconds)
        while Date() < steadyEnd {
            guard player.main.isRunning else {
                throw DaemonError("\(peer.title) exited during the steady minute: \(player.logTails())")
            }
            Thread.sleep(forTimeInterval: min(1, max(0.01, steadyEnd.timeIntervalSinceNow)))
        }
        guard let ticks1 = ProcAccounting.cpuTicks(roots[0]) else { throw DaemonError("\(peer.title) is gone: \(player.logTails())") }
        let steadyStop = Stamp.now()
        let minutes = steadyStart.milliseconds(to: steadyStop) / 60_000
        sample.cpuPerMinute = Double(ticks1 - ticks0) / ProcAccounting.ticksPerSecond / minutes
        sample.peakMB = ProcAccounting.statusKilobytes(roots[0], "VmHWM").map { Double($0) * 1024 / 1e6 }
        if let bridge0, let bridge1 = ProcAccounting.cpuTicks(roots[1]) {
            sample.bridgeCPUPerMinute = Double(bridge1 - bridge0) / ProcAccounting.ticksPerSecond / minutes
            sample.bridgePeakMB = ProcAccounting.statusKilobytes(roots[1], "VmHWM").map { Double($0) * 1024 / 1e6 }
        }
        if let first = recorder.byte(atTime: steadyStart.monotonic), let last = recorder.byte(atTime: steadyStop.monotonic),
           recorder.waitForCapture(through: steadyStop.monotonic + 100_000_000, timeout: 5) {
            let recorded = recorder.data
            let quiet = Loudness.longestQuiet(recorded.subdata(in: min(first, recorded.count)..<min(last, recorded.count)))
            if quiet.seconds > 0.02 {
                sample.problems.append(String(format: "%.0f ms of silence during the steady minute", quiet.seconds * 1000))
            }
        }

        // 4. icecast2 restarted; the source back at once, playing tone C.
        let restart = Stamp.now()
        try server.restart()
        fed.stop()
        source = try server.startSource(mount: Self.mount, file: tones.c, loop: true, name: "Aubade Bench FM")
        let back = Stamp.now()
        sample.outage = restart.milliseconds(to: back) / 1000
        let restartByte = recorder.byte(atTime: restart.monotonic) ?? 0
        var onsetC = ToneOnsetSearch(recorder: recorder, tone: StreamTones.frequencyC, other: StreamTones.frequencyB, from: restartByte)
        let recoveryEnd = restart.monotonic + UInt64(Self.recoverySeconds * 1e9)
        var heardC: Double?
        while heardC == nil, Stamp.now().monotonic < recoveryEnd {
            heardC = onsetC.poll()
            if heardC == nil, let exit = player.main.exit, Stamp.now().monotonic > exit.at.monotonic + 1_500_000_000 {
                let how = exit.status & 0x7F == 0 ? "exited (status \((exit.status >> 8) & 0xFF))" : "killed by signal \(exit.status & 0x7F)"
                sample.shortFate = how + String(format: " %.1f s after the restart", restart.milliseconds(to: exit.at) / 1000)
                break
            }
            if heardC == nil { Thread.sleep(forTimeInterval: 0.2) }
        }
        let recorded = recorder.data
        if let heardC {
            sample.recovered = true
            sample.restartToAudio = (heardC - Double(restart.monotonic)) / 1e9
            let end = min(recorded.count, onsetC.byte(at: heardC))
            sample.silence = Loudness.longestQuiet(recorded.subdata(in: min(restartByte, end)..<end)).seconds
            sample.fate = String(format: "back after %.2f s", sample.restartToAudio!)
        } else {
            sample.recovered = false
            let quiet = Loudness.longestQuiet(recorded.subdata(in: min(restartByte, recorded.count)..<recorded.count))
            sample.wentQuietAfter = quiet.seconds > 0 ? quiet.startsAt : nil
            if sample.shortFate == nil {
                sample.shortFate = "still running, silent" + (player.mpdStatus().map { " (mpd: \($0))" } ?? "")
            }
            let silentFrom = sample.wentQuietAfter.map { String(format: ", silent from %.1f s after the restart (%.1f s of silence to the end)", $0, quiet.seconds) } ?? ""
            var status = ""
            if peer == .aubade, let answer = try? Shell.run(aubadeBinary, ["status"], timeout: 5) {
                status = "; `aubade status`: “" + answer.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                    .joined(separator: " / ") + "”"
            }
            sample.fate = "not back within \(Int(Self.recoverySeconds)) s: \(sample.shortFate!)\(silentFrom); its last words: "
                + lastWords(of: player, launcher: launcher) + status
        }
        return sample
    }

    private var current: PeerSession?

    /// The last lines a player logged about the stream (mpd: its own log file), for the notes.
    private func lastWords(of player: PeerSession, launcher: PeerLauncher) -> String {
        var lines: [String]
        if player.peer == .mpd {
            let log = launcher.home(of: .mpd).appendingPathComponent("mpd-own.log")
            lines = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
                .filter { !$0.contains("wildmidi") && !$0.contains("database") && !$0.contains("/state'") }  // start-up noise
        } else {
            lines = player.main.logTail(6).split(separator: "\n").map(String.init)
        }
        let words = lines.suffix(player.peer == .aubade ? 4 : 2).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return words.isEmpty ? "(nothing)" : words.map { "“\($0)”" }.joined(separator: " ")
    }

    /// Stops the session's processes by PID and waits for its bus name to be free.
    private func stopPlayers() {
        current?.stop(grace: 3)
        current = nil
        live.removeAll { !$0.isRunning }
        let deadline = Date(timeIntervalSinceNow: 3)
        while Date() < deadline, Peer.allCases.compactMap(\.busName).contains(where: { (try? Bus.nameHasOwner($0)) ?? false }) {
            Thread.sleep(forTimeInterval: 0.05)
        }
        for peer in Peer.allCases { try? FileManager.default.removeItem(at: work.appendingPathComponent("home-\(peer.rawValue)")) }
        Thread.sleep(forTimeInterval: 0.3)
    }
}
