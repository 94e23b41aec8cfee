import Foundation
import XCTest
@testable import TestSupport

/// Issue 21's benchmark, `make bench BENCH=formats` (skipped unless `AUBADE_BENCH=1`), on
/// PulseAudio, Aubade's release binary (`AUBADE_BINARY`, its helper beside it) beside mpv +
/// mpv-mpris, mpd + mpDris2 and mpg123 in the same run:
/// - an AAC station (ADTS, 64 kbit/s, icecast2 fed by ffmpeg in real time) and an HLS station
///   (`ffmpeg -f hls`, 1 s segments, served by hls_server.py): URL → first audio at the sink,
///   CPU per minute and peak RSS of the player's whole process tree (Aubade: daemon + helper;
///   mpd: + mpDris2) over `AUBADE_BENCH_FORMATS_SECONDS` (30) of steady play; for AAC the ICY
///   title's PropertiesChanged against the audible change it names;
/// - 100 full-size M4A files (FormatsLibraryTests);
/// - only MP3s: peak RSS and start-up before and after this change (FormatsMemoryTests);
/// - the helper crashing, stopped and allocating without end mid-track: the bus's worst reply.
/// A player that cannot play something gets a cell saying so. Writes `.build/bench/formats.md`
/// and `formats.json`.
class FormatsBenchmarkCase: XCTestCase {
    var work: URL!
    var aubadeBinary = ""
    var players: [Peer] = []
    var skipped: [String] = []
    var live: [Spawned] = []

    static var steadySeconds: Double {
        Double(ProcessInfo.processInfo.environment["AUBADE_BENCH_FORMATS_SECONDS"] ?? "").flatMap { $0 >= 5 ? $0 : nil } ?? 30
    }
    var runs: Int { Int(ProcessInfo.processInfo.environment["AUBADE_BENCH_RUNS"] ?? "").flatMap { $0 > 0 ? $0 : nil } ?? 1 }

