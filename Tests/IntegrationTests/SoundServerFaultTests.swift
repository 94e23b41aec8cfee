import DBusKit
import Foundation
import XCTest
@testable import TestSupport

/// The sound server failing under the playing daemon (issue 10, finding 3 and "Fault tests"),
/// against a `PrivateSoundServer` of the kind the harness runs (PulseAudio, or PipeWire +
/// WirePlumber + pipewire-pulse), which the test may kill, freeze and restart:
///
/// - killed and started again while playing: during the outage MPRIS says Paused,
///   PauseReason is noSoundServer, Position stands still and the logind "block" sleep inhibitor
///   is released; when the server is back the music plays again by itself, from where it
///   stopped (read from a recorded sweep tone: lost or repeated ≤ 0.2 s);
/// - frozen (SIGSTOP) for 3 s while playing: the bus is answered within 0.5 s throughout (a
///   reply held up by the server would wait its 3 s; the real figure, target 50 ms, is the fault
///   benchmark's, not a timed test's), and a
///   Pause sent meanwhile takes effect at once on the bus and, once the server runs again, at
///   the sink (our stream corked, silence).
final class SoundServerFaultTests: AubadeTestCase {
    /// The issue's target for the audio lost or repeated across a restart. It is how soon the
    /// daemon hears that its server died (its clock runs until then), so the test runs alone in
    /// the plain phases (scripts/run-tests), and under a sanitizer, beside the others, it is
    /// judged loosely (`Sanitizer.judgesTime`): ci20 saw a ThreadSanitizer daemon 0.37 s late,
    /// the recording level with real time. Loosely still tells a resume where the music
    /// stopped from one at the start or seconds on.
    static var lostOrRepeatedTarget: Double { Sanitizer.judgesTime ? 0.2 : 1.0 }
    /// Far below the 3 s freeze: a reply held up by it cannot pass, a busy machine's can.
    static let replyTarget = 0.5

    private var server: PrivateSoundServer?
    private var probe: ReplyTimeProbe?
    private var systemBus: Subprocess?
    private var logind: RecordingLogind?

    override func tearDown() {
        // Always thaw first: a frozen server would keep the daemon's teardown waiting.
        server?.thaw()
        _ = probe?.stop()
        probe = nil
        if let server, (testRun?.failureCount ?? 0) > 0 { print("--- the private \(server.kind):\n\(server.logTail)") }
        if let logind { print("logind inhibitors: \(logind.summary)") }
        super.tearDown()
        logind?.close()
        logind = nil
        systemBus?.stop(grace: 3)
        systemBus = nil
        server?.close()
        server = nil
    }

    // MARK: Killed and restarted

    func testKilledAndRestartedServerPausesThenResumesWhereTheMusicStopped() throws {
        let server = try PrivateSoundServer()
        self.server = server
        print("private sound server: \(server.kind), pids \(server.pids)")
        let address = try startSystemBus()
        let logind = try RecordingLogind(address: address)
        self.logind = logind
        let restart = SoundServerRestart(server: server)
        try restart.startRecording()
        let daemon = try startDaemon([try SweepTone.file().path],
                                     environment: server.daemonEnvironment.merging(["DBUS_SYSTEM_BUS_ADDRESS": address]) { $1 })
        try waitForStatus("Playing")
        try eventually("our stream playing on the private server") {
            try server.sinkInput(ofProcess: daemon.pid)?.corked == false
        }
        func blockers() -> [Int] { logind.indexes { $0.mode == "block" } }
        try eventually("a block sleep inhibitor while Playing (\(logind.summary))") { !blockers().isEmpty }
        let blocker = blockers()[0]

        try restart.kill(afterSoundFor: 2.5)
        let killedAt = Date()
        print(String(format: "killed the server after 2.5 s of sound, the recording %.3f s behind real time", restart.lagAtKill ?? -1))

        // The outage (2.5 s): what the daemon says meanwhile. Checked without stopping at the
        // first failure, so the audio measure below is made (and printed) all the same.
        let paused = eventually(timeout: 1.5) { (try? self.playbackStatus()) == "Paused" }
        XCTAssertTrue(paused, "PlaybackStatus during the outage: \((try? playbackStatus()) ?? "?") (expected Paused within 1.5 s)")
        let reason = try? AudioSessionBus.pauseReason()
        XCTAssertEqual(reason, "noSoundServer", "PauseReason during the outage")
        let first = try position()
        Thread.sleep(forTimeInterval: 0.5)
        let second = try position()
        print("during the outage: status \((try? playbackStatus()) ?? "?"), PauseReason \(reason ?? "?"), Position \(first) µs then \(second) µs 0.5 s later")
        XCTAssertEqual(first, second, "Position must stand still while there is no sound server (\(first) → \(second) µs in 0.5 s)")
        let released = eventually(timeout: 1) { logind.isReleased(blocker) }
        XCTAssertTrue(released, "the block sleep inhibitor is still held with no sound server (\(logind.summary))")
        let outageSoFar = Date().timeIntervalSince(killedAt)
        if outageSoFar < 2.5 { Thread.sleep(forTimeInterval: 2.5 - outageSoFar) }
        let frozenPosition = try position()

        try restart.comeBack()
        let cameBack = Date()
        let playing = eventually(timeout: 6) { (try? self.playbackStatus()) == "Playing" }
        let toPlaying = Date().timeIntervalSince(cameBack)
        XCTAssertTrue(playing, "not Playing again within 6 s of the server coming back (status \((try? playbackStatus()) ?? "?"))")
        let outcome = try restart.finish(soundAfterComeback: 2)
        print("restart: outage \(String(format: "%.2f", cameBack.timeIntervalSince(killedAt))) s; "
              + (playing ? String(format: "Playing again %.2f s after the comeback; ", toPlaying) : "")
              + "\(outcome); Position frozen at \(frozenPosition) µs")

        guard let stop = outcome.stop else { return XCTFail("no sweep readable before the kill: \(outcome)") }
        guard let resume = outcome.resume else {
            return XCTFail("no sound on the headphones within 15 s of the server coming back: \(outcome)")
        }
        XCTAssertLessThan(stop.spread, 0.05, "the sweep before the kill was not continuous: \(stop)")
        XCTAssertLessThan(resume.spread, 0.05, "the sweep after the comeback was not continuous: \(resume)")
        let lost = resume.trackTime - stop.trackTime
        XCTAssertLessThanOrEqual(abs(lost), Self.lostOrRepeatedTarget,
                                 "the music did not resume where it stopped: \(SoundServerRestart.Outcome.describe(lost)) "
                                 + "(stopped at \(String(format: "%.3f", stop.trackTime)) s, resumed at \(String(format: "%.3f", resume.trackTime)) s)")
        let frozen = Double(frozenPosition) / 1e6
        XCTAssertEqual(frozen, stop.trackTime, accuracy: Self.lostOrRepeatedTarget,
                       "Position froze at \(frozen) s, but the sound stopped at \(String(format: "%.3f", stop.trackTime)) s")
        // The inhibitor is taken again with the music.
        XCTAssertTrue(eventually(timeout: 2) { blockers().contains { !logind.isReleased($0) } },
                      "no block sleep inhibitor after resuming (\(logind.summary))")
    }

