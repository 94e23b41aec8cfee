import Foundation
import XCTest
@testable import TestSupport

/// Interruptions: a `media.role=phone` stream (`paplay --property=media.role=phone`, 2 s) is a
/// phone call. On PulseAudio, module-role-cork also sends our stream a cork request (and mutes
/// it); on PipeWire nothing is corked or muted and only the daemon's own watch of the server's
/// streams can notice the call. The tests hold on both.
final class InterruptionTests: AudioSessionTestCase {
    private var calls: [Subprocess] = []

    override func tearDown() {
        for call in calls { call.stop(grace: 1) }
        calls.removeAll()
        super.tearDown()
    }

    private func startCall() throws -> Subprocess {
        let call = try PhoneCall.start()
        calls.append(call)
        return call
    }

    /// Waits for paplay to finish the 2 s call; fails if it did not play it.
    private func waitForCallToEnd(_ call: Subprocess, file: StaticString = #filePath, line: UInt = #line) {
        let status = call.waitForExit(timeout: 15)
        XCTAssertEqual(status, 0, "paplay: \(call.stderr.text)", file: file, line: line)
    }

    /// Waits until the daemon has played a little (so the position means something).
    private func waitForPosition(atLeast microseconds: Int64) throws {
        try eventually("Position ≥ \(microseconds) µs", timeout: 10) { try position() >= microseconds }
    }

    /// The call pauses us (InterruptionBegan, PauseReason interruption); its end resumes us
    /// (InterruptionEnded(true)) close to where we were, audibly.
    func testPhoneCallPausesAndResumesWhereItWas() throws {
        let (daemon, _) = try startPlayingOnHeadphones()
        try waitForPosition(atLeast: 1_000_000)
        let monitor = try monitor(daemon)
        let mark = monitor.mark
        let positionAtCall = try position()

        let call = try startCall()

        try waitForStatus("Paused")
        XCTAssertNotNil(monitor.waitForMessage(after: mark) { $0.isAudioSessionSignal && $0.member == "InterruptionBegan" },
                        "no InterruptionBegan; audio-session signals: \(describeAudioSessionSignals(monitor, after: mark))")
        XCTAssertEqual(try AudioSessionBus.pauseReason(), "interruption")
        let positionWhilePaused = try position()

        waitForCallToEnd(call)

        let ended = monitor.waitForMessage(after: mark, timeout: 5) { $0.interruptionEndedShouldResume != nil }
        XCTAssertNotNil(ended, "no InterruptionEnded; audio-session signals: \(describeAudioSessionSignals(monitor, after: mark))")
        XCTAssertEqual(ended?.interruptionEndedShouldResume, true,
                       "InterruptionEnded(shouldResume): \(ended.map(String.init(describing:)) ?? "-")")
        try waitForStatus("Playing")
        let positionAfter = try position()
        print(String(format: "position at the call %.3f s, while paused %.3f s, after resuming %.3f s (%@)",
                     Double(positionAtCall) / 1e6, Double(positionWhilePaused) / 1e6, Double(positionAfter) / 1e6,
                     server.rawValue))
        XCTAssertLessThanOrEqual(abs(positionAfter - positionAtCall), 1_000_000,
                                 "position after the call should be within 1 s of where the call began")
        XCTAssertEqual(try AudioSessionBus.pauseReason(), "none")
        // Really audible again: not left muted by role-cork, not corked.
        try waitForStream(of: daemon, "our stream uncorked and unmuted") { $0.corked == false && $0.muted != true }
        XCTAssertTrue(try Pulse.listen(seconds: 1).isSound, "headphones after the call")
    }

    /// The user pausing during the call keeps us paused after it.
    func testUserPauseDuringTheCallStaysPausedAfterIt() throws {
        let (daemon, _) = try startPlayingOnHeadphones()
        let monitor = try monitor(daemon)
        let mark = monitor.mark

        let call = try startCall()
        try waitForStatus("Paused")
        try waitForPauseReason("interruption")
        try playerctl("pause")

        waitForCallToEnd(call)

        // Either InterruptionEnded(false) or no InterruptionEnded at all; never a resume.
        let ended = monitor.waitForMessage(after: mark, timeout: 3) { $0.interruptionEndedShouldResume != nil }
        if let ended {
            XCTAssertEqual(ended.interruptionEndedShouldResume, false, "InterruptionEnded after a user pause: \(ended)")
        }
        try assertStatusStays("Paused", for: 1.5, "after the call that the user paused during")
        XCTAssertEqual(try AudioSessionBus.pauseReason(), "user")
    }

    /// One call is one interruption, though on PulseAudio two sources report it (the cork request
    /// and the daemon's watch of phone streams).
    func testOneCallIsOneInterruption() throws {
        if server.sendsCorkRequests {
            XCTAssertTrue(try Pulse.roleCorkIsLoaded(), "module-role-cork should be loaded on PulseAudio")
        }
        let (daemon, _) = try startPlayingOnHeadphones()
        let monitor = try monitor(daemon)
        let mark = monitor.mark

        let call = try startCall()
        try waitForStatus("Paused")
        waitForCallToEnd(call)
        try waitForStatus("Playing")
        // Time for a late duplicate to show up.
        try assertStatusStays("Playing", for: 1, "after the call")

        let began = audioSessionSignals("InterruptionBegan", on: monitor, after: mark)
        let ended = audioSessionSignals("InterruptionEnded", on: monitor, after: mark)
        XCTAssertEqual(began.count, 1, "InterruptionBegan signals: \(describeAudioSessionSignals(monitor, after: mark))")
        XCTAssertEqual(ended.count, 1, "InterruptionEnded signals: \(describeAudioSessionSignals(monitor, after: mark))")
        // PlaybackStatus: one Paused, one Playing.
        let statuses = monitor.messages.dropFirst(mark).compactMap { $0.changedProperties["PlaybackStatus"]?.string }
        XCTAssertEqual(statuses, ["Paused", "Playing"], "PlaybackStatus changes during one call")
    }
}
