import Foundation
import SoundAnalysis
import XCTest
@testable import TestSupport

/// Aubade as a Snapcast source (`output = snapcast`), with the real snapserver and two real
/// snapclients, each playing to its own PulseAudio sink ("kitchen", "garden"): the music is
/// heard in both rooms, in step; snapserver's JSON-RPC API shows the track; its clients'
/// commands reach Aubade and come back as Stream.OnProperties; a room that joins mid-track
/// hears the same song.
final class SnapcastTests: SnapcastTestCase {
    func testBothRoomsHearTheMusicInStep() throws {
        try openRooms()
        try waitForRooms()
        try startAubade([try SnapcastMusic.shared().noise])
        try waitForStatus("Playing")
        // The server's buffer (1 s) and the rooms' start: judge a stretch well inside the music.
        let (kitchen, garden) = try recordUntilInStep("rooms in step", settle: 2.5)
        let kitchenLevel = level(kitchen, lastSeconds: 2), gardenLevel = level(garden, lastSeconds: 2)
        print("rooms: kitchen level \(Int(kitchenLevel)), garden level \(Int(gardenLevel))")
        XCTAssertGreaterThan(kitchenLevel, 3000, "the kitchen hears nothing")
        XCTAssertGreaterThan(gardenLevel, 3000, "the garden hears nothing")
        guard server == .pulseaudio else {
            // How far apart two snapclients play is theirs to keep, by the latency each sound
            // server reports: on PipeWire's pulse layer the same Aubade stream was heard 0.07 ms
            // apart in one full run and 8 to 14 ms apart in the next (rooms on PulseAudio, as the
            // issue has them, stay within 5 ms). On PipeWire: the same music in both rooms.
            let (median, _, correlation) = offsets(kitchen, garden)
            print(String(format: "rooms on PipeWire: %+.2f ms apart, correlation %.3f (not judged: snapclient's)", median, correlation))
            XCTAssertGreaterThan(correlation, 0.8, "the rooms do not play the same music")
            return
        }
        try assertInStep(kitchen, garden, "rooms in step")
    }

    func testServerGetStatusCarriesTheTracksMetadata() throws {
        try startAubade([try QueueFixtures.shared().embeddedCover, try SnapcastMusic.shared().noise])
        try waitForStatus("Playing")
        let client = try controlClient()
        var metadata: [String: Any] = [:]
        var properties: [String: Any] = [:]
        try eventually("the stream's metadata with the cover", timeout: 10) {
            properties = try client.stream()["properties"] as? [String: Any] ?? [:]
            metadata = properties["metadata"] as? [String: Any] ?? [:]
            return metadata["title"] as? String == "Covered" && metadata["artUrl"] != nil
        }
        print("Server.GetStatus: properties \(properties)")
        XCTAssertEqual(properties["playbackStatus"] as? String, "playing")
        XCTAssertEqual(properties["canControl"] as? Bool, true)
        XCTAssertEqual(properties["canGoNext"] as? Bool, true)
        XCTAssertEqual(properties["canSeek"] as? Bool, true)
        XCTAssertEqual((metadata["duration"] as? Double).map { $0 > 0 }, true, "\(metadata)")
        XCTAssertEqual(metadata["trackId"] as? String, try trackID())
        // A cover file of Aubade's is sent as data; snapserver serves it from its own HTTP server.
        let artURL = try XCTUnwrap(metadata["artUrl"] as? String)
        XCTAssertTrue(artURL.contains("__image_cache"), artURL)
        // The next track's metadata: title, artist, album.
        try playerctl("next")
        try eventually("the stream's metadata for House Noise", timeout: 10) {
            metadata = (try client.stream()["properties"] as? [String: Any])?["metadata"] as? [String: Any] ?? [:]
            return metadata["title"] as? String == "House Noise"
        }
        XCTAssertEqual(metadata["artist"] as? [String], ["Ada"])
        XCTAssertEqual(metadata["album"] as? String, "Rooms")
        XCTAssertEqual(metadata["duration"] as? Double ?? 0, 30, accuracy: 0.5)
        // `aubade status` says where the music goes.
        let status = try Shell.run(try Daemon.binaryPath(), ["status"])
        XCTAssertTrue(status.stdout.contains("networkStream — Snapcast"), status.stdout)
        XCTAssertTrue(status.stdout.contains(snapserver.fifo.path), status.stdout)
    }

