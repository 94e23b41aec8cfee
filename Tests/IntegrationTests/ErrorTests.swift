import Foundation
import XCTest
@testable import TestSupport

/// Wrong calls get the D-Bus error MPRIS names, change nothing, and the daemon goes on.
final class ErrorTests: AubadeTestCase {
    func testSettingReadOnlyPlaybackStatusIsRefused() throws {
        try startPlaying([fixtures.long])
        let reply = try Bus.set(Bus.playerInterface, "PlaybackStatus", "string:Stopped")
        XCTAssertTrue(["org.freedesktop.DBus.Error.PropertyReadOnly", "org.freedesktop.DBus.Error.InvalidArgs"]
            .contains(reply.errorName ?? "none"), "\(reply)")
        XCTAssertEqual(try playbackStatus(), "Playing")
        assertStillAnswers()
    }

    func testBogusLoopStatusIsInvalidArgs() throws {
        try startDaemon([fixtures.long])
        let reply = try Bus.set(Bus.playerInterface, "LoopStatus", "string:Bogus")
        XCTAssertEqual(reply.errorName, "org.freedesktop.DBus.Error.InvalidArgs", "\(reply)")
        XCTAssertEqual(try playerProperty("LoopStatus"), .string("None"))
        assertStillAnswers()
    }

    func testVolumeGivenAsStringIsInvalidArgs() throws {
        try startDaemon([fixtures.long])
        let before = try playerProperty("Volume")
        let reply = try Bus.set(Bus.playerInterface, "Volume", "string:loud")
        XCTAssertEqual(reply.errorName, "org.freedesktop.DBus.Error.InvalidArgs", "\(reply)")
        XCTAssertEqual(try playerProperty("Volume"), before)
        assertStillAnswers()
    }

    func testUnknownPropertyIsUnknownProperty() throws {
        try startDaemon([fixtures.long])
        let reply = try Bus.getRaw(Bus.playerInterface, "Frobnicity")
        XCTAssertEqual(reply.errorName, "org.freedesktop.DBus.Error.UnknownProperty", "\(reply)")
        assertStillAnswers()
    }

    func testUnknownMethodIsUnknownMethod() throws {
        try startDaemon([fixtures.long])
        let reply = try Bus.player("Frobnicate")
        XCTAssertEqual(reply.errorName, "org.freedesktop.DBus.Error.UnknownMethod", "\(reply)")
        assertStillAnswers()
    }

    func testSeekWithAStringIsInvalidArgs() throws {
        try startPlaying([fixtures.long])
        let reply = try Bus.player("Seek", ["string:ten"])
        XCTAssertEqual(reply.errorName, "org.freedesktop.DBus.Error.InvalidArgs", "\(reply)")
        XCTAssertEqual(try playbackStatus(), "Playing")
        assertStillAnswers()
    }

    func testSetPositionWithoutArgumentsIsInvalidArgs() throws {
        try startPlaying([fixtures.long])
        let reply = try Bus.player("SetPosition")
        XCTAssertEqual(reply.errorName, "org.freedesktop.DBus.Error.InvalidArgs", "\(reply)")
        assertStillAnswers()
    }
}
