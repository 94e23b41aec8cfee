import Foundation
import XCTest
@testable import TestSupport

/// A queue of stations survives a restart: restored Paused, and nothing is fetched — no
/// icecast listener, no request to the web server — until Play.
final class StreamStateTests: StreamTestCase {
    func testARestoredStationQueueFetchesNothingUntilPlay() throws {
        let (server, _, station) = try startStation(titles: [(0, "Ann Example - After The Restart")])
        let web = try startWebServer()
        let second = web.url("/icy/programme.mp3?rate=16000&loop=1")
        let home = try makeHome()
        let first = try startDaemon([station, second], home: home)
        try waitForMusic(first)
        try waitForStreamState("connected")
        try terminate(first, with: SIGTERM)
        try eventually("icecast to drop the first daemon") { try server.listenerCount(mount: mount) == 0 }
        XCTAssertEqual(web.requests(), [], "the second station was fetched while the first played")

        let restored = try startDaemon([], home: home)
        try eventually("the two stations restored (queue \((try? Bus.tracks()) ?? []))", timeout: 10) {
            try Bus.tracks().count == 2
        }
        XCTAssertEqual(try Bus.tracksMetadata(try Bus.tracks()).map { $0["xesam:url"]?.string ?? "?" }, [station, second])
        XCTAssertEqual(try metadata()["xesam:url"], .string(station), "the current station")
        try waitForStatus("Paused")
        // Time enough to have connected, had it tried.
        Thread.sleep(forTimeInterval: 2)
        XCTAssertEqual(try server.listenerCount(mount: mount), 0, "the restored daemon listens to the station before Play")
        XCTAssertEqual(web.requests(), [], "the restored daemon fetched before Play")
        XCTAssertEqual(try playbackStatus(), "Paused")
        try assertNoMusic(restored, "before Play after a restore")

        try playerctl("play")

        try waitForStatus("Playing")
        try waitForMusic(restored, "the station after Play")
        try waitForTitle("After The Restart", timeout: 10)
        XCTAssertEqual(try server.listenerCount(mount: mount), 1)
        XCTAssertEqual(web.requests(), [], "Play of the first station fetched the second")
    }
}
