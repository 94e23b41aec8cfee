import Foundation
import XCTest
@testable import TestSupport

/// OpenUri plays a local file now; anything it cannot play is an error and changes nothing.
final class OpenUriTests: AubadeTestCase {
    func testOpenPlaysTheFileNow() throws {
        try startPlaying([fixtures.long])
        try playerctl("open", fixtures.long2.absoluteString)
        try waitForTitle("Long Two")
        XCTAssertEqual(try playbackStatus(), "Playing")
    }

    func testOpenWhenStoppedStartsPlaying() throws {
        try startPlaying([fixtures.long])
        try playerctl("stop")
        try waitForStatus("Stopped")
        try playerctl("open", fixtures.long2.absoluteString)
        try waitForTitle("Long Two")
        try waitForStatus("Playing")
    }

    func testOpenDecodesPercentEncodedPaths() throws {
        try startPlaying([fixtures.long])
        let reply = try Bus.player("OpenUri", ["string:\(fixtures.untagged.absoluteString)"])
        XCTAssertTrue(reply.succeeded, "OpenUri \(fixtures.untagged.absoluteString): \(reply)")
        try waitForTitle("c tone")
    }

    func testOpeningABadFileFailsAndChangesNothing() throws {
        try startPlaying([fixtures.long])
        let id = try trackID()
        let result = try Playerctl.run("open", fixtures.random.absoluteString)
        XCTAssertNotEqual(result.status, 0, "playerctl open of random bytes should fail: \(result)")
        XCTAssertEqual(try trackID(), id)
        XCTAssertEqual(try playbackStatus(), "Playing")
    }

    func testOpeningAMissingFileIsADBusError() throws {
        try startPlaying([fixtures.long])
        let id = try trackID()
        let result = try Bus.gdbusCall("\(Bus.playerInterface).OpenUri", ["'\(fixtures.missing.absoluteString)'"])
        XCTAssertNotEqual(result.status, 0, "\(result)")
        XCTAssertTrue(result.stderr.contains("GDBus.Error:"), "\(result)")
        XCTAssertEqual(try trackID(), id)
        assertStillAnswers()
    }

    func testOpeningAnUnsupportedSchemeOrABadStreamAddressIsRefused() throws {
        try startPlaying([fixtures.long])
        let id = try trackID()
        for uri in ["ftp://example.com/song.mp3", "http://example.com/a song.mp3", "https:///no-host"] {
            let result = try Bus.gdbusCall("\(Bus.playerInterface).OpenUri", ["'\(uri)'"])
            XCTAssertNotEqual(result.status, 0, "\(uri): \(result)")
            XCTAssertTrue(result.stderr.contains("GDBus.Error:"), "\(result)")
        }
        XCTAssertEqual(try trackID(), id)
        XCTAssertEqual(try playbackStatus(), "Playing")
    }
}
