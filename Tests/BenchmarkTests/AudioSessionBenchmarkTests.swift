import Foundation
import XCTest
@testable import TestSupport

/// The audio-session benchmark of issue 3, run by `make bench` (skipped unless `AUBADE_BENCH=1`).
///
/// Over `AUBADE_BENCH_RUNS` runs (default 10), each with a fresh daemon playing a 60 s MP3 on the
/// `headphones` sink, it measures on the sound server's own timeline (a PulseKit context in this
/// process, subscribed to sink and sink-input events):
/// 1. unplug → Paused: the headphones sink's `remove` event → our stream reported corked, and
///    → PropertiesChanged(PlaybackStatus "Paused") as dbus-monitor saw it;
/// 2. our audio reaching the speakers after the unplug (non-silent 5 ms windows of `speakers.monitor`);
/// 3. cork request → Paused: a `media.role=phone` stream's `new` event → our stream corked;
/// 4. position lost across the interruption: what played under the call before we paused, and
///    the jump between the paused position and the position we resumed at.
/// When mpv is installed it goes through the same unplug and phone call, for comparison.
/// A benchmark, not a test: it fails only when it cannot measure at all.
final class AudioSessionBenchmarkTests: XCTestCase {
    private static let bytesPerSecond = 44_100 * 2 * 2
    private var timeline: PulseTimeline!
    private var music: URL!
    private var phoneCall: URL!
    private var server = SoundServerKind.current

    enum SoundServerKind: String {
        case pulseaudio, pipewire
        static var current: SoundServerKind {
            SoundServerKind(rawValue: ProcessInfo.processInfo.environment["AUBADE_SOUND_SERVER"] ?? "") ?? .pulseaudio
        }
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard ProcessInfo.processInfo.environment["AUBADE_BENCH"] == "1" else {
            throw XCTSkip("a benchmark: run it with `make bench` (AUBADE_BENCH=1)")
        }
        try AudioSession.require()
        if try Bus.nameHasOwner(Daemon.busName) {
            throw DaemonError("\(Daemon.busName) is already owned: another aubade runs on this bus")
        }
        try makeMusic()
        timeline = try PulseTimeline()
    }

    override func tearDown() {
        timeline?.close()
        timeline = nil
        super.tearDown()
    }

    private var runs: Int {
        Int(ProcessInfo.processInfo.environment["AUBADE_BENCH_RUNS"] ?? "").flatMap { $0 > 0 ? $0 : nil } ?? 10
    }

    // MARK: The benchmark