    func testStreamControlReachesAubadeAndComesBackAsOnProperties() throws {
        let music = try SnapcastMusic.shared()
        try startAubade([music.noise, music.noise2])
        try waitForStatus("Playing")
        let client = try controlClient()
        func properties(after mark: Int, _ what: String, where match: @escaping ([String: Any]) -> Bool) {
            XCTAssertNotNil(client.waitForProperties(after: mark, where: match), "no Stream.OnProperties with \(what)")
        }

        var mark = client.notifications.count
        try client.control("pause")
        try waitForStatus("Paused")
        properties(after: mark, "playbackStatus paused") { $0["playbackStatus"] as? String == "paused" }

        mark = client.notifications.count
        try client.control("play")
        try waitForStatus("Playing")
        properties(after: mark, "playbackStatus playing") { $0["playbackStatus"] as? String == "playing" }

        mark = client.notifications.count
        try client.control("next")
        try waitForTitle("Second Noise")
        properties(after: mark, "the next title") { ($0["metadata"] as? [String: Any])?["title"] as? String == "Second Noise" }

        mark = client.notifications.count
        try client.control("setPosition", ["position": 20.0])
        try eventually("Position at 20 s") { try position() >= 19_000_000 && position() < 23_000_000 }
        properties(after: mark, "position 20") { ($0["position"] as? Double).map { $0 >= 19.5 && $0 < 21 } == true }

        mark = client.notifications.count
        try client.control("seek", ["offset": -10.0])
        try eventually("Position back to about 10 s") { try position() < 14_000_000 }
        properties(after: mark, "position about 10") { ($0["position"] as? Double).map { $0 < 14 } == true }

        mark = client.notifications.count
        try client.control("previous")
        try waitForTitle("House Noise")
        properties(after: mark, "the previous title") { ($0["metadata"] as? [String: Any])?["title"] as? String == "House Noise" }

        mark = client.notifications.count
        try client.setProperty("volume", 40)
        try eventually("Volume 0.4") { try playerProperty("Volume").double == 0.4 }
        properties(after: mark, "volume 40") { $0["volume"] as? Int == 40 }

        try client.setProperty("shuffle", true)
        try eventually("Shuffle on") { try playerProperty("Shuffle").bool == true }
        try client.setProperty("loopStatus", "playlist")
        try eventually("LoopStatus Playlist") { try playerProperty("LoopStatus").string == "Playlist" }
        properties(after: mark, "shuffle and loop") { $0["shuffle"] as? Bool == true && $0["loopStatus"] as? String == "playlist" }

        mark = client.notifications.count
        try client.control("playPause")
        try waitForStatus("Paused")
        try client.control("stop")
        try waitForStatus("Stopped")
        properties(after: mark, "stopped") { $0["playbackStatus"] as? String == "stopped" }
    }

    func testARoomThatJoinsMidTrackHearsTheSameSong() throws {
        try requireRoomsOnPulseAudio()
        try openRooms([.kitchen])
        try waitForRooms()
        try startAubade([try SnapcastMusic.shared().noise])
        try waitForStatus("Playing")
        let title = try self.title()
        try eventually("3 s into the track", timeout: 10) { try position() > 3_000_000 }
        // The garden's snapclient starts now, mid-track.
        try openRooms([.garden])
        try waitForRooms()
        // snapclient settles its timing in its first seconds on a new stream (on PipeWire it
        // starts ~30 ms off): judged once it has.
        let (kitchen, garden) = try recordUntilInStep("joined mid-track", settle: 5)
        XCTAssertGreaterThan(level(garden, lastSeconds: 2), 3000, "the garden, joined mid-track, hears nothing")
        try assertInStep(kitchen, garden, "joined mid-track")
        XCTAssertEqual(try self.title(), title, "the track changed")
    }

    /// Records the house for 3 s after `settle` s, and again (up to three rounds in all) while
    /// the rooms are more than 5 ms apart: snapclient steers each room's clock towards the
    /// server's by small corrections, and on a loaded machine (CI: two cores, four tests at
    /// once) a room can start 5 to 9 ms off and come into step seconds later (seen in 3 of ~30
    /// runs). The claim judged is that the rooms come into step, and the last round is judged.
    private func recordUntilInStep(_ what: String, settle: Double) throws -> (kitchen: ToneAnalysis, garden: ToneAnalysis) {
        var round = 0
        while true {
            round += 1
            let recording = try startRecording()
            _ = recording.waitForSeconds(recording.seconds + (round == 1 ? settle : 0), timeout: 20)
            let rooms = try record(recording, for: 3)
            let kitchen = try XCTUnwrap(rooms[.kitchen]), garden = try XCTUnwrap(rooms[.garden])
            let (median, largest, _) = offsets(kitchen, garden)
            if (abs(median) <= 5 && largest <= 5) || round == 3 || !Sanitizer.judgesTime { return (kitchen, garden) }
            print(String(format: "%@, round %d: %+.2f ms apart (largest %.2f ms); recording again", what, round, median, largest))
        }
    }

    private func offsets(_ kitchen: ToneAnalysis, _ garden: ToneAnalysis) -> (median: Double, largest: Double, correlation: Double) {
        let count = min(kitchen.samples.count, garden.samples.count)
        let rate = ToneAnalysis.rate
        return CrossCorrelation.offsets(kitchen.samples, garden.samples, span: (count - Int(2 * rate))..<(count - Int(0.1 * rate)),
                                        rate: rate, maximumLag: Int(0.05 * rate))
    }

    /// The two rooms play the same music within 5 ms of each other, over the last 2 s recorded.
    /// Under a sanitizer, where these tests run beside others, the same music only: how far
    /// apart two snapclients play on a loaded machine is theirs (`Sanitizer.judgesTime`).
    private func assertInStep(_ kitchen: ToneAnalysis, _ garden: ToneAnalysis, _ what: String,
                              file: StaticString = #filePath, line: UInt = #line) throws {
        let (median, largest, correlation) = offsets(kitchen, garden)
        print(String(format: "%@: the garden %+.2f ms from the kitchen (median of 100 ms windows; largest %.2f ms; correlation %.3f)",
                     what, median, largest, correlation))
        XCTAssertGreaterThan(correlation, 0.8, "the rooms do not play the same music", file: file, line: line)
        guard Sanitizer.judgesTime else { return }
        XCTAssertLessThanOrEqual(abs(median), 5, String(format: "the rooms are %.2f ms apart", median), file: file, line: line)
        XCTAssertLessThanOrEqual(largest, 5, String(format: "the rooms were %.2f ms apart in one window", largest), file: file, line: line)
    }
}
