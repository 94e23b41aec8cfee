import Foundation
import XCTest
@testable import TestSupport

/// The CLI's help and version, `status --json`, and log lines as the journal wants them.
final class HelpAndLoggingTests: AubadeTestCase {
    func testHelpForEveryVerbAndTheVersion() throws {
        let version = try aubade("--version")
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.stdout.hasPrefix("aubade "))
        for verb in ["serve", "status", "queue", "add", "remove", "clear", "save", "playlists", "load", "route", "monitor"] {
            let help = try aubade("help", verb)
            XCTAssertEqual(help.status, 0, verb)
            XCTAssertTrue(help.stdout.contains("usage: aubade \(verb)"), "\(verb): \(help.stdout)")
            XCTAssertEqual(try aubade(verb, "--help").stdout, help.stdout, verb)
        }
        XCTAssertTrue(try aubade("help", "serve").stdout.contains("resume-on-reconnect"), "serve's help lists the configuration keys")
        XCTAssertEqual(try aubade("help", "nonsense").status, 64)
        XCTAssertEqual(try aubade("nonsense").status, 64)
    }

    func testStatusAsJSON() throws {
        try startPlaying([fixtures.long])
        let result = try aubade("status", "--json")
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(object?["status"] as? String, "Playing")
        XCTAssertEqual(object?["title"] as? String, "Long One")
        XCTAssertNotNil(object?["artists"] as? [String])
        XCTAssertNotNil(object?["position"] as? Double)
        XCTAssertEqual(try aubade("status", "--yaml").status, 64)
    }

    /// Under systemd (JOURNAL_STREAM set) each line carries its syslog priority, "<6>" for info.
    func testJournalLinesCarryThePriority() throws {
        let daemon = try startDaemon([fixtures.long.path], environment: ["JOURNAL_STREAM": "8:12345"])
        let line = try XCTUnwrap(daemon.waitForLog(containing: "serving org.mpris.MediaPlayer2.aubade"))
        XCTAssertTrue(line.hasPrefix("<6>"), line)
    }

    func testPlainLinesNameTheLevel() throws {
        let daemon = try startDaemon([fixtures.long.path])
        let line = try XCTUnwrap(daemon.waitForLog(containing: "serving org.mpris.MediaPlayer2.aubade"))
        XCTAssertTrue(line.hasPrefix("aubade: info: "), line)
    }
}
