import Foundation
import XCTest
@testable import TestSupport

/// How the MPD front-end's sockets behave, beyond what mpd's answers say (MPDSideBySideTests):
/// its Unix socket is served and stays the first daemon's, and every answer leaves in one write.
final class MPDSocketTests: AubadeTestCase {
    private var socketPath: String {
        (ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"] ?? "/tmp") + "/aubade/mpd.socket"
    }

    /// A second `aubade serve` (a second instance on the bus) finds the socket taken: it must
    /// neither take it over nor, when it stops, remove the first one's socket file.
    func testASecondDaemonLeavesTheFirstOnesSocketAlone() throws {
        let first = try startDaemon([fixtures.long])
        XCTAssertNotNil(first.waitForLog(containing: "MPD clients served on \(socketPath)"),
                        "no Unix socket served: \(first.stderrLines)")
        XCTAssertEqual(try MPDConnection(.unix(path: socketPath)).command("ping"), MPDAnswer())
        let second = try startDaemon([fixtures.long2.path], waitingFor: nil)
        try second.waitForBusName(second.instanceBusName)
        XCTAssertNotNil(second.waitForLog(containing: "\(socketPath) is taken"), "\(second.stderrLines)")
        second.stop()
        let after = try MPDConnection(.unix(path: socketPath), connectTimeout: 1)
        XCTAssertEqual(try after.command("currentsong").value("Title"), "Long One", "another server answers on the socket")
    }

    /// An answer and its `OK` leave in one write. Written apart, the `OK` waited for the
    /// client's delayed ACK (Nagle): 44 ms a `status` over TCP, where mpd takes 0.3 ms.
    func testEveryAnswerLeavesWholeInOneWrite() throws {
        let playlists = TestRunDirectory.url.appendingPathComponent("playlists-\(UUID().uuidString)")
        let aubade = try startMPDDaemon(music: fixtures.albumDirectory, playlists: playlists)
        for unix in [false, true] {
            let client = try aubade.connect(unix: unix)
            for line in Array(repeating: ["status", "stats", "outputs", "commands", "tagtypes"], count: 4).joined() {
                try client.send(line)
                let piece = try client.readOnce()
                XCTAssertTrue(piece.count > 3 && piece.suffix(3) == Array("OK\n".utf8),
                              "\(line) over \(unix ? "the Unix socket" : "TCP") came in pieces: \(MPDAnswer.text(piece))")
                if piece.suffix(3) != Array("OK\n".utf8) { _ = try client.readAnswer() }
            }
        }
    }
}
