import Foundation
import XCTest
@testable import TestSupport

/// A station never given up: a cut network, an icecast2 restart, a source that goes off the air
/// for a moment, a server that hangs up — the daemon reconnects (0.5 s, doubling to 30 s),
/// says so in `org.aubade.AudioSession1.Stream` and `aubade status`, stays Playing meanwhile,
/// and plays again. Pause holds the attempts.
final class StreamReconnectTests: StreamTestCase {
    /// The network to the station goes for ~1 s: reconnecting (attempt, retryIn, reason in
    /// Stream; the status line), Playing all along, then connected again as a new listener.
    func testReconnectsWhenTheNetworkComesBack() throws {
        let (server, _, _) = try startStation()
        let relay = try startRelay(to: server.port)
        let url = relay.url(mount)
        let daemon = try serve([url])
        try waitForMusic(daemon)
        try waitForStreamState("connected")
        let signals = try monitor(daemon)
        let mark = signals.mark
        let firstListeners = try server.listenerIDs(mount: mount)
        XCTAssertEqual(firstListeners.count, 1, "one listener before the cut")

        relay.stop()

        let reconnecting = try waitForStreamState("reconnecting", timeout: 10)
        XCTAssertGreaterThanOrEqual(reconnecting["attempt"]?.int64 ?? 0, 1, "Stream: \(reconnecting)")
        XCTAssertEqual(reconnecting["attempt"]?.signature, "i", "Stream.attempt")
        let retryIn = reconnecting["retryIn"]?.double ?? -1
        XCTAssertTrue((0.3...30).contains(retryIn), "Stream.retryIn \(retryIn): \(reconnecting)")
        XCTAssertFalse((reconnecting["reason"]?.string ?? "").isEmpty, "Stream.reason: \(reconnecting)")
        XCTAssertTrue(reconnecting["summary"]?.string?.hasPrefix("reconnecting (attempt ") == true, "\(reconnecting)")
        XCTAssertEqual(reconnecting["station"]?.string, Self.stationName)
        let status = try status()
        XCTAssertTrue(status.contains("stream \(url): reconnecting (attempt "), "aubade status while reconnecting:\n\(status)")
        XCTAssertEqual(try playbackStatus(), "Playing", "PlaybackStatus while reconnecting")
        Thread.sleep(forTimeInterval: 1)

        try relay.start()

        try waitForStreamState("connected", timeout: 15)
        try waitForMusic(daemon, "music after the network came back")
        let listeners = try server.listenerIDs(mount: mount)
        XCTAssertEqual(listeners.count, 1, "one listener after the reconnect: \(listeners)")
        XCTAssertNotEqual(listeners, firstListeners, "no new listener connection")
        XCTAssertTrue(signals.streamStates(after: mark).contains("reconnecting"),
                      "no PropertiesChanged(Stream) with state reconnecting: \(signals.streamStates(after: mark))")
        XCTAssertEqual(signals.playbackStatuses(after: mark), [], "PlaybackStatus changed during the outage")
        XCTAssertEqual(try playbackStatus(), "Playing")
    }

    /// icecast2 is restarted (its source back as soon as it is up): the daemon comes back too.
    func testReconnectsAfterIcecastRestarts() throws {
        let (server, _, url) = try startStation(ownServer: true)
        let daemon = try serve([url])
        try waitForMusic(daemon)
        try waitForStreamState("connected")
        let signals = try monitor(daemon)
        let mark = signals.mark
        let logMark = daemon.stderrLines.count

        try server.restart()
        _ = try startSource(on: server)

        try eventually("music from the restarted icecast2 (Stream: \((try? streamInfo())?.description ?? "?"))", timeout: 15) {
            try server.listenerCount(mount: mount) == 1 && streamState() == "connected"
        }
        try waitForMusic(daemon, "music after the restart")
        XCTAssertTrue(daemon.stderrLines.dropFirst(logMark).contains { $0.contains("reconnecting (attempt 1") },
                      "no reconnecting in the log:\n" + daemon.stderrLines.dropFirst(logMark).joined(separator: "\n"))
        XCTAssertTrue(signals.streamStates(after: mark).contains("reconnecting"), "\(signals.streamStates(after: mark))")
        XCTAssertEqual(signals.playbackStatuses(after: mark), [], "PlaybackStatus changed during the restart")
    }