    override func setUpWithError() throws {
        try super.setUpWithError()
        let environment = ProcessInfo.processInfo.environment
        guard environment["AUBADE_BENCH"] == "1" else { throw XCTSkip("a benchmark: run it with `make bench BENCH=formats`") }
        if environment["AUBADE_SOUND_SERVER"] == "pipewire" { throw XCTSkip("the formats benchmark runs on PulseAudio") }
        try AudioSession.require()
        aubadeBinary = try Daemon.binaryPath()
        (players, skipped) = PeerRunFacts.installedPlayers()
        work = TestRunDirectory.url.appendingPathComponent("formats-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    override func tearDown() {
        for process in live.reversed() { process.stop(grace: 3) }
        live.removeAll()
        if let work { try? FileManager.default.removeItem(at: work) }
        super.tearDown()
    }

    var launcher: PeerLauncher { PeerLauncher(aubadeBinary: aubadeBinary, work: work) { [unowned self] in live.append($0) } }

    /// First audio, CPU and peak RSS of `peer` playing `media`; `during` runs once audio is heard
    /// (the title measurement), before the steady part.
    func playSession(_ peer: Peer, _ media: PeerLauncher.Media, into table: inout FormatsTable,
                     during: ((PeerSession, MonitorRecorder, Int, inout FormatsTable) throws -> Void)? = nil) throws {
        let recorder = try MonitorRecorder(logPath: work.appendingPathComponent("parec.log").path)
        live.append(recorder.process)
        defer { recorder.stop() }
        try recorder.waitUntilFlowing()
        var session: PeerSession?
        defer { stop(session) }
        let player = try launcher.launch(peer, media) { session = $0 }
        let started = try player.play()
        guard let loud = recorder.waitForLoud(from: recorder.byte(atTime: started.monotonic &- 20_000_000) ?? 0, timeout: 25),
              let heard = recorder.time(ofByte: loud) else {
            table.cannot("URL → first audio at the sink", "ms", peer.title, "cannot play it: no audio within 25 s")
            table.cannot("CPU per minute (process tree)", "s/min", peer.title, "cannot play it")
            table.cannot("peak RSS (process tree)", "MB", peer.title, "cannot play it")
            print("BENCHMARK formats: \(peer.title): no audio within 25 s; its log: \(player.logTails())")
            return
        }
        let firstAudio = (Double(heard) - Double(started.monotonic)) / 1e6
        try during?(player, recorder, loud, &table)
        let roots = player.processes.map(\.pid)
        let ticks0 = ProcAccounting.treeTicks(roots)
        let start = Stamp.now()
        Thread.sleep(forTimeInterval: Self.steadySeconds)
        let minutes = start.milliseconds(to: Stamp.now()) / 60_000
        guard player.main.isRunning else {
            // Sound from a few false frames, then an exit (mpg123 on an M4A): it cannot play it.
            for (measure, unit) in [("URL → first audio at the sink", "ms"), ("CPU per minute (process tree)", "s/min"),
                                    ("peak RSS (process tree)", "MB")] {
                table.cannot(measure, unit, peer.title, "cannot play it: it exited after a moment of noise")
            }
            return
        }
        table.add("URL → first audio at the sink", "ms", peer.title, firstAudio)
        table.add("CPU per minute (process tree)", "s/min", peer.title,
                  Double(ProcAccounting.treeTicks(roots) - ticks0) / ProcAccounting.ticksPerSecond / minutes)
        table.add("peak RSS (process tree)", "MB", peer.title, Double(ProcAccounting.treePeakKilobytes(roots)) / 1024)
    }

    func stop(_ session: PeerSession?) {
        session?.stop(grace: 3)
        live.removeAll { !$0.isRunning }
        let deadline = Date(timeIntervalSinceNow: 3)
        while Date() < deadline, Peer.allCases.compactMap(\.busName).contains(where: { (try? Bus.nameHasOwner($0)) ?? false }) {
            Thread.sleep(forTimeInterval: 0.05)
        }
        for peer in Peer.allCases { try? FileManager.default.removeItem(at: work.appendingPathComponent("home-\(peer.rawValue)")) }
    }

    func finish(_ table: FormatsTable, part: String) throws {
        var table = table
        table.notes += skipped.map { "skipped \($0)" }
        table.notes.append("Aubade binary: \(aubadeBinary)"
                           + ((ProcessInfo.processInfo.environment["AUBADE_BINARY"] ?? "").isEmpty ? " (not AUBADE_BINARY: a debug build?)" : ""))
        table.notes.append("Load average before/after is in the machine's hands: other work shares the 2 cores; load now \(PeerRunFacts.loadAverage())")
        for line in table.lines(part: part) { print(line) }
        try table.write(part: part)
        print(table.markdown)
    }
}

final class FormatsStationBenchmarkTests: FormatsBenchmarkCase {
    func testAnAACStation() throws {
        let server = try IcecastServer(burstSize: 65535, metadataInterval: 1400)
        defer { server.stop() }
        let mount = "/aac"
        var table = FormatsTable(title: "An AAC station (ADTS 64 kbit/s, icecast2 fed by ffmpeg in real time, ICY titles)",
                                 players: players.map(\.title))
        let boundary = 12.0
        for run in 1...runs {
            for peer in players {
                let feed = try FFmpegFeed.aacToneStation(server: server, mount: mount, first: boundary)
                defer { feed.stop() }
                let deadline = Date(timeIntervalSinceNow: 10)
                while !((try? server.hasSource(mount: mount)) ?? false), Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
                let onAir = Stamp.now()
                try server.setTitle("Bench Artist - Tone A", mount: mount)
                Thread.sleep(forTimeInterval: 3)  // icecast's burst fills: a listener starts behind the live edge
                print("BENCHMARK formats aac: run \(run), \(peer.title)")
                try playSession(peer, .url(server.url(mount: mount), emptyFolder: work), into: &table) { player, recorder, loud, table in
                    try self.measureTitle(peer, player, recorder, loud, server: server, mount: mount, onAir: onAir,
                                          boundary: boundary, into: &table)
                }
            }
        }
        table.notes.append("Title offset: PropertiesChanged(Metadata) naming \"Tone B\" minus the first 660 Hz sample at the sink. "
                           + "The title is set through icecast's admin API at the wall time ffmpeg (-re) sends the change, known "
                           + "to about ±0.2 s (more on a busy machine); a raw ICY listener recorded at the same time gives where "
                           + "icecast really put it against the tone change, and the last row is the player's own part.")
        try finish(table, part: "1 aac station")
    }