    func testAudioSession() throws {
        let serverName = serverDescription()
        print("BENCHMARK audio session on \(serverName), \(runs) runs per figure")
        var unplugCorked = Figure(key: "unplugToCorked", name: "unplug → our stream corked", samples: [],
                                  targetMedianAtMost: 20,
                                  how: "headphones sink `remove` event → sink-input change event after which our stream reads corked (PulseKit subscription in the benchmark)"
                                    + (server == .pipewire ? "; on PipeWire the server itself reports a stream corked, on no sink, as its sink goes away (mpv's too, until it is moved ~15 ms later), so when Aubade corks before the move this reads ≈ 0: the Paused signal and the audio on the speakers are the telling figures there" : ""))
        var unplugPaused = Figure(key: "unplugToPausedSignal", name: "unplug → PropertiesChanged(Paused)", samples: [],
                                  targetMedianAtMost: 20,
                                  how: "headphones sink `remove` event → PropertiesChanged(PlaybackStatus \"Paused\") as stamped by dbus-monitor (wall clock)")
        var leaked = Figure(key: "audioOnSpeakersAfterUnplug", name: "our audio reaching the speakers after unplug", samples: [],
                            targetMedianAtMost: 50,
                            how: "parec of speakers.monitor from before the unload: span from the first to the last 5 ms window with RMS > 500")
        var corkLatency = Figure(key: server == .pulseaudio ? "corkRequestToCorked" : "phoneStreamToCorked",
                                 name: server == .pulseaudio ? "cork request → our stream corked" : "phone stream appears → our stream corked",
                                 samples: [], targetMedianAtMost: nil,
                                 how: "`new` event of the paplay --property=media.role=phone stream → our stream reported corked"
                                    + (server == .pulseaudio ? " (module-role-cork sends request-cork as the phone stream starts)" : " (PipeWire has no role-cork: Aubade watches the streams)"))
        var corkPaused = Figure(key: "phoneStreamToPausedSignal", name: "phone stream → PropertiesChanged(Paused)", samples: [],
                                targetMedianAtMost: nil,
                                how: "`new` event of the phone stream → PropertiesChanged(PlaybackStatus \"Paused\") as stamped by dbus-monitor")
        var playedUnderCall = Figure(key: "positionPlayedUnderCall", name: "position advanced under the call before the pause", samples: [],
                                     targetMedianAtMost: nil,
                                     how: "Position read while Paused (frozen) − (Position read just before paplay + time from that read to the phone stream's `new` event); the dbus-send reads are bracketed, midpoint used")
        var resumeJump = Figure(key: "positionJumpAtResume", name: "position jump at resume (resumed − paused)", samples: [],
                                targetMedianAtMost: nil,
                                how: "Position read just after PropertiesChanged(Playing), taken back to the signal's time, − the paused Position; 0 = nothing lost or skipped")
        var resumeLatency = Figure(key: "callEndToUncorked", name: "phone stream ends → our stream uncorked", samples: [],
                                   targetMedianAtMost: nil,
                                   how: "`remove` event of the phone stream → our stream reported uncorked")

        for run in 1...runs {
            do {
                let sample = try unplugRun()
                unplugCorked.samples.append(sample.corked)
                if let paused = sample.pausedSignal { unplugPaused.samples.append(paused) } else { unplugPaused.failures.append("run \(run): no PropertiesChanged(Paused)") }
                leaked.samples.append(sample.leakedSpan)
                print(String(format: "  unplug run %d: corked %+.1f ms, Paused signal %@, speakers got %.0f ms (span; %.0f ms loud), unload command → remove event %.1f ms",
                             run, sample.corked, sample.pausedSignal.map { String(format: "%+.1f ms", $0) } ?? "none",
                             sample.leakedSpan, sample.leakedLoud, sample.commandToRemove))
            } catch {
                let message = "run \(run): \(error)"
                print("  unplug \(message)")
                unplugCorked.failures.append(message)
                leaked.failures.append(message)
            }
            restoreHeadphones()
        }

        for run in 1...runs {
            do {
                let sample = try interruptionRun()
                corkLatency.samples.append(sample.corked)
                if let paused = sample.pausedSignal { corkPaused.samples.append(paused) }
                playedUnderCall.samples.append(sample.playedUnderCall)
                if let jump = sample.resumeJump { resumeJump.samples.append(jump) } else { resumeJump.failures.append("run \(run): not resumed") }
                if let uncorked = sample.uncorked { resumeLatency.samples.append(uncorked) }
                print(String(format: "  interruption run %d: corked %+.1f ms, Paused signal %@, played under the call %.1f ms (read window %.1f ms), resume jump %@, uncorked %@ after the call",
                             run, sample.corked, sample.pausedSignal.map { String(format: "%+.1f ms", $0) } ?? "none",
                             sample.playedUnderCall, sample.readWindow,
                             sample.resumeJump.map { String(format: "%+.1f ms", $0) } ?? "none",
                             sample.uncorked.map { String(format: "%.1f ms", $0) } ?? "never"))
            } catch {
                let message = "run \(run): \(error)"
                print("  interruption \(message)")
                corkLatency.failures.append(message)
                playedUnderCall.failures.append(message)
            }
            restoreHeadphones()
        }

        var peers: [[String: Any]] = []
        if (try? Shell.which("mpv")) != nil {
            peers += mpvRuns(count: min(runs, 3))
        } else {
            print("  mpv not installed: no peer run (apt-get install --no-install-recommends mpv)")
        }

        let figures = [unplugCorked, unplugPaused, leaked, corkLatency, corkPaused, playedUnderCall, resumeJump, resumeLatency]
        for figure in figures { print(figure.line(server: server.rawValue)) }
        for peer in peers {
            print("BENCHMARK [\(server.rawValue)] peer \(peer["player"] ?? "?"), \(peer["situation"] ?? "?"): \(peer["result"] ?? "?")")
        }
        let formatter = ISO8601DateFormatter()
        try BenchmarkFiles.write(server: server.rawValue, section: [
            "serverName": serverName,
            "date": formatter.string(from: Date()),
            "runs": runs,
            "figures": figures.map(\.json),
            "peers": peers,
        ])
        print("BENCHMARK written to \(BenchmarkFiles.directory.path)/audio-session.json and .md")
        XCTAssertFalse(unplugCorked.samples.isEmpty, "no unplug run measured: \(unplugCorked.failures)")
        XCTAssertFalse(corkLatency.samples.isEmpty, "no interruption run measured: \(corkLatency.failures)")
    }

