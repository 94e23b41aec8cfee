import DBusKit
import Foundation
import XCTest
@testable import TestSupport

/// Issue 10, finding 2: libdbus hands out a duplicate of every `h` (file descriptor) value read
/// from a message, and the daemon used to read them — for CommandReceived, for signature
/// checks, once per candidate interface of a call without one — and never close them.
/// 6,000 random calls took it from 18 to 69 open descriptors. Nothing read from a message may leak.
final class DescriptorLeakTests: AubadeTestCase {
    private static let path = "/org/mpris/MediaPlayer2"
    private static let player = "org.mpris.MediaPlayer2.Player"
    private static let properties = "org.freedesktop.DBus.Properties"

    func testHostileCallsWithDescriptorsLeaveTheDescriptorCountFlat() throws {
        let daemon = try startPlaying([fixtures.long])
        let client = try BusClient()
        let sent = open("/dev/null", O_RDONLY | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(sent, 0, "open /dev/null")
        defer { close(sent) }
        let fd = DBusKit.DBusValue.unixFD(sent)
        let fds = DBusKit.DBusValue.array(elementSignature: "h", Array(repeating: fd, count: 4))

        // Every way a call can reach code that reads its body: the right member with the wrong
        // signature, a property write, a call without an interface (tried on every interface),
        // a method that loads files, an unknown method, interface and path.
        let calls: [(interface: String?, member: String, path: String, arguments: [DBusKit.DBusValue])] = [
            (Self.player, "Seek", Self.path, [fd]),
            (Self.player, "SetPosition", Self.path, [.objectPath("/x"), fd]),
            (Self.player, "OpenUri", Self.path, [fd]),
            (Self.player, "Play", Self.path, [fd]),
            (Self.properties, "Set", Self.path, [.string(Self.player), .string("Volume"), .variant(fd)]),
            (Self.properties, "Set", Self.path, [.string(Self.player), .string("Rate"), .variant(fds)]),
            (Self.properties, "Get", Self.path, [fd, fd]),
            (nil, "Seek", Self.path, [fd]),
            (nil, "Frobnicate", Self.path, [fds]),
            ("org.mpris.MediaPlayer2.TrackList", "AddTrack", Self.path, [fd, .objectPath("/"), .boolean(false)]),
            ("org.aubade.Queue1", "SaveAsPlaylist", "/org/aubade/Player", [fd]),
            ("org.example.Nothing", "Seek", Self.path, [fd]),
            (Self.player, "Seek", "/org/elsewhere", [fds]),
        ]
        // Warm up: the first calls may open things that stay open (none known, but be fair).
        for call in calls {
            _ = try client.call(path: call.path, interface: call.interface, member: call.member, call.arguments)
        }
        let before = try ProcessFacts.openDescriptors(of: daemon.pid)
        let rounds = 50
        var unanswered: [String] = []
        for _ in 0..<rounds {
            for call in calls {
                let (outcome, _) = try client.call(path: call.path, interface: call.interface, member: call.member,
                                                   call.arguments)
                if !outcome.isReply { unanswered.append("\(call.interface ?? "-").\(call.member): \(outcome)") }
            }
        }
        XCTAssertEqual(unanswered, [], "calls without a reply")
        let ping = try client.ping()
        XCTAssertTrue(ping.isReturn, "Ping after the calls: \(ping)")
        let after = try ProcessFacts.openDescriptors(of: daemon.pid)
        XCTAssertLessThanOrEqual(after, before + 2,
                                 "\(rounds * calls.count) calls with descriptors: \(before) → \(after) open descriptors:\n"
                                    + ProcessFacts.descriptorTargets(of: daemon.pid).joined(separator: "\n"))
        XCTAssertEqual(try playbackStatus(), "Playing")
    }
}