    func testAnHLSStation() throws {
        let station = try HLSTestStation(directory: work.appendingPathComponent("hls").path)
        defer { station.stop() }
        try station.startEncoder()
        XCTAssertTrue(station.waitForSegments(4))
        var table = FormatsTable(title: "An HLS station (master playlist, AAC 64 kbit/s in MPEG-TS, 1 s segments, served locally)",
                                 players: players.map(\.title))
        for _ in 1...runs {
            for peer in players {
                print("BENCHMARK formats hls: \(peer.title)")
                try playSession(peer, .url(station.url("master.m3u8"), emptyFolder: work), into: &table)
            }
        }
        table.notes.append("No titles: the station sends none, and Aubade shows none for HLS yet (docs/ffmpeg-helper.md).")
        try finish(table, part: "2 hls station")
    }

    /// Tone B heard at the sink against the player's PropertiesChanged(Metadata) naming it.
    private func measureTitle(_ peer: Peer, _ player: PeerSession, _ recorder: MonitorRecorder, _ loud: Int,
                              server: IcecastServer, mount: String, onAir: Stamp, boundary: Double,
                              into table: inout FormatsTable) throws {
        let measure = "title offset (PropertiesChanged − audio)"
        guard peer.busName != nil else {
            table.cannot(measure, "ms", peer.title, "no MPRIS")
            return
        }
        let watch = try SignalMonitor(rules: [
            "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path='/org/mpris/MediaPlayer2'",
        ])
        defer { watch.stop() }
        let probe = try ICYPlacementProbe(url: server.url(mount: mount), marker: "Tone B", seconds: 20, work: work)
        let clocks = Stamp.now()
        let setAt = Double(onAir.monotonic) + boundary * 1e9
        let wait = (setAt - Double(Stamp.now().monotonic)) / 1e9
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
        try server.setTitle("Bench Artist - Tone B", mount: mount)
        var onset = ToneOnsetSearch(recorder: recorder, tone: 660, other: 440, from: loud)
        let deadline = Date(timeIntervalSinceNow: 20)
        var heard: Double?
        while heard == nil, Date() < deadline {
            heard = onset.poll()
            if heard == nil { Thread.sleep(forTimeInterval: 0.05) }
        }
        guard let heard else { return table.cannot(measure, "ms", peer.title, "tone B not heard") }
        let message = watch.waitForMessage(timeout: 10) { message in
            guard let metadata = message.changedProperties["Metadata"]?.dictionary else { return false }
            return metadata.values.contains { ($0.string.map { [$0] } ?? $0.strings ?? []).contains { $0.contains("Tone B") } }
        }
        guard let wall = message?.time else { return table.cannot(measure, "ms", peer.title, "no PropertiesChanged naming it") }
        let signal = (wall - clocks.wall) * 1e9 + Double(clocks.monotonic)
        let offset = (signal - heard) / 1e6
        table.add(measure, "ms", peer.title, offset)
        // Where icecast put the title against the tone change (the feed's timing, not the player's).
        switch probe.placement(toneFrom: 440, to: 660) {
        case .success(let seconds):
            table.add("  icecast's placement of the title (raw listener)", "ms", peer.title, seconds * 1000)
            table.add("  the player's own part (offset − placement)", "ms", peer.title, offset - seconds * 1000)
        case .failure(let why):
            table.cannot("  icecast's placement of the title (raw listener)", "ms", peer.title, "\(why)")
        }
    }
}