    // MARK: Unplug

    struct UnplugSample {
        var corked: Double
        var pausedSignal: Double?
        var leakedSpan: Double
        var leakedLoud: Double
        var commandToRemove: Double
    }

    private func unplugRun() throws -> UnplugSample {
        try ensureHeadphones()
        timeline.clear()
        let recorder = try startRecorder()
        defer { recorder.stop(signal: SIGINT, grace: 2) }
        let started = Stamp.now()
        let daemon = try Daemon(serve: [music.path])
        defer { daemon.stop() }
        try daemon.waitForBusName()
        let monitor = try SignalMonitor(sender: daemon.uniqueName ?? Daemon.busName)
        defer { monitor.stop() }
        try waitForPlaying(daemon, since: started)
        guard recorder.stdout.waitForByteCount(1, timeout: 6) else {
            throw DaemonError("parec recorded nothing from speakers.monitor: \(recorder.stderr.text)")
        }
        Thread.sleep(forTimeInterval: 0.5)
        let mark = monitor.mark
        let bytesAtUnload = recorder.stdout.data.count
        let module = try HeadphonesSink.module()
        let command = Stamp.now()
        try pactl(["unload-module", String(module)])
        guard let removed = timeline.sinkRemoved("headphones", after: command, timeout: 5) else {
            throw DaemonError("no remove event for the headphones sink")
        }
        let paused = monitor.waitForMessage(after: mark, timeout: 5) {
            $0.changedInterface == Bus.playerInterface && $0.changedProperties["PlaybackStatus"]?.string == "Paused"
        }
        // Corked, and staying so: wait a little for any later report of our stream.
        _ = timeline.streamReport(ofProcess: daemon.pid, after: command, timeout: 5, where: { $0.info.isCorked })
        Thread.sleep(forTimeInterval: 0.3)
        if debugTimeline { printReports(daemon.pid, after: command, origin: removed) }
        guard let corked = timeline.corkedForGood(ofProcess: daemon.pid, after: command) else {
            throw DaemonError("our stream was not corked within 5 s of the unplug; status \((try? status()) ?? "?")")
        }
        // parec delivers late: wait for 4 s more audio than it had at the unload.
        _ = recorder.stdout.waitForByteCount(bytesAtUnload + 4 * Self.bytesPerSecond, timeout: 12)
        let loud = Loudness.span(Loudness.windows(recorder.stdout.data))
        return UnplugSample(corked: removed.milliseconds(to: corked.at),
                            pausedSignal: paused?.time.map { ($0 - removed.wall) * 1000 },
                            leakedSpan: loud.span, leakedLoud: loud.loud,
                            commandToRemove: command.milliseconds(to: removed))
    }

    // MARK: Interruption

    struct InterruptionSample {
        var corked: Double
        var pausedSignal: Double?
        var playedUnderCall: Double
        var readWindow: Double
        var resumeJump: Double?
        var uncorked: Double?
    }