    /// The station's source goes off the air for 2 s (a playout restart) and comes back. Meanwhile
    /// icecast answers the listener's reconnects with 404 (no such mount): that is an outage of
    /// the station, not a wrong address, and the daemon must keep trying.
    func testReconnectsWhenTheSourceComesBackAfterAMoment() throws {
        let (server, source, url) = try startStation()
        let daemon = try serve([url])
        try waitForMusic(daemon)
        try waitForStreamState("connected")
        let signals = try monitor(daemon)
        let mark = signals.mark

        source.stop()
        try eventually("the mount to go") { try !server.hasSource(mount: mount) }
        Thread.sleep(forTimeInterval: 2)
        _ = try startSource(on: server)

        try eventually("the daemon to listen again (Stream: \((try? streamInfo())?.description ?? "?"))", timeout: 15) {
            try server.listenerCount(mount: mount) == 1 && streamState() == "connected"
        }
        try waitForMusic(daemon, "music after the source came back")
        XCTAssertEqual(try Bus.tracks().count, 1, "the station left the queue")
        XCTAssertEqual(signals.playbackStatuses(after: mark), [], "PlaybackStatus changed while the source was away")
    }

    /// A SHOUTcast server that hangs up after each 2 s file: called again, Playing throughout.
    func testAStationThatHangsUpIsCalledAgain() throws {
        let web = try startWebServer()
        let path = "/icy/short.mp3?rate=16000"
        let daemon = try serve([web.url(path)])
        try waitForMusic(daemon)
        let signals = try monitor(daemon)
        let mark = signals.mark
        try eventually("a second request after the hang-up (requests: \(web.requests()))", timeout: 15) {
            web.requests().filter { $0.hasPrefix("GET \(path)") }.count >= 2
        }
        waitForLogLine(daemon, with: ["reconnecting (attempt 1", "the server closed the connection"])
        try waitForStreamState("connected")
        try waitForMusic(daemon, "music from the second call")
        XCTAssertEqual(signals.playbackStatuses(after: mark), [], "PlaybackStatus changed at the hang-up")
        XCTAssertEqual(try playbackStatus(), "Playing")
    }

    /// While paused, a dropped station is not called; Play calls it at once.
    func testPauseHoldsTheReconnectAttempts() throws {
        let (server, _, _) = try startStation()
        let relay = try startRelay(to: server.port)
        let daemon = try serve([relay.url(mount)])
        try waitForMusic(daemon)
        let connected = relay.acceptedCount

        // Now every attempt is accepted and hung up at once: each shows in acceptedCount.
        try relay.start(mode: .hangUp)
        try waitForStreamState("reconnecting")
        try eventually("two attempts (accepted \(relay.acceptedCount - connected))", timeout: 10) {
            relay.acceptedCount >= connected + 2
        }
        XCTAssertEqual(try playbackStatus(), "Playing", "PlaybackStatus while reconnecting")

        try playerctl("pause")
        try waitForStatus("Paused")
        Thread.sleep(forTimeInterval: 0.3)
        let held = relay.acceptedCount
        // The next attempts were due within ~2 s and ~4 s.
        Thread.sleep(forTimeInterval: 3)
        XCTAssertEqual(relay.acceptedCount, held, "attempts while paused")

        try relay.start(mode: .forward)
        let beforePlay = relay.acceptedCount
        try playerctl("play")
        try waitForStatus("Playing")
        try eventually("an attempt soon after Play", timeout: 3) { relay.acceptedCount > beforePlay }
        try waitForStreamState("connected", timeout: 15)
        try waitForMusic(daemon, "music after Play")
    }
}
