import Foundation
import XCTest
@testable import TestSupport

/// The two command-line verbs of the audio session: `aubade monitor` (one line per remote
/// command, route change and interruption, until killed) and `aubade route`.
final class AudioSessionCommandTests: AudioSessionTestCase {
    private var monitors: [Subprocess] = []

    override func tearDown() {
        for process in monitors { process.stop(grace: 2) }
        monitors.removeAll()
        super.tearDown()
    }

    func testMonitorPrintsTheUnplug() throws {
        try startPlayingOnHeadphones()
        let monitor = try Subprocess(try Daemon.binaryPath(), ["monitor"])
        monitors.append(monitor)
        // There is no "ready" line to wait for: send remote commands (a no-op Play while
        // playing) until the monitor prints one, so it is surely listening.
        let deadline = Date(timeIntervalSinceNow: 10)
        while monitor.stdout.lines.isEmpty {
            guard monitor.isRunning else {
                XCTFail("aubade monitor exited with \(monitor.status.map(String.init) ?? "?"): \(monitor.stderr.text)")
                return
            }
            guard Date() < deadline else {
                XCTFail("aubade monitor printed nothing for 10 s of remote commands; stderr: \(monitor.stderr.text)")
                return
            }
            _ = try Playerctl.run("play")
            _ = monitor.stdout.waitForLine(timeout: 0.3) { _ in true }
        }
        let start = monitor.stdout.lines.count

        try Pulse.unloadNullSink("headphones")

        let line = monitor.stdout.waitForLine(containing: "oldDeviceUnavailable", from: start, timeout: 5)
        XCTAssertNotNil(line, "aubade monitor printed no oldDeviceUnavailable line; it printed:\n"
                        + monitor.stdout.lines.joined(separator: "\n") + "\nstderr: \(monitor.stderr.text)")
        print("aubade monitor: \(line ?? "-")")
        XCTAssertTrue(monitor.isRunning, "aubade monitor should run until killed")
    }

    func testRoutePrintsTheHeadphones() throws {
        try startPlayingOnHeadphones()
        let result = try Shell.run(try Daemon.binaryPath(), ["route"])
        XCTAssertTrue(result.succeeded, "aubade route: \(result)")
        XCTAssertTrue(result.stdout.contains("headphones"), "aubade route: \(result)")
        print("aubade route: \(result.trimmedOutput)")
    }
}