    private func interruptionRun() throws -> InterruptionSample {
        try ensureHeadphones()
        timeline.clear()
        let started = Stamp.now()
        let daemon = try Daemon(serve: [music.path])
        defer { daemon.stop() }
        try daemon.waitForBusName()
        let monitor = try SignalMonitor(sender: daemon.uniqueName ?? Daemon.busName)
        defer { monitor.stop() }
        try waitForPlaying(daemon, since: started)
        Thread.sleep(forTimeInterval: 1)

        let (before, readBefore) = try timedPosition()
        let windowBefore = readBeforeWindow
        let mark = monitor.mark
        let callStart = Stamp.now()
        let call = try Subprocess("paplay", ["--property=media.role=phone", phoneCall.path])
        defer { call.stop(grace: 1) }
        guard let phone = timeline.newStream(role: "phone", after: callStart, timeout: 5) else {
            throw DaemonError("no phone stream appeared: \(call.stderr.text)")
        }
        _ = timeline.streamReport(ofProcess: daemon.pid, after: callStart, timeout: 5, where: { $0.info.isCorked })
        Thread.sleep(forTimeInterval: 0.3)
        if debugTimeline { printReports(daemon.pid, after: callStart, origin: phone.at) }
        guard let corked = timeline.corkedForGood(ofProcess: daemon.pid, after: callStart) else {
            throw DaemonError("our stream was not corked during the call; status \((try? status()) ?? "?")")
        }
        let pausedMessage = monitor.waitForMessage(after: mark, timeout: 5) {
            $0.changedInterface == Bus.playerInterface && $0.changedProperties["PlaybackStatus"]?.string == "Paused"
        }
        _ = monitor.waitForMessage(after: mark, timeout: 5) { $0.member == "InterruptionBegan" }
        let (pausedPosition, _) = try timedPosition()
        let atCall = Double(before) / 1000 + readBefore.milliseconds(to: phone.at)
        let playedUnderCall = Double(pausedPosition) / 1000 - atCall

        // The call ends (paplay plays 3 s) → InterruptionEnded(true) and Playing again.
        guard call.waitForExit(timeout: 10) != nil else { throw DaemonError("paplay did not finish") }
        let callEnded = timeline.streamRemoved(phone.info.index, after: phone.at, timeout: 5)
        let uncorked = callEnded.flatMap { end in
            timeline.streamReport(ofProcess: daemon.pid, after: end, timeout: 5, where: { !$0.info.isCorked })
                .map { end.milliseconds(to: $0.at) }
        }
        let resumed = monitor.waitForMessage(after: mark, timeout: 5) {
            $0.changedInterface == Bus.playerInterface && $0.changedProperties["PlaybackStatus"]?.string == "Playing"
        }
        var jump: Double?
        if let resumedAt = resumed?.time {
            let (after, readAfter) = try timedPosition()
            let positionAtResume = Double(after) / 1000 - (readAfter.wall - resumedAt) * 1000
            jump = positionAtResume - Double(pausedPosition) / 1000
        }
        return InterruptionSample(corked: phone.at.milliseconds(to: corked.at),
                                  pausedSignal: pausedMessage?.time.map { ($0 - phone.at.wall) * 1000 },
                                  playedUnderCall: playedUnderCall,
                                  readWindow: windowBefore,
                                  resumeJump: jump, uncorked: uncorked)
    }

    /// `AUBADE_BENCH_DEBUG=1`: print every report about our stream around each measurement.
    private var debugTimeline: Bool { ProcessInfo.processInfo.environment["AUBADE_BENCH_DEBUG"] == "1" }

    private func printReports(_ pid: Int32, after: Stamp, origin: Stamp) {
        for report in timeline.streamReports(ofProcess: pid, after: after) {
            print(String(format: "    %+.2f ms %@ #%u corked %@ muted %@ sink %u", origin.milliseconds(to: report.at),
                         "\(report.event)", report.info.index, "\(report.info.isCorked)", "\(report.info.isMuted)",
                         report.info.sinkIndex))
        }
    }

    /// Width (ms) of the last `timedPosition` read: the uncertainty of its time.
    private var readBeforeWindow = 0.0

    /// Position (µs) and when it was read: the midpoint of the dbus-send call.
    private func timedPosition() throws -> (Int64, Stamp) {
        let start = Stamp.now()
        guard let position = try Bus.get(Bus.playerInterface, "Position").int64 else {
            throw BusError("Position is not a number")
        }
        let end = Stamp.now()
        readBeforeWindow = start.milliseconds(to: end)
        let middle = Stamp(monotonic: start.monotonic + (end.monotonic - start.monotonic) / 2,
                           wall: (start.wall + end.wall) / 2)
        return (position, middle)
    }

    // MARK: mpv, in the same situations

