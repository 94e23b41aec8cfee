import Foundation
import XCTest
@testable import TestSupport

/// The real playerctld beside Aubade. Before Aubade's own interfaces moved off
/// /org/mpris/MediaPlayer2, playerctld aborted within a second of Aubade starting ("cannot
/// update properties for unknown interface: org.aubade.AudioSession1"), and every key bound to
/// `playerctl -p playerctld` went dead with it.
final class PlayerctldTests: StreamTestCase {
    private var playerctlds: [Playerctld] = []
    private var fakes: [ProcessMPRISPlayer] = []

    override func tearDown() {
        for fake in fakes { _ = fake.stop() }
        fakes.removeAll()
        for playerctld in playerctlds {
            if !playerctld.process.stderr.text.isEmpty { print("--- playerctld's stderr:\n\(playerctld.process.stderr.text)") }
            playerctld.stop()
        }
        playerctlds.removeAll()
        super.tearDown()
    }

    private func startPlayerctld() throws -> Playerctld {
        let playerctld = try Playerctld()
        playerctlds.append(playerctld)
        return playerctld
    }

    /// After each change, playerctld is still there (its bus name owned, its process running)
    /// and has said nothing at its ERROR or CRITICAL levels.
    private func assertAlive(_ playerctld: Playerctld, after change: String, file: StaticString = #filePath, line: UInt = #line) {
        // playerctld reads each signal as it comes; a Ping of ours after Aubade's signal is
        // answered only once playerctld has taken it in.
        _ = try? Bus.call("org.freedesktop.DBus.Peer.Ping", destination: Playerctld.busName, path: "/")
        XCTAssertTrue(playerctld.isRunning, "playerctld died after \(change): \(playerctld.process.stderr.text)", file: file, line: line)
        XCTAssertEqual(playerctld.errors, [], "playerctld after \(change)", file: file, line: line)
    }

    /// Every kind of change Aubade announces: playback status, track, volume, the audio
    /// session's category and policy, a station's connection state, the queue.
    func testPlayerctldLivesThroughEveryKindOfChange() throws {
        let (_, _, station) = try startStation()
        try startPlaying([fixtures.long, fixtures.long2])
        let playerctld = try startPlayerctld()
        assertAlive(playerctld, after: "Aubade started")

        try playerctl("pause")
        try waitForStatus("Paused")
        assertAlive(playerctld, after: "Pause")
        try playerctl("play")
        try waitForStatus("Playing")
        assertAlive(playerctld, after: "Play")
        try playerctl("next")
        try waitForTitle("Long Two")
        assertAlive(playerctld, after: "Next (track change)")
        try playerctl("volume", "0.5")
        try eventually("Volume 0.5") { try self.playerProperty("Volume").double == 0.5 }
        assertAlive(playerctld, after: "a volume change")

        // Aubade's own interface: PropertiesChanged(org.aubade.AudioSession1, …) on its own object.
        XCTAssertTrue(try Bus.set(AudioSessionBus.interface, "Category", "string:mixWithOthers").succeeded)
        try eventually("Category mixWithOthers") { try Bus.get(AudioSessionBus.interface, "Category").string == "mixWithOthers" }
        assertAlive(playerctld, after: "a change of the session category")
        XCTAssertTrue(try Bus.set(AudioSessionBus.interface, "PauseOnRouteLoss", "boolean:false").succeeded)
        assertAlive(playerctld, after: "a change of the route policy")

        // A station: AudioSession1.Stream goes connecting → connected.
        let added = try Bus.call("org.mpris.MediaPlayer2.TrackList.AddTrack",
                                 ["string:\(station)", "objpath:\(try XCTUnwrap(trackID()))", "boolean:true"])
        XCTAssertTrue(added.succeeded, "\(added)")
        try waitForStreamState("connected", timeout: 15)
        assertAlive(playerctld, after: "a station's stream state")

        // The queue: TrackListReplaced and the Tracks invalidation.
        XCTAssertTrue(try Bus.call("org.aubade.Queue1.Clear").succeeded)
        try waitForStatus("Stopped")
        assertAlive(playerctld, after: "clearing the queue")
    }

