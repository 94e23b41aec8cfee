import Foundation
import XCTest
@testable import TestSupport

/// The FFmpeg helper failing mid-track in the daemon, for real: crashed (SIGSEGV), hung
/// (SIGSTOP) and allocating without end (`AUBADE_FFMPEG_TEST_FAULT`). Each is one bad item:
/// the log says what happened, the next track (an MP3) plays, and the bus is answered
/// throughout — polled every 20 ms; no reply may wait for the helper (0.5 s here, where a busy
/// machine must not flake; the fault figures of `make bench BENCH=formats` hold the 50 ms).
final class FFmpegHelperFaultTests: AubadeTestCase {
    private var probe: ReplyTimeProbe?
    private var folder: URL!
    static let replyTarget = 0.5

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = TestRunDirectory.url.appendingPathComponent("faults-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        _ = probe?.stop()
        probe = nil
        // A helper left stopped would keep its pid: the daemon's stop kills it (SIGKILL works on it).
        super.tearDown()
        try? FileManager.default.removeItem(at: folder)
    }

    /// A 20 s M4A ("Faulty") then Alpha; returns the daemon once the M4A plays.
    private func startFaultyThenAlpha(environment: [String: String] = [:]) throws -> Daemon {
        let faulty = folder.appendingPathComponent("faulty.m4a")
        try Fixtures.makeM4A(at: faulty.path, seconds: 20, title: "Faulty")
        let daemon = try startDaemon([faulty.path, fixtures.alpha.path], environment: environment)
        try waitForTitle("Faulty", timeout: 10)
        try waitForStatus("Playing")
        return daemon
    }

    /// The decoder's helper, once it is the only one left (the tag reader has gone idle).
    /// Once the M4A has played a second: Playing and its title are announced before the
    /// decoder's helper starts, and a helper found alone before that was the tag reader (seen
    /// in a full run: the tag reader killed, the M4A played on, Alpha never came in 15 s).
    private func decoderHelper(of daemon: Daemon) throws -> Int32 {
        try eventually("the M4A to play a second (its decoder's helper runs)", timeout: 10) { try position() >= 1_000_000 }
        var helpers: [Int32] = []
        try eventually("one helper (the decoder) left", timeout: 10) {
            helpers = HelperProcesses.of(daemon.pid)
            return helpers.count == 1
        }
        return helpers[0]
    }

    private func startProbe() throws -> ReplyTimeProbe {
        let probe = try ReplyTimeProbe()
        self.probe = probe
        probe.start()
        return probe
    }

    private func assertMovedOn(_ daemon: Daemon, logging words: String, probe: ReplyTimeProbe,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        try waitForTitle("Alpha", timeout: 15, file: file, line: line)
        try waitForStatus("Playing", file: file, line: line)
        XCTAssertNotNil(daemon.waitForLog(containing: words, timeout: 5),
                        "no log line with \"\(words)\":\n\(daemon.stderrLines.joined(separator: "\n"))", file: file, line: line)
        let times = probe.stop()
        self.probe = nil
        print("Get PlaybackStatus every 20 ms through the fault (\(words)): \(times)")
        XCTAssertGreaterThan(times.samples.count, 10, file: file, line: line)
        XCTAssertTrue(times.unanswered.isEmpty, "unanswered: \(times.slowerThan(Self.replyTarget))", file: file, line: line)
        XCTAssertLessThanOrEqual(times.worstMilliseconds, Self.replyTarget * 1000, times.slowerThan(Self.replyTarget),
                                 file: file, line: line)
        XCTAssertTrue(daemon.isRunning, file: file, line: line)
    }

    func testACrashedHelperIsOneSkippedItem() throws {
        let daemon = try startFaultyThenAlpha()
        let helper = try decoderHelper(of: daemon)
        let probe = try startProbe()
        XCTAssertEqual(kill(helper, SIGSEGV), 0)
        try assertMovedOn(daemon, logging: "the FFmpeg helper crashed (SIGSEGV)", probe: probe)
    }

    func testAHungHelperIsOneSkippedItem() throws {
        let daemon = try startFaultyThenAlpha()
        let helper = try decoderHelper(of: daemon)
        let probe = try startProbe()
        XCTAssertEqual(kill(helper, SIGSTOP), 0)
        try assertMovedOn(daemon, logging: "the FFmpeg helper was stopped (SIGSTOP)", probe: probe)
        // Killed, not left stopped.
        try eventually("the stopped helper gone", timeout: 5) { kill(helper, 0) != 0 || HelperProcesses.of(daemon.pid).isEmpty }
    }

    func testAHelperAllocatingWithoutEndIsOneSkippedItem() throws {
        // After about 2 s of audio sent, the helper allocates and touches memory without end:
        // decoding runs ahead, so that can be before the tag reader has gone idle (no waiting
        // for one helper left here: it may never be seen).
        let daemon = try startFaultyThenAlpha(environment: ["AUBADE_FFMPEG_TEST_FAULT": "allocate:400000"])
        let probe = try startProbe()
        try assertMovedOn(daemon, logging: "the FFmpeg helper", probe: probe)
        let line = daemon.stderrLines.first { $0.contains("the FFmpeg helper") } ?? ""
        print("logged: \(line)")
        XCTAssertTrue(line.contains("MB of memory") || line.contains("crashed"), line)
    }
}