    /// The measure itself: 10.000 s → 12.000 s of the sweep (made by sox on its own, 800 → 900 Hz
    /// at the same 50 Hz/s), played with paplay and recorded from the monitor, reads as sound
    /// starting 10.000 s and ending 12.000 s into the track, within 20 ms. (On PulseAudio the
    /// start reads ~13 ms late: to mix a new stream in at once the null sink rewinds over audio
    /// its monitor has already delivered, so the monitor misses the stream's first milliseconds.
    /// A resumed stream after a restart is new too: the lost audio measured there is that much
    /// too high, well inside the 0.2 s target.)
    /// A recording in which the server itself dropped audio (paplay's stream underran on a loaded
    /// machine: 9 ms of zeros, seen once on PipeWire) says nothing about the measure, but that the
    /// measure saw the gap; it is played again, up to three times.
    func testTheSweepReadingFindsKnownPlaces() throws {
        let server = try PrivateSoundServer()
        self.server = server
        let wav = TestRunDirectory.url.appendingPathComponent("sweep-10s-to-12s.wav")
        let made = try Shell.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav.path,
                                         "synth", "2", "sine", "800:900", "vol", "0.5"])
        XCTAssertTrue(made.succeeded, "\(made)")
        for attempt in 1...3 {
            let recorder = try server.record()
            try recorder.waitForAudio(seconds: 0.2, timeout: 10)
            let played = try Shell.run("paplay", ["-d", "headphones", wav.path], environment: server.clientEnvironment)
            XCTAssertTrue(played.succeeded, "\(played)")
            try recorder.waitForAudio(seconds: recorder.seconds + 0.5, timeout: 10)
            let reading = SweepReading(recorder.stop())
            let start = try XCTUnwrap(reading.placeWhereSoundStarts()?.place, "no sweep in the recording")
            let end = try XCTUnwrap(reading.placeWhereSoundEnds()?.place, "no sweep in the recording")
            let dropout = Double(reading.longestDropout()) / SweepReading.rate
            print("paplay of the sweep's 10 s → 12 s on \(server.kind): starts \(start); ends \(end); "
                  + "longest dropout \(String(format: "%.1f", dropout * 1000)) ms")
            if dropout >= 0.001 && attempt < 3 {
                print("the server dropped \(String(format: "%.1f", dropout * 1000)) ms of paplay's sound: playing it again")
                continue
            }
            XCTAssertLessThan(dropout, 0.001, "the server dropped audio in each of 3 recordings")
            XCTAssertEqual(start.trackTime, 10, accuracy: 0.02, "\(start)")
            XCTAssertEqual(end.trackTime, 12, accuracy: 0.02, "\(end)")
            XCTAssertLessThan(max(start.spread, end.spread), 0.005)
            return
        }
    }

    /// The dropout finder: a continuous sweep has none; 9 ms of zeros cut into it is found as
    /// 9 ms, and the reading's spread shows it too.
    func testTheSweepReadingFindsADropout() throws {
        let seconds = 2.0, rate = SweepReading.rate
        var samples = (0..<Int(seconds * rate)).map { index -> Double in
            let time = Double(index) / rate
            return 16_000 * sin(2 * .pi * (800 * time + 25 * time * time))
        }
        var bytes = Data()
        func recording() -> Data {
            bytes = Data()
            for sample in samples {
                let value = Int16(sample).littleEndian
                withUnsafeBytes(of: value) { bytes.append(contentsOf: $0); bytes.append(contentsOf: $0) }
            }
            return bytes
        }
        let whole = SweepReading(recording())
        XCTAssertLessThan(whole.longestDropout(), 10)
        let gap = Int(1.8 * rate)..<Int(1.809 * rate)
        for index in gap { samples[index] = 0 }
        let cut = SweepReading(recording())
        XCTAssertEqual(cut.longestDropout(), gap.count, accuracy: 2)
        XCTAssertGreaterThan(try XCTUnwrap(cut.placeWhereSoundEnds()).place.spread, 0.005)
    }

    // MARK: Frozen

    func testFrozenServerTheBusIsAnsweredAndAPauseTakesEffect() throws {
        let server = try PrivateSoundServer()
        self.server = server
        let daemon = try startDaemon([fixtures.long.path], environment: server.daemonEnvironment)
        try waitForStatus("Playing")
        try eventually("our stream playing on the private server") {
            try server.sinkInput(ofProcess: daemon.pid)?.corked == false
        }
        let commands = try BusClient(label: "aubade.tests.fault-commands")
        let probe = try ReplyTimeProbe()
        self.probe = probe
        probe.start()
        Thread.sleep(forTimeInterval: 0.3)
        let beforeFreeze = probe.snapshot

        server.freeze()
        let frozenAt = Date()
        Thread.sleep(forTimeInterval: 1)
        // Pause while the server cannot answer.
        var pauseReply: Double?
        do {
            pauseReply = try commands.call(Bus.playerInterface, "Pause", timeoutMilliseconds: 2000).seconds
        } catch {
            XCTFail("Pause with the server frozen: \(briefly(error, timeout: 2))")
        }
        let statusRightAfter = try? commands.get(Bus.playerInterface, "PlaybackStatus", timeout: 2000).value?.asString
        let frozenFor = Date().timeIntervalSince(frozenAt)
        if frozenFor < 3 { Thread.sleep(forTimeInterval: 3 - frozenFor) }
        server.thaw()
        print("thawed after \(String(format: "%.2f", Date().timeIntervalSince(frozenAt))) s")
        Thread.sleep(forTimeInterval: 0.3)
        let times = probe.stop()
        self.probe = nil
        print("Get PlaybackStatus every 20 ms before the freeze: \(beforeFreeze)")
        print("… through a 3 s freeze: \(times)")
        print("Pause sent 1 s into the freeze: replied in \(pauseReply.map { String(format: "%.1f ms", $0 * 1000) } ?? "no reply"), "
              + "PlaybackStatus read right after: \(statusRightAfter ?? "no answer")")

        XCTAssertTrue(times.unanswered.isEmpty, "calls without a reply within \(times.timeout) s: \(times.slowerThan(Self.replyTarget))")
        XCTAssertLessThanOrEqual(times.worstMilliseconds, Self.replyTarget * 1000,
                                 "bus replies slower than \(Int(Self.replyTarget * 1000)) ms while the server was frozen: \(times.slowerThan(Self.replyTarget))")
        if let pauseReply { XCTAssertLessThanOrEqual(pauseReply, Self.replyTarget, "the Pause reply took \(pauseReply * 1000) ms") }
        XCTAssertEqual(statusRightAfter, "Paused", "PlaybackStatus read right after the Pause reply")

        // Once the server runs again, the pause reaches it: our stream corked, the sink silent.
        try eventually("our stream corked after the thaw (\(String(describing: try? server.sinkInput(ofProcess: daemon.pid))))",
                       timeout: 3) {
            try server.sinkInput(ofProcess: daemon.pid)?.corked != false
        }
        let recorder = try server.record()
        try recorder.waitForAudio(seconds: 0.7, timeout: 10)
        let levels = Pulse.levels(of: recorder.stop().suffix(Int(0.5 * Double(SinkRecorder.bytesPerSecond))))
        print("headphones after the thaw: \(levels)")
        XCTAssertTrue(levels.isSilence, "the headphones still play after the Pause: \(levels)")
        XCTAssertEqual(try playbackStatus(), "Paused")
    }

    // MARK: Helpers

    /// A stand-in system bus for `RecordingLogind`, stopped after the test.
    private func startSystemBus() throws -> String {
        let (bus, address) = try StandInSystemBus.start()
        systemBus = bus
        return address
    }
}