    /// playerctld mirrors the active player — Aubade — under a name of its own: it is a relay,
    /// not another player. Taken for one, it "started playing" whenever Aubade did, the session
    /// category paused Aubade for it and resumed it when it followed, over and over.
    func testPlayerctldIsNotTakenForAnotherPlayer() throws {
        let daemon = try startPlaying([fixtures.long])
        let playerctld = try startPlayerctld()
        for command in ["pause", "play", "pause", "play"] {
            try playerctl(command)
            let status = command == "play" ? "Playing" : "Paused"
            try waitForStatus(status)
            // playerctld has taken in Aubade's change (its own status follows), so Aubade has had
            // playerctld's echo of it before it answers this Ping (the bus keeps that order).
            try eventually("playerctld mirrors \(status)") {
                try Bus.call("org.freedesktop.DBus.Properties.Get", ["string:\(Bus.playerInterface)", "string:PlaybackStatus"],
                             destination: Playerctld.busName, path: Bus.objectPath).values.first?.string == status
            }
            XCTAssertTrue(try Bus.call("org.freedesktop.DBus.Peer.Ping").succeeded)
            XCTAssertEqual(try playbackStatus(), status, "after \(command), Aubade must stay \(status)")
        }
        XCTAssertEqual(daemon.stderrLines.filter { $0.contains("playerctld") }, [], "the category acted on playerctld")
        assertAlive(playerctld, after: "pause and play")
    }

    /// The keys people bind to playerctld reach Aubade: play-pause, next, metadata.
    func testPlayerctlThroughPlayerctldActsOnAubade() throws {
        try startPlaying([fixtures.long, fixtures.long2])
        let playerctld = try startPlayerctld()
        try eventually("playerctld follows Aubade") { try playerctld.playerNames().first == "org.mpris.MediaPlayer2.aubade" }

        XCTAssertTrue(try Playerctld.playerctl("play-pause").succeeded)
        try waitForStatus("Paused")
        XCTAssertEqual(try Playerctld.playerctl("status").trimmedOutput, "Paused")
        XCTAssertTrue(try Playerctld.playerctl("play-pause").succeeded)
        try waitForStatus("Playing")
        XCTAssertTrue(try Playerctld.playerctl("next").succeeded)
        try waitForTitle("Long Two")
        try eventually("playerctld's metadata names the new track") {
            try Playerctld.playerctl("metadata", "xesam:title").trimmedOutput == "Long Two"
        }
        assertAlive(playerctld, after: "commands through it")
    }

    /// Two players: playerctld follows the one that became active last, and its keys go there.
    func testPlayerctldFollowsTheActivePlayer() throws {
        try startPlaying([fixtures.long])
        // Both play side by side: Aubade's session category would otherwise pause the other.
        XCTAssertTrue(try Bus.set(AudioSessionBus.interface, "Category", "string:mixWithOthers").succeeded)
        let fake = try ProcessMPRISPlayer(.init(name: "fake1", status: "Paused", stream: .none))
        fakes.append(fake)
        try fake.waitUntilReady()
        let playerctld = try startPlayerctld()

        try playerctl("pause")
        try waitForStatus("Paused")
        try playerctl("play")
        try waitForStatus("Playing")
        try eventually("playerctld follows Aubade") { try playerctld.playerNames().first == "org.mpris.MediaPlayer2.aubade" }

        try fake.userPlays()
        try eventually("playerctld follows the other player once it plays") {
            try playerctld.playerNames().first == "org.mpris.MediaPlayer2.fake1"
        }
        let mark = fake.transportMark
        XCTAssertTrue(try Playerctld.playerctl("pause").succeeded)
        try eventually("the other player got the Pause") { fake.transportCalls(after: mark).contains { $0.member == "Pause" } }
        XCTAssertEqual(try playbackStatus(), "Playing", "Aubade is not the active player: the key is not for it")

        try playerctl("pause")
        try playerctl("play")
        try eventually("playerctld follows Aubade again") { try playerctld.playerNames().first == "org.mpris.MediaPlayer2.aubade" }
        XCTAssertTrue(try Playerctld.playerctl("pause").succeeded)
        try waitForStatus("Paused")
        assertAlive(playerctld, after: "two players taking turns")
    }
}
