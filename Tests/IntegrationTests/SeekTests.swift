import Foundation
import XCTest
@testable import TestSupport

/// Seek (relative) and SetPosition (absolute), with MPRIS's edge rules. Done while paused,
/// so positions can be compared exactly.
final class SeekTests: AubadeTestCase {
    /// Starts paused at the beginning of the 60 s track (then long2).
    private func startPaused() throws {
        try startPlaying([fixtures.long, fixtures.long2])
        try playerctl("pause")
        try waitForStatus("Paused")
    }

    private func assertPosition(_ expected: Double, seconds accuracy: Double = 0.3,
                                file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(Double(try position()) / 1e6, expected, accuracy: accuracy, "Position (s)", file: file, line: line)
    }

    func testAbsoluteAndRelativePositionsWhilePaused() throws {
        try startPaused()
        try playerctl("position", "10")
        try eventually("Position 10 s") { abs(try position() - 10_000_000) < 300_000 }
        try playerctl("position", "5+")
        try eventually("Position 15 s") { abs(try position() - 15_000_000) < 300_000 }
        try playerctl("position", "2-")
        try eventually("Position 13 s") { abs(try position() - 13_000_000) < 300_000 }
        XCTAssertEqual(try playbackStatus(), "Paused", "seeking must not resume")
    }

    func testSeekPastTheEndActsLikeNext() throws {
        try startPaused()
        let reply = try Bus.player("Seek", ["int64:100000000"])
        XCTAssertTrue(reply.succeeded, "\(reply)")
        try waitForTitle("Long Two")
    }

    func testSeekBeforeTheStartClampsToZero() throws {
        try startPaused()
        try playerctl("position", "5")
        try eventually("Position 5 s") { abs(try position() - 5_000_000) < 300_000 }
        let reply = try Bus.player("Seek", ["int64:-10000000"])
        XCTAssertTrue(reply.succeeded, "\(reply)")
        try eventually("Position 0") { try position() < 300_000 }
        XCTAssertEqual(try title(), "Long One")
    }

    func testSetPositionWithAnotherTrackIDIsIgnored() throws {
        try startPaused()
        let before = try position()
        let reply = try Bus.player("SetPosition", ["objpath:/org/aubade/Track/424242", "int64:20000000"])
        XCTAssertTrue(reply.succeeded, "SetPosition with a stale id is ignored, not an error: \(reply)")
        Thread.sleep(forTimeInterval: 0.3)  // nothing to wait for: the change must not come
        try assertPosition(Double(before) / 1e6)
    }

    func testSetPositionBeyondTheLengthIsIgnored() throws {
        try startPaused()
        guard let id = try trackID() else { return XCTFail("no trackid") }
        let before = try position()
        let reply = try Bus.player("SetPosition", ["objpath:\(id)", "int64:120000000"])
        XCTAssertTrue(reply.succeeded, "\(reply)")
        Thread.sleep(forTimeInterval: 0.3)  // nothing to wait for: the change must not come
        try assertPosition(Double(before) / 1e6)
        XCTAssertEqual(try trackID(), id)
    }

    func testSetPositionWithTheCurrentTrackIDJumps() throws {
        try startPaused()
        guard let id = try trackID() else { return XCTFail("no trackid") }
        let reply = try Bus.player("SetPosition", ["objpath:\(id)", "int64:42000000"])
        XCTAssertTrue(reply.succeeded, "\(reply)")
        try eventually("Position 42 s") { abs(try position() - 42_000_000) < 300_000 }
    }
}
