import Foundation
import XCTest
@testable import TestSupport

/// The queue plays on by itself; LoopStatus and Shuffle change what comes next.
/// Uses the 1.5 s tracks "Short One/Two/Three".
final class QueueTests: AubadeTestCase {
    private var shortTracks: [URL] { fixtures.shortTracks }

    func testQueueAdvancesByItselfAndStopsAtTheEnd() throws {
        try startDaemon(Array(shortTracks.prefix(2)))
        try waitForTitle("Short Two", timeout: 8)
        try waitForStatus("Stopped", timeout: 8)
        XCTAssertEqual(try playerProperty("LoopStatus"), .string("None"))
    }

    func testLoopTrackRepeatsTheSameEntry() throws {
        try startDaemon(Array(shortTracks.prefix(2)))
        try playerctl("pause")
        guard let first = try trackID() else { return XCTFail("no trackid") }
        try playerctl("loop", "Track")
        try playerctl("play")
        // Watch for the position to wrap while the track stays the same.
        var highest: Int64 = 0
        var movedTo: String?
        try eventually("the track to start over", timeout: 8) {
            let id = try trackID()
            if id != first {
                movedTo = id ?? "no track"
                return true
            }
            let now = try position()
            highest = max(highest, now)
            return highest > 1_000_000 && now < highest - 500_000
        }
        XCTAssertNil(movedTo, "LoopStatus Track moved from \(first) to another entry")
        XCTAssertEqual(try playbackStatus(), "Playing")
    }

    func testLoopPlaylistWrapsToTheFirstTrack() throws {
        try startDaemon(Array(shortTracks.prefix(2)))
        try playerctl("pause")
        guard let first = try trackID() else { return XCTFail("no trackid") }
        try playerctl("loop", "Playlist")
        try playerctl("play")
        try waitForTitle("Short Two", timeout: 8)
        try eventually("the first entry again", timeout: 8) { try trackID() == first }
        XCTAssertEqual(try playbackStatus(), "Playing")
    }

    func testShufflePlaysEveryTrackOnce() throws {
        try startDaemon(shortTracks)
        try playerctl("pause")
        try playerctl("shuffle", "On")
        try playerctl("play")
        var played: [String] = []
        try eventually("the shuffled queue to end", timeout: 20) {
            if try playbackStatus() == "Stopped" { return true }
            let id = try trackID()
            // Only while still playing: once stopped, Metadata may show the queue's first entry again.
            if let id, id != Bus.noTrack, played.last != id, try playbackStatus() == "Playing" {
                played.append(id)
            }
            return false
        }
        XCTAssertEqual(played.count, 3, "entries played in order: \(played)")
        XCTAssertEqual(Set(played).count, 3, "an entry played twice: \(played)")
    }

    func testLoopAndShuffleReadBackThroughPlayerctl() throws {
        try startDaemon([fixtures.long])
        for mode in ["Track", "Playlist", "None"] {
            try playerctl("loop", mode)
            XCTAssertEqual(try playerctl("loop"), mode)
            XCTAssertEqual(try playerProperty("LoopStatus"), .string(mode))
        }
        try playerctl("shuffle", "On")
        XCTAssertEqual(try playerctl("shuffle"), "On")
        XCTAssertEqual(try playerProperty("Shuffle"), .boolean(true))
        try playerctl("shuffle", "Off")
        XCTAssertEqual(try playerctl("shuffle"), "Off")
    }
}
