import Foundation
import XCTest
@testable import TestSupport

/// org.mpris.MediaPlayer2 and the standard interfaces on /org/mpris/MediaPlayer2.
final class RootInterfaceTests: AubadeTestCase {
    func testRootPropertiesDescribeAubade() throws {
        try startDaemon([fixtures.long])
        let root = try Bus.getAll(Bus.rootInterface)
        XCTAssertEqual(root["Identity"], .string("Aubade"))
        XCTAssertEqual(root["DesktopEntry"], .string("aubade"))
        // The entry it names is the one make install installs (shells read its Name and Icon).
        let repository = Repository.root
        XCTAssertTrue(FileManager.default.fileExists(atPath: repository.appendingPathComponent("desktop/aubade.desktop").path))
        XCTAssertEqual(root["CanQuit"], .boolean(true))
        XCTAssertEqual(root["CanRaise"], .boolean(false))
        XCTAssertEqual(root["HasTrackList"], .boolean(true))
        XCTAssertEqual(root["SupportedUriSchemes"]?.signature, "as")
        XCTAssertEqual(root["SupportedUriSchemes"]?.strings, ["file", "http", "https"])
        XCTAssertEqual(root["SupportedMimeTypes"]?.signature, "as")
        // Every format it plays, not MP3 alone (it did, while FLAC and Ogg played).
        for type in ["audio/mpeg", "audio/flac", "audio/ogg", "audio/opus", "audio/x-mpegurl"] {
            XCTAssertTrue(root["SupportedMimeTypes"]?.strings?.contains(type) == true,
                          "SupportedMimeTypes lacks \(type): \(root["SupportedMimeTypes"].map(String.init(describing:)) ?? "missing")")
        }
    }

    func testQuitExitsWithZeroAndReleasesTheName() throws {
        let daemon = try startDaemon([fixtures.long])
        let reply = try Bus.call("\(Bus.rootInterface).Quit")
        XCTAssertTrue(reply.succeeded, "Quit must be answered before the daemon exits: \(reply)")
        XCTAssertEqual(daemon.waitForExit(timeout: 5), 0, "aubade should exit 0 after Quit")
        try eventually("\(Daemon.busName) released") { try !Bus.nameHasOwner(Daemon.busName) }
    }

    func testRaiseSucceedsAndChangesNothing() throws {
        try startPlaying([fixtures.long])
        let reply = try Bus.call("\(Bus.rootInterface).Raise")
        XCTAssertTrue(reply.succeeded, "Raise: \(reply)")
        XCTAssertEqual(try playbackStatus(), "Playing")
    }

    func testIntrospectionListsEveryInterface() throws {
        try startDaemon([fixtures.long])
        let reply = try Bus.call("org.freedesktop.DBus.Introspectable.Introspect")
        XCTAssertTrue(reply.succeeded, "Introspect: \(reply)")
        let xml = reply.values.first?.string ?? ""
        for interface in ["org.mpris.MediaPlayer2", "org.mpris.MediaPlayer2.Player",
                          "org.freedesktop.DBus.Properties", "org.freedesktop.DBus.Introspectable",
                          "org.freedesktop.DBus.Peer"] {
            XCTAssertTrue(xml.contains("<interface name=\"\(interface)\">"), "Introspect lacks \(interface)")
        }
        XCTAssertTrue(xml.contains("<signal name=\"Seeked\">"), "Introspect lacks the Seeked signal")
    }

    func testPeerPingAnswers() throws {
        try startDaemon([fixtures.long])
        let reply = try Bus.call("org.freedesktop.DBus.Peer.Ping")
        XCTAssertTrue(reply.succeeded, "Ping: \(reply)")
    }

    func testPlayerctlFindsThePlayer() throws {
        try startDaemon([fixtures.long])
        let players = try Shell.run("playerctl", ["--list-all"])
        XCTAssertTrue(players.stdout.split(separator: "\n").contains("aubade"), "playerctl --list-all: \(players)")
    }
}
