import Foundation
import XCTest
@testable import TestSupport

/// Transport: serve starts playing; play, pause, play-pause, stop, next, previous; Position.
final class PlaybackControlTests: AubadeTestCase {
    func testServeStartsPlayingTheFirstFile() throws {
        try startDaemon([fixtures.long, fixtures.long2])
        try waitForStatus("Playing")
        XCTAssertEqual(try title(), "Long One")
        XCTAssertEqual(try playerctl("status"), "Playing")
    }

    func testPlayPauseToggles() throws {
        try startPlaying([fixtures.long])
        try playerctl("play-pause")
        try waitForStatus("Paused")
        XCTAssertEqual(try playerctl("status"), "Paused")
        try playerctl("play-pause")
        try waitForStatus("Playing")
    }

    func testPauseTwiceStaysPausedAndPlayResumes() throws {
        try startPlaying([fixtures.long])
        try playerctl("pause")
        try waitForStatus("Paused")
        try playerctl("pause")
        XCTAssertEqual(try playbackStatus(), "Paused")
        try playerctl("play")
        try waitForStatus("Playing")
    }

    func testStopThenPlayStartsAgain() throws {
        try startPlaying([fixtures.long])
        try playerctl("stop")
        try waitForStatus("Stopped")
        try playerctl("play")
        try waitForStatus("Playing")
    }

    func testNextAndPreviousMoveThroughTheQueue() throws {
        try startPlaying([fixtures.long, fixtures.long2])
        try playerctl("next")
        try waitForTitle("Long Two")
        XCTAssertEqual(try playbackStatus(), "Playing")
        try playerctl("previous")
        try waitForTitle("Long One")
        XCTAssertEqual(try playbackStatus(), "Playing")
    }

    func testCanGoNextAndPreviousFollowTheQueue() throws {
        try startPlaying([fixtures.long, fixtures.long2])
        XCTAssertEqual(try playerProperty("CanGoNext"), .boolean(true))
        try playerctl("next")
        try waitForTitle("Long Two")
        try eventually("CanGoNext false on the last track") { try playerProperty("CanGoNext") == .boolean(false) }
        XCTAssertEqual(try playerProperty("CanGoPrevious"), .boolean(true))
    }

    func testPositionAdvancesWhilePlayingAndHoldsWhilePaused() throws {
        try startPlaying([fixtures.long])
        let start = try position()
        try eventually("Position to advance by 0.5 s") { try position() >= start + 500_000 }
        try playerctl("pause")
        try waitForStatus("Paused")
        let paused = try position()
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertEqual(Double(try position()), Double(paused), accuracy: 50_000, "Position moved while paused")
    }

    func testServeWithoutPathsWaitsStoppedWithNoTrack() throws {
        try startDaemon([String]())
        XCTAssertEqual(try playbackStatus(), "Stopped")
        let metadata = try metadata()
        XCTAssertTrue(metadata.isEmpty || metadata.keys.sorted() == ["mpris:trackid"],
                      "empty queue should have no metadata besides NoTrack: \(metadata)")
        if let id = metadata["mpris:trackid"] {
            XCTAssertEqual(id, .objectPath(Bus.noTrack))
        }
    }
}
