import Foundation
import XCTest
@testable import TestSupport

/// Broken files are reported and skipped; a folder with nothing to play is an error; a second
/// daemon does not steal the name.
final class BadInputTests: AubadeTestCase {
    func testBadFilesAreLoggedAndTheGoodOnePlays() throws {
        let bad = [fixtures.empty, fixtures.random, fixtures.wavRenamed, fixtures.missing]
        let daemon = try startDaemon([fixtures.alpha] + bad)
        try waitForStatus("Playing")
        XCTAssertEqual(try title(), "Alpha")
        // Reported when queued or when reached: a.mp3 lasts 3 s, so allow for both.
        for file in bad {
            XCTAssertNotNil(daemon.waitForLog(containing: file.lastPathComponent, timeout: 10),
                            "no log line names \(file.lastPathComponent); stderr:\n\(daemon.stderrLines.joined(separator: "\n"))")
        }
        try waitForStatus("Stopped", timeout: 10)
        XCTAssertTrue(daemon.isRunning, "a bad file must not end the daemon")
        assertStillAnswers()
    }

    func testFolderWithoutMusicExitsWithAnErrorNamingIt() throws {
        let daemon = try startDaemon([fixtures.emptyDirectory.path + "/"], waitingFor: nil)
        let status = daemon.waitForExit(timeout: 10)
        XCTAssertNotNil(status, "aubade serve on a folder without music kept running")
        XCTAssertNotEqual(status, 0)
        daemon.process.stderr.waitUntilClosed(timeout: 2)
        let stderr = daemon.stderrLines.joined(separator: "\n")
        XCTAssertTrue(stderr.contains("emptydir"), "the message should name the folder: \(stderr)")
    }

    func testSecondInstanceOwnsAnInstanceName() throws {
        let first = try startDaemon([fixtures.long])
        let owner = try Bus.nameOwner(Daemon.busName)
        let second = try startDaemon([fixtures.long2.path], waitingFor: nil)
        try second.waitForBusName(second.instanceBusName)
        XCTAssertNotNil(second.waitForLog(containing: "instance\(second.pid)"),
                        "the second daemon should log the name it took; stderr:\n\(second.stderrLines.joined(separator: "\n"))")
        XCTAssertEqual(try Bus.nameOwner(Daemon.busName), owner, "the first daemon lost its name")
        XCTAssertTrue(first.isRunning)
    }
}
