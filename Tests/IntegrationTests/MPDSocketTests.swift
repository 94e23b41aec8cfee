import Foundation
import XCTest
@testable import TestSupport

/// How the MPD front-end's sockets behave, beyond what mpd's answers say (MPDSideBySideTests):
/// its Unix socket is served and stays the first daemon's.
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
}