    private func mpvRuns(count: Int) -> [[String: Any]] {
        var reached: [Double] = []
        var unplugNotes: [String] = []
        var callResults: [String] = []
        for run in 1...count {
            do {
                let (ms, corked) = try mpvUnplug()
                reached.append(ms)
                unplugNotes.append(corked ? "corked" : "not corked")
                print(String(format: "  mpv unplug run %d: %.0f ms of its audio reached the speakers within 2 s (%@)",
                             run, ms, corked ? "its stream ended corked" : "its stream was not corked"))
            } catch {
                print("  mpv unplug run \(run): \(error)")
            }
            restoreHeadphones()
        }
        do {
            let result = try mpvCall()
            callResults.append(result)
            print("  mpv phone call: \(result)")
        } catch {
            print("  mpv phone call: \(error)")
        }
        restoreHeadphones()
        var peers: [[String: Any]] = []
        if !reached.isEmpty {
            let sorted = reached.sorted()
            peers.append(["player": "mpv (--ao=pulse, media.role=music)",
                          "situation": "unplug headphones",
                          "result": "\(format(sorted[sorted.count / 2])) ms of its audio reached the speakers in the next 2 s "
                            + "(median of \(reached.count) runs, min \(format(sorted.first!)), max \(format(sorted.last!))); "
                            + "its stream \(unplugNotes.allSatisfy { $0 == "not corked" } ? "was not corked (it plays on)" : "ended corked in some runs")",
                          "samples": reached.map(round3)])
        }
        if let result = callResults.first {
            peers.append(["player": "mpv (--ao=pulse, media.role=music)", "situation": "3 s media.role=phone stream",
                          "result": result])
        }
        return peers
    }

    private func startMpv() throws -> (Subprocess, SinkInputInfoSummary) {
        let started = Stamp.now()
        let mpv = try Subprocess("mpv", ["--no-video", "--no-terminal", "--ao=pulse", "--audio-device=pulse/headphones",
                                         music.path], environment: ["PULSE_PROP": "media.role=music"])
        guard let report = timeline.streamReport(ofProcess: mpv.pid, after: started, timeout: 10, where: { !$0.info.isCorked }) else {
            mpv.stop(grace: 1)
            throw DaemonError("mpv's stream did not appear: \(mpv.stderr.text)")
        }
        return (mpv, SinkInputInfoSummary(index: report.info.index))
    }

    struct SinkInputInfoSummary { var index: UInt32 }

    /// mpv playing on the headphones, which are unplugged: how much of its audio the speakers
    /// play in the 2 s after the first of it arrives.
    private func mpvUnplug() throws -> (Double, Bool) {
        try ensureHeadphones()
        timeline.clear()
        let recorder = try startRecorder()
        defer { recorder.stop(signal: SIGINT, grace: 2) }
        let (mpv, _) = try startMpv()
        defer { mpv.stop(grace: 2) }
        guard recorder.stdout.waitForByteCount(1, timeout: 6) else { throw DaemonError("parec recorded nothing") }
        Thread.sleep(forTimeInterval: 0.5)
        let bytesAtUnload = recorder.stdout.data.count
        let command = Stamp.now()
        try pactl(["unload-module", String(try HeadphonesSink.module())])
        _ = recorder.stdout.waitForByteCount(bytesAtUnload + 5 * Self.bytesPerSecond, timeout: 14)
        if debugTimeline { printReports(mpv.pid, after: command, origin: command) }
        let corked = timeline.corkedForGood(ofProcess: mpv.pid, after: command) != nil
        let windows = Loudness.windows(recorder.stdout.data)
        guard let first = windows.firstIndex(of: true) else { return (0, corked) }
        let twoSeconds = Int(2000 / Loudness.windowMilliseconds)
        let slice = windows[first..<min(windows.count, first + twoSeconds)]
        return (Double(slice.filter { $0 }.count) * Loudness.windowMilliseconds, corked)
    }

    /// mpv playing when a 3 s phone stream starts: corked? muted? how much of the track plays on.
    private func mpvCall() throws -> String {
        try ensureHeadphones()
        timeline.clear()
        let (mpv, stream) = try startMpv()
        defer { mpv.stop(grace: 2) }
        Thread.sleep(forTimeInterval: 1)
        let callStart = Stamp.now()
        let call = try Subprocess("paplay", ["--property=media.role=phone", phoneCall.path])
        defer { call.stop(grace: 1) }
        guard let phone = timeline.newStream(role: "phone", after: callStart, timeout: 5) else {
            throw DaemonError("no phone stream appeared")
        }
        Thread.sleep(forTimeInterval: 1)
        let during = try Pulse.sinkInput(ofProcess: mpv.pid)
        guard call.waitForExit(timeout: 10) != nil else { throw DaemonError("paplay did not finish") }
        let ended = timeline.streamRemoved(phone.info.index, after: phone.at, timeout: 5)
        let corkedEver = timeline.corkedForGood(ofProcess: mpv.pid, after: callStart) != nil
        let callLength = ended.map { phone.at.milliseconds(to: $0) } ?? 3000
        _ = stream
        return "stream corked: \(corkedEver ? "yes" : "no"), muted during the call: \(during?.muted.map { $0 ? "yes" : "no" } ?? "?")"
            + (corkedEver ? "" : "; played on through the \(format(callLength)) ms call: \(format(callLength)) ms of the track lost"
                + (during?.muted == true ? " (muted)" : " (audible under the call)"))
    }

