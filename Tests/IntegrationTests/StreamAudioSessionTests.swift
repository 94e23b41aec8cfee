import Foundation
import XCTest
@testable import TestSupport

/// The audio session with a station playing: an unplug pauses it, a call interrupts it and it
/// resumes after, and the pause rule — resumed within 10 s it plays on from its buffer (the same
/// icecast listener connection), paused for longer it is fetched afresh (a new one). Runs on
/// PulseAudio (cork requests from module-role-cork) and on PipeWire (the daemon's own watch
/// of phone streams).
final class StreamAudioSessionTests: StreamTestCase {
    private var calls: [Subprocess] = []

    override func tearDown() {
        for call in calls { call.stop(grace: 1) }
        calls.removeAll()
        super.tearDown()
    }

    /// A station on the air, the daemon playing it on the headphones; icecast's listener ids.
    private func playStation() throws -> (IcecastServer, Daemon, [Int]) {
        let (server, _, url) = try startStation()
        let daemon = try serve([url])
        try waitForMusic(daemon)
        try waitForStreamState("connected")
        var listeners: [Int] = []
        try eventually("one icecast listener") {
            listeners = try server.listenerIDs(mount: mount)
            return listeners.count == 1
        }
        return (server, daemon, listeners)
    }

    func testUnplugPausesAStation() throws {
        let (_, daemon, _) = try playStation()
        try waitForStream(of: daemon, "our stream on the headphones") { try Pulse.sinkName(of: $0) == "headphones" }

        try Pulse.unloadNullSink("headphones")

        try waitForStatus("Paused")
        try waitForPauseReason("routeChange")
        try assertStatusStays("Paused", for: 1, "after the unplug")
        let speakers = try Pulse.listen(seconds: 0.5, device: "speakers.monitor")
        XCTAssertFalse(speakers.isSound, "the station plays on the speakers after the unplug: \(speakers)")
    }

    /// A phone call (2 s) pauses the station and it resumes after — from its buffer: the same
    /// listener connection, no new request.
    func testACallPausesTheStationAndItResumesAfter() throws {
        let (server, daemon, listeners) = try playStation()
        let monitor = try monitor(daemon)
        let mark = monitor.mark

        let call = try PhoneCall.start()
        calls.append(call)

        try waitForStatus("Paused")
        XCTAssertEqual(try AudioSessionBus.pauseReason(), "interruption")
        XCTAssertEqual(call.waitForExit(timeout: 15), 0, "paplay: \(call.stderr.text)")
        try waitForStatus("Playing", timeout: 10)
        XCTAssertNotNil(monitor.waitForMessage(after: mark, timeout: 2) { $0.interruptionEndedShouldResume == true },
                        "no InterruptionEnded(true): \(describeAudioSessionSignals(monitor, after: mark))")
        try waitForStream(of: daemon, "our stream uncorked and unmuted") { $0.corked == false && $0.muted != true }
        try waitForMusic(daemon, "music after the call")
        XCTAssertEqual(try server.listenerIDs(mount: mount), listeners,
                       "a short call made a new listener connection (expected: played on from the buffer)")
        XCTAssertFalse(daemon.stderrLines.contains { $0.contains("joining live again") }, "joined live after a 2 s call")
    }

    /// Paused by the user for 2 s: plays on from the buffer, no new connection.
    func testAShortPauseResumesFromTheBuffer() throws {
        let (server, daemon, listeners) = try playStation()
        try playerctl("pause")
        try waitForStatus("Paused")
        try eventually("our stream corked") { try Pulse.sinkInput(ofProcess: daemon.pid)?.corked != false }
        Thread.sleep(forTimeInterval: 2)

        try playerctl("play")

        try waitForStatus("Playing")
        try waitForMusic(daemon, "music after the short pause")
        XCTAssertEqual(try server.listenerIDs(mount: mount), listeners, "a 2 s pause made a new listener connection")
    }

    /// Paused for more than 10 s: Play fetches the station afresh (a new listener connection,
    /// the old one gone) and it plays live.
    func testALongPauseFetchesTheStationAfresh() throws {
        let (server, daemon, listeners) = try playStation()
        try playerctl("pause")
        try waitForStatus("Paused")
        Thread.sleep(forTimeInterval: 11)
        let logMark = daemon.stderrLines.count

        try playerctl("play")

        try waitForStatus("Playing")
        try waitForMusic(daemon, "music after the long pause")
        var now: [Int] = []
        try eventually("one new icecast listener (was \(listeners), now \(now))", timeout: 10) {
            now = try server.listenerIDs(mount: mount)
            return now.count == 1 && now != listeners
        }
        XCTAssertTrue(daemon.stderrLines.dropFirst(logMark).contains { $0.contains("joining live again") },
                      "no \"joining live again\" in the log:\n" + daemon.stderrLines.dropFirst(logMark).joined(separator: "\n"))
        try waitForStreamState("connected")
    }
}
