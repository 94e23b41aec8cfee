import DBusKit
import Foundation
import XCTest
@testable import TestSupport

/// Found by the bus fuzz test: Introspect on the paths above the player (`/`, `/org`,
/// `/org/mpris`) answered whatever arguments came with it, while a wrong signature on
/// Aubade's own interfaces must be an error (InvalidArgs), as it is on the player's path.
/// The same for the guard's object, which the walk from `/` did not find before.
final class IntrospectArgumentsTests: AubadeTestCase {
    private static let introspectable = "org.freedesktop.DBus.Introspectable"

    func testIntrospectWithArgumentsIsInvalidArgsOnEveryPath() throws {
        try startDaemon([fixtures.long])
        let client = try BusClient()
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(null) }
        for path in ["/", "/org", "/org/mpris", "/org/mpris/MediaPlayer2", "/org/aubade", "/org/aubade/Player",
                     "/org/aubade/Guard"] {
            for arguments: [DBusKit.DBusValue] in [[.string("x")], [.int32(1), .boolean(true)], [.unixFD(null)]] {
                let (outcome, _) = try client.call(path: path, interface: Self.introspectable, member: "Introspect", arguments)
                XCTAssertEqual(outcome.errorName, DBusError.invalidArgsName,
                               "Introspect(\(DBusKit.DBusValue.signature(of: arguments))) on \(path): \(outcome)")
            }
            // Without arguments: the XML, naming the way down to the player.
            let (outcome, _) = try client.call(path: path, interface: Self.introspectable, member: "Introspect")
            guard case .returned(let values) = outcome, let xml = values.first?.asString else {
                XCTFail("Introspect on \(path): \(outcome)")
                continue
            }
            XCTAssertTrue(xml.contains("<node"), "Introspect on \(path): \(xml.prefix(200))")
        }
        // `/org` leads to the player, Aubade's own object and the guard's (busctl tree lists them).
        let tree = try IntrospectedTree.walk(client)
        XCTAssertEqual(tree.servingObjects.map(\.path).sorted(), ["/org/aubade/Guard", "/org/aubade/Player", "/org/mpris/MediaPlayer2"])
        let interfaces = { (path: String) in Set(tree.objects.first { $0.path == path }?.interfaces.map(\.name) ?? []) }
        XCTAssertEqual(interfaces("/org/mpris/MediaPlayer2"),
                       ["org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Peer", "org.freedesktop.DBus.Properties",
                        "org.mpris.MediaPlayer2", "org.mpris.MediaPlayer2.Player", "org.mpris.MediaPlayer2.TrackList",
                        "org.mpris.MediaPlayer2.Playlists"], "the MPRIS object carries MPRIS and the standard interfaces only")
        XCTAssertEqual(interfaces("/org/aubade/Player"),
                       ["org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Peer", "org.freedesktop.DBus.Properties",
                        "org.aubade.AudioSession1", "org.aubade.Queue1"])
        XCTAssertTrue(tree.objects.first { $0.path == "/org/aubade/Guard" }?.interfaces.contains { $0.name == "org.aubade.Guard1" } ?? false)
        // A path that is not on the way is still unknown, with or without arguments.
        let (elsewhere, _) = try client.call(path: "/org/elsewhere", interface: Self.introspectable, member: "Introspect",
                                             [.string("x")])
        XCTAssertEqual(elsewhere.errorName, DBusError.unknownObjectName, "\(elsewhere)")
        assertStillAnswers()
    }
}