    // MARK: Helpers

    private func makeMusic() throws {
        let directory = TestRunDirectory.url.appendingPathComponent("bench", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        music = directory.appendingPathComponent("bench-440.mp3")
        phoneCall = directory.appendingPathComponent("phone-3s.wav")
        let wav = directory.appendingPathComponent("bench-440.wav")
        if !FileManager.default.fileExists(atPath: music.path) {
            try check(Shell.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav.path,
                                        "synth", "60", "sine", "440", "vol", "0.5"]), "sox")
            try check(Shell.run("lame", ["--quiet", "-b", "192", "--add-id3v2", "--tt", "Benchmark tone",
                                         "--ta", "Aubade", wav.path, music.path], timeout: 120), "lame")
            try? FileManager.default.removeItem(at: wav)
        }
        if !FileManager.default.fileExists(atPath: phoneCall.path) {
            try check(Shell.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", phoneCall.path,
                                        "synth", "3", "sine", "880", "vol", "0.3"]), "sox (phone)")
        }
    }

    private func check(_ result: CommandResult, _ what: String) throws {
        guard result.succeeded else { throw DaemonError("\(what) failed: \(result)") }
    }

    @discardableResult
    private func pactl(_ arguments: [String]) throws -> String {
        try HeadphonesSink.pactl(arguments)
    }

    /// "pulseaudio 16.1" or "PulseAudio (on PipeWire 0.3.65) 15.0.0", from `pactl info`.
    private func serverDescription() -> String {
        var name = server.rawValue
        var version = ""
        for line in ((try? pactl(["info"])) ?? "").split(separator: "\n") {
            if line.hasPrefix("Server Name: ") { name = String(line.dropFirst("Server Name: ".count)) }
            if line.hasPrefix("Server Version: ") { version = " " + line.dropFirst("Server Version: ".count) }
        }
        return name + version
    }

    private func status() throws -> String {
        try Bus.get(Bus.playerInterface, "PlaybackStatus").string ?? "?"
    }

    /// PlaybackStatus Playing and our stream on the server, uncorked, on the headphones.
    private func waitForPlaying(_ daemon: Daemon, since started: Stamp) throws {
        let deadline = Date(timeIntervalSinceNow: 10)
        var last = "?"
        while Date() < deadline {
            last = (try? status()) ?? "?"
            if last == "Playing" { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        guard last == "Playing" else { throw DaemonError("aubade not Playing after 10 s (\(last)); stderr:\n\(daemon.process.stderr.text)") }
        guard let stream = timeline.streamReport(ofProcess: daemon.pid, after: started, timeout: 5, where: { !$0.info.isCorked }) else {
            throw DaemonError("no uncorked stream of aubade (pid \(daemon.pid)) on the server")
        }
        let names = try Pulse.sinkNames()
        let current = try Pulse.sinkInput(ofProcess: daemon.pid)
        let sink = current?.sink.flatMap { names[$0] } ?? names[Int(stream.info.sinkIndex)]
        guard sink == "headphones" else { throw DaemonError("aubade plays on \(sink ?? "?"), not headphones") }
    }

    /// parec on the speakers' monitor, raw s16le stereo 44.1 kHz.
    private func startRecorder() throws -> Subprocess {
        try Subprocess("parec", ["--raw", "--format=s16le", "--rate=44100", "--channels=2", "--latency-msec=20",
                                 "-d", "speakers.monitor"], binaryStdout: true)
    }

    /// The headphones sink as the harness made it, and the default sink.
    private func ensureHeadphones() throws {
        try HeadphonesSink.ensure(refreshing: timeline)
    }

    /// After each run: the headphones back, whatever happened (the sinks as the harness left them).
    private func restoreHeadphones() {
        do { try ensureHeadphones() } catch { print("  could not restore the headphones sink: \(error)") }
    }
}
