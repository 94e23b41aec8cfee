import Foundation
import SoundAnalysis
import XCTest
@testable import TestSupport

/// The house when things go wrong: the snapserver killed and started again mid-track (Paused
/// with a reason, the position kept, back by itself where it stopped), a call on the host
/// (both rooms pause and resume), the host's own headphones going away (no concern of theirs).
final class SnapcastFaultTests: SnapcastTestCase {
    func testTheSnapserverKilledAndRestartedMidTrackComesBackWhereItStopped() throws {
        try openRooms()
        try waitForRooms()
        try startAubade([try SnapcastMusic.shared().longTone])
        try waitForStatus("Playing")
        try eventually("3 s into the track", timeout: 10) { try position() > 3_000_000 }

        snapserver.kill()
        try waitForStatus("Paused", timeout: 3)
        try waitForPauseReason("noSoundServer")
        let stoppedAt = try position()
        // Time itself is under test here: the position must not run while nothing is heard.
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(try position(), stoppedAt, "the position ran on without a snapserver")

        try snapserver.start()
        try waitForStatus("Playing", timeout: 10)
        let resumedAt = try position()
        print("snapserver restart: paused at \(Double(stoppedAt) / 1e6) s, playing again at \(Double(resumedAt) / 1e6) s")
        XCTAssertGreaterThanOrEqual(resumedAt, stoppedAt)
        XCTAssertLessThan(resumedAt - stoppedAt, 1_500_000, "it did not come back where it stopped")
        XCTAssertEqual(try AudioSessionBus.pauseReason(), "none")
        // The rooms (their snapclients reconnect by themselves) hear it again.
        try reconnectRooms()
        let recording = try startRecording()
        _ = recording.waitForSeconds(recording.seconds + 1.5, timeout: 15)
        let rooms = try record(recording, for: 1.5)
        for (room, audio) in rooms {
            XCTAssertGreaterThan(level(audio, lastSeconds: 1), 3000, "\(room) hears nothing after the restart")
        }
    }

    func testACallOnTheHostPausesBothRoomsAndResumesThem() throws {
        try openRooms()
        try waitForRooms()
        try startAubade([try SnapcastMusic.shared().longTone])
        try waitForStatus("Playing")
        let recording = try startRecording()
        _ = recording.waitForSeconds(recording.seconds + 2, timeout: 15)

        let call = try PhoneCall.start()  // 2 s, media.role=phone, on this machine's default sink
        defer { call.stop(grace: 1) }
        try waitForPauseReason("interruption", timeout: 3)
        XCTAssertNotNil(call.waitForExit(timeout: 10), "the call did not end")
        try waitForStatus("Playing", timeout: 5)
        let rooms = try record(recording, for: 3)
        for (room, audio) in rooms {
            // Music, a stretch of silence (the call, less the server's buffer), music again.
            let rate = ToneAnalysis.rate
            let sounding = try XCTUnwrap(audio.soundingRange(), "\(room) heard nothing")
            let silences = audio.quietRuns(in: sounding.lowerBound..<sounding.upperBound, threshold: 300,
                                           minimumLength: Int(0.5 * rate))
            print("\(room): silences during the call: "
                  + silences.map { String(format: "%.2f s", Double($0.count) / rate) }.joined(separator: ", "))
            XCTAssertEqual(silences.count, 1, "\(room): expected one silence (the call)")
            XCTAssertGreaterThan(level(audio, lastSeconds: 0.5), 3000, "\(room) did not resume")
        }
    }

    func testTheHostsHeadphonesGoingAwayDoNotTouchTheHouse() throws {
        try openRooms([.kitchen])
        try startAubade([try SnapcastMusic.shared().longTone])
        try waitForStatus("Playing")
        try Pulse.unloadNullSink("headphones")
        try assertStatusStays("Playing", for: 2, "after the host's headphones went away")
        XCTAssertEqual(try AudioSessionBus.pauseReason(), "none")
        let route = try Shell.run(try Daemon.binaryPath(), ["route"])
        XCTAssertTrue(route.stdout.hasPrefix("networkStream — Snapcast"), route.stdout)
    }
}
