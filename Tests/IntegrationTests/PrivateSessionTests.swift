import Foundation
import XCTest
@testable import TestSupport

/// `make run` where there is no session bus (a headless box, a root shell) starts a private one
/// (scripts/serve → scripts/audio-session --announce). The client verbs find it there; before,
/// they printed libdbus's "Unable to autolaunch a dbus-daemon without a $DISPLAY" and the user
/// had to copy the address by hand. When there is none, they say so.
final class PrivateSessionTests: XCTestCase {
    private var folder: URL!
    private var serve: Subprocess?

    override func setUpWithError() throws {
        try super.setUpWithError()
        try AudioSession.require()
        folder = TestRunDirectory.url.appendingPathComponent("private-session-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("runtime"), withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.appendingPathComponent("runtime").path)
    }

    override func tearDown() {
        if let serve {
            if (testRun?.failureCount ?? 0) > 0 { print("--- scripts/serve:\n\(serve.stdout.text)\(serve.stderr.text)") }
            serve.stop(grace: 5)
        }
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    /// A shell with no session bus: no DBUS_SESSION_BUS_ADDRESS, its own XDG_RUNTIME_DIR.
    private var bare: [String: String?] {
        ["DBUS_SESSION_BUS_ADDRESS": nil, "PULSE_SERVER": nil, "PULSE_CLIENTCONFIG": nil, "PULSE_COOKIE": nil,
         "XDG_RUNTIME_DIR": folder.appendingPathComponent("runtime").path]
            .merging(Daemon.privateHome(folder.appendingPathComponent("home")).mapValues { $0 }) { $1 }
    }
    private var announcement: URL { folder.appendingPathComponent("runtime/aubade/private-session") }

    private func aubade(_ arguments: [String]) throws -> CommandResult {
        try Shell.run(try Daemon.binaryPath(), arguments, environment: bare, timeout: 20)
    }

    func testTheClientVerbsFindTheSessionMakeRunStarted() throws {
        let repository = ServiceTests.repository
        var environment = bare
        environment["AUBADE_BINARY"] = try Daemon.binaryPath()
        let serve = try Subprocess(repository.appendingPathComponent("scripts/serve").path,
                                   [try TestMusic.shared().long.path], environment: environment, currentDirectory: repository)
        self.serve = serve
        let deadline = Date(timeIntervalSinceNow: 20)
        var status = try aubade(["status"])
        while !status.stdout.contains("Long One") {
            guard serve.isRunning, Date() < deadline else {
                return XCTFail("aubade status never found the private session: \(status); serve: \(serve.stderr.text)")
            }
            Thread.sleep(forTimeInterval: 0.1)
            status = try aubade(["status"])
        }
        XCTAssertTrue(status.succeeded, "\(status)")
        XCTAssertTrue(serve.stderr.text.contains(announcement.path), "make run says where it announced the session")

        let monitor = try Subprocess(try Daemon.binaryPath(), ["monitor"], environment: bare)
        defer { monitor.stop(grace: 1) }
        XCTAssertNotNil(monitor.stdout.waitForLine(containing: "watching", timeout: 10), "monitor: \(monitor.stderr.text)")
        XCTAssertTrue(try aubade(["add", try TestMusic.shared().alpha.path]).succeeded)

        // make run ends: the announcement goes with it, and the verbs say there is no session.
        serve.stop(grace: 10)
        XCTAssertFalse(FileManager.default.fileExists(atPath: announcement.path), "the announcement outlived the session")
        let after = try aubade(["status"])
        XCTAssertEqual(after.status, 1, "\(after)")
        XCTAssertTrue(after.stderr.contains("no session bus") && after.stderr.contains("make run"), after.stderr)
        XCTAssertFalse(after.stderr.contains("autolaunch"), after.stderr)
    }

    func testWithNoSessionAtAllTheVerbsSaySoClearly() throws {
        for verb in [["status"], ["queue"], ["monitor"]] {
            let result = try aubade(verb)
            XCTAssertEqual(result.status, 1, "\(verb): \(result)")
            XCTAssertTrue(result.stderr.contains("no session bus: DBUS_SESSION_BUS_ADDRESS is not set"), "\(verb): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(announcement.path), "\(verb) names where it looked: \(result.stderr)")
        }
    }

    /// A session that ended without removing its announcement (killed): said to be gone.
    func testAStaleAnnouncementIsSaidToBeGone() throws {
        try FileManager.default.createDirectory(at: announcement.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try "DBUS_SESSION_BUS_ADDRESS=unix:path=\(folder.path)/no-bus-here\n".write(to: announcement, atomically: true, encoding: .utf8)
        let result = try aubade(["status"])
        XCTAssertEqual(result.status, 1, "\(result)")
        XCTAssertTrue(result.stderr.contains("is gone"), result.stderr)
    }

    /// An announcement in a folder others may write in is not trusted: it could name anyone's bus.
    func testAnAnnouncementOthersCouldHaveWrittenIsRefused() throws {
        try FileManager.default.createDirectory(at: announcement.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: announcement.deletingLastPathComponent().path)
        try "DBUS_SESSION_BUS_ADDRESS=unix:path=/tmp/someone-elses-bus\n".write(to: announcement, atomically: true, encoding: .utf8)
        let result = try aubade(["status"])
        XCTAssertEqual(result.status, 1, "\(result)")
        XCTAssertTrue(result.stderr.contains("not trusted"), result.stderr)
    }
}
