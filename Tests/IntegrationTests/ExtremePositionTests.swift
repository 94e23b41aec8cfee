import DBusKit
import Foundation
import XCTest
@testable import TestSupport

/// Issue 10, finding 1 (the bus side): one call killed the daemon —
/// `Seek x 9223372036854775807` while a track plays ended in "Illegal instruction" (an overflow
/// trap in `position + offset`), and SetPosition with huge values reached the same arithmetic.
/// Every offset and position from the bus must be checked or saturated: the daemon answers,
/// keeps its state sane and goes on playing. (The arithmetic itself lives in PlayerCore.)
final class ExtremePositionTests: AubadeTestCase {
    private static let path = "/org/mpris/MediaPlayer2"
    private static let player = "org.mpris.MediaPlayer2.Player"
    private static let extremes: [Int64] = [.max, .min, .max - 1, .min + 1, .max / 2, -(.max / 2), 1 << 62]

    private func start() throws -> (Daemon, BusClient) {
        let daemon = try startPlaying([fixtures.long, fixtures.long2])
        return (daemon, try BusClient())
    }

    /// The daemon process is alive, answers Ping and Get, and reports a status MPRIS knows.
    private func assertAlive(_ daemon: Daemon, _ client: BusClient, after what: String,
                             file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertTrue(daemon.isRunning, "the daemon died after \(what)", file: file, line: line)
        let ping = try client.ping()
        XCTAssertTrue(ping.isReturn, "Ping after \(what): \(ping)", file: file, line: line)
        let status = try client.property(Self.player, "PlaybackStatus")?.asString
        XCTAssertTrue(["Playing", "Paused", "Stopped"].contains(status ?? "none"),
                      "PlaybackStatus after \(what): \(status ?? "no answer")", file: file, line: line)
        let position = try client.property(Self.player, "Position")?.asInt64
        XCTAssertNotNil(position, "Position after \(what)", file: file, line: line)
        if let position { XCTAssertGreaterThanOrEqual(position, 0, "Position after \(what)", file: file, line: line) }
    }

    func testSeekByInt64MaxWhilePlayingActsLikeNext() throws {
        let (daemon, client) = try start()
        let (outcome, _) = try client.call(path: Self.path, interface: Self.player, member: "Seek", [.int64(.max)])
        XCTAssertTrue(outcome.isReply, "Seek(Int64.max): \(outcome)")
        try assertAlive(daemon, client, after: "Seek(Int64.max)")
        // Past the end acts like Next (MPRIS).
        try waitForTitle("Long Two")
        try waitForStatus("Playing")
    }

    func testSeekByInt64MinWhilePlayingClampsToZero() throws {
        let (daemon, client) = try start()
        let (outcome, _) = try client.call(path: Self.path, interface: Self.player, member: "Seek", [.int64(.min)])
        XCTAssertTrue(outcome.isReply, "Seek(Int64.min): \(outcome)")
        try assertAlive(daemon, client, after: "Seek(Int64.min)")
        XCTAssertLessThan(try position(), 2_000_000, "a seek before the start clamps to 0")
        XCTAssertEqual(try title(), "Long One")
        try waitForStatus("Playing")
    }

    func testSetPositionWithExtremesWhilePlayingIsIgnored() throws {
        let (daemon, client) = try start()
        guard let id = try trackID() else { return XCTFail("no mpris:trackid") }
        for value in Self.extremes {
            let (outcome, _) = try client.call(path: Self.path, interface: Self.player, member: "SetPosition",
                                               [.objectPath(id), .int64(value)])
            XCTAssertTrue(outcome.isReply, "SetPosition(\(value)): \(outcome)")
            try assertAlive(daemon, client, after: "SetPosition(\(value))")
        }
        // Beyond the length and below zero are ignored (MPRIS): still the first track, playing.
        XCTAssertEqual(try title(), "Long One")
        XCTAssertLessThan(try position(), 30_000_000)
        try waitForStatus("Playing")
    }

    /// Every extreme as a Seek, while playing, while paused and while stopped, one after the
    /// other: sums of two extremes are where an unchecked `+` traps.
    func testSeekWithEveryExtremeInEveryStateKeepsTheDaemonUp() throws {
        let (daemon, client) = try start()
        for state in ["Play", "Pause", "Stop"] {
            _ = try client.call(path: Self.path, interface: Self.player, member: state)
            for value in Self.extremes + Self.extremes.reversed() {
                let (outcome, _) = try client.call(path: Self.path, interface: Self.player, member: "Seek", [.int64(value)])
                guard outcome.isReply else { return XCTFail("Seek(\(value)) after \(state): \(outcome)") }
            }
            try assertAlive(daemon, client, after: "Seek with every extreme after \(state)")
        }
        // And it still plays.
        _ = try client.call(path: Self.path, interface: Self.player, member: "Play")
        try waitForStatus("Playing")
    }
}
