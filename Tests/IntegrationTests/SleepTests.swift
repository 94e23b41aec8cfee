import DBusKit
import Dispatch
import Foundation
import XCTest
@testable import TestSupport

/// Pausing before system sleep, against a stand-in logind on a private "system" bus: the
/// daemon takes a delay inhibitor, pauses on PrepareForSleep(true), then releases the
/// inhibitor so the suspend can go on; it does not resume by itself.
final class SleepTests: AubadeTestCase {
    private var systemBus: Subprocess?
    private var logind: FakeLogind?

    override func tearDown() {
        logind?.close()
        logind = nil
        super.tearDown()
        _ = systemBus?.stop(grace: 3)
        systemBus = nil
    }

    private func startSystemBus() throws -> String {
        let (bus, address) = try StandInSystemBus.start()
        systemBus = bus
        return address
    }

    func testPausesBeforeSleepAndReleasesTheInhibitor() throws {
        let address = try startSystemBus()
        let logind = try FakeLogind(address: address)
        self.logind = logind
        try startDaemon([fixtures.long.path], environment: ["DBUS_SYSTEM_BUS_ADDRESS": address])
        try waitForStatus("Playing")
        try eventually("aubade to take a delay inhibitor", timeout: 5) { logind.inhibitorTaken }
        XCTAssertEqual(logind.inhibitArguments, ["sleep", "Aubade", "Pause the music before sleep", "delay"])

        try logind.prepareForSleep(true)
        try waitForStatus("Paused")
        XCTAssertEqual(try sessionProperty("PauseReason"), .string("sleep"))
        try eventually("the inhibitor to be released", timeout: 5) { logind.inhibitorReleased }

        try logind.prepareForSleep(false)
        try eventually("a new inhibitor after waking", timeout: 5) { logind.inhibitCount == 2 }
        XCTAssertEqual(try playbackStatus(), "Paused", "no automatic resume after sleep")
    }

    func testWithoutASystemBusSleepHandlingIsOffWithOneLogLine() throws {
        let daemon = try startDaemon([fixtures.long.path],
                                     environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/aubade-test"])
        try waitForStatus("Playing")
        XCTAssertNotNil(daemon.waitForLog(containing: "pausing before sleep is off", timeout: 5))
        XCTAssertEqual(daemon.stderrLines.filter { $0.contains("pausing before sleep is off") }.count, 1)
    }

    /// pause-before-sleep = false turns off only that: the inhibitor while playing stays.
    func testTheSleepInhibitorWhilePlayingDoesNotNeedPauseBeforeSleep() throws {
        let address = try startSystemBus()
        let logind = try FakeLogind(address: address)
        self.logind = logind
        let (home, _) = try home(withConfiguration: "pause-before-sleep = false\n")
        try startDaemon([fixtures.long.path], environment: ["DBUS_SYSTEM_BUS_ADDRESS": address], home: home)
        try waitForStatus("Playing")
        try eventually("a block inhibitor while playing", timeout: 5) { logind.blockCount == 1 }
        XCTAssertTrue(logind.holds("block"))
        XCTAssertEqual(logind.inhibitCount, 0, "a delay inhibitor with pause-before-sleep = false")
        try logind.prepareForSleep(true)
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertEqual(try playbackStatus(), "Playing", "paused for sleep with pause-before-sleep = false")
        try playerctl("pause")
        try eventually("the block inhibitor released on pause", timeout: 5) { !logind.holds("block") }
    }

    /// SIGHUP applies both sleep settings (and the log level) at once, and names what needs a
    /// restart.
    func testSighupAppliesTheSleepSettingsAndNamesWhatNeedsARestart() throws {
        let address = try startSystemBus()
        let logind = try FakeLogind(address: address)
        self.logind = logind
        let (home, file) = try home(withConfiguration: "pause-before-sleep = false\ninhibit-sleep-while-playing = false\n")
        let daemon = try startDaemon([fixtures.long.path], environment: ["DBUS_SYSTEM_BUS_ADDRESS": address], home: home)
        try waitForStatus("Playing")
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertEqual(logind.inhibitCount + logind.blockCount, 0, "inhibitors with both settings off")

        let playlists = try makeDirectory("reload-playlists")
        try "playlists-folder = \(playlists.path)\n".write(toFile: file, atomically: true, encoding: .utf8)
        kill(daemon.pid, SIGHUP)
        try eventually("the delay inhibitor after SIGHUP", timeout: 5) { logind.inhibitCount == 1 && logind.holds("delay") }
        try eventually("the block inhibitor after SIGHUP, while playing", timeout: 5) { logind.blockCount == 1 && logind.holds("block") }
        let reloaded = daemon.waitForLog(containing: "configuration reloaded", timeout: 5) ?? ""
        for key in ["pause-before-sleep false → true", "inhibit-sleep-while-playing false → true", "playlists-folder"] {
            XCTAssertTrue(reloaded.contains(key), "\(key) not in: \(reloaded)")
        }
        XCTAssertNotNil(daemon.waitForLog(containing: "playlists-folder takes effect after a restart", timeout: 5))

        // Both off again: both released, while still playing.
        try "pause-before-sleep = no\ninhibit-sleep-while-playing = no\nlog-level = warning\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let before = daemon.stderrLines.count
        kill(daemon.pid, SIGHUP)
        try eventually("both inhibitors released", timeout: 5) { !logind.holds("delay") && !logind.holds("block") }
        XCTAssertEqual(try playbackStatus(), "Playing")
        try logind.prepareForSleep(true)
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertEqual(try playbackStatus(), "Playing", "paused for sleep after pause-before-sleep was turned off")
        // log-level = warning: the reload's own info line is no longer written.
        XCTAssertFalse(daemon.stderrLines.dropFirst(before).contains { $0.contains("configuration reloaded") },
                       daemon.stderrLines.dropFirst(before).joined(separator: "\n"))
    }

    private func sessionProperty(_ name: String) throws -> TypedBusValue {
        try Bus.get("org.aubade.AudioSession1", name)
    }
}

/// Owns org.freedesktop.login1 on the given bus: answers Inhibit with one end of a pipe (the
/// lock is held while the caller keeps its copy open) and emits PrepareForSleep on demand.
final class FakeLogind: @unchecked Sendable {
    private let queue = DispatchQueue(label: "fake-logind")
    private let connection: Connection
    private let lock = NSLock()
    private var readEnds: [Int32] = []
    private var calls: [[String]] = []

    init(address: String) throws {
        let queue = self.queue
        connection = try queue.sync { () throws -> Connection in
            let connection = try Connection(bus: .address(address), queue: queue)
            _ = try connection.requestName("org.freedesktop.login1")
            return connection
        }
        try queue.sync {
            try connection.registerObject(path: "/org/freedesktop/login1") { [weak self] message in
                self?.receive(message)
            }
        }
    }

    /// How many "delay" inhibitors were asked for (aubade also holds a "block" one while playing).
    var inhibitCount: Int { lock.withLock { calls.filter { $0.last == "delay" }.count } }
    /// The arguments of the first "delay" Inhibit.
    var inhibitArguments: [String] { lock.withLock { calls.first { $0.last == "delay" } ?? [] } }
    var inhibitorTaken: Bool { inhibitCount > 0 }
    /// How many "block" inhibitors (inhibit-sleep-while-playing) were asked for.
    var blockCount: Int { lock.withLock { calls.filter { $0.last == "block" }.count } }

    /// Whether aubade still holds the `index`th inhibitor of `mode` (its read end sees no EOF).
    func holds(_ mode: String, index: Int = 0) -> Bool {
        let found: Int32? = lock.withLock {
            let indices = calls.indices.filter { calls[$0].last == mode }
            return indices.indices.contains(index) ? readEnds[indices[index]] : nil
        }
        guard let fd = found else { return false }
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) == 0
    }

    /// The first "delay" inhibitor's descriptor was closed by aubade: its read end sees end-of-file.
    var inhibitorReleased: Bool {
        guard let fd = lock.withLock({ calls.firstIndex { $0.last == "delay" }.map { readEnds[$0] } }) else { return false }
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 0) == 1 else { return false }
        var byte: UInt8 = 0
        return read(fd, &byte, 1) == 0
    }

    func prepareForSleep(_ sleeping: Bool) throws {
        try queue.sync {
            let signal = try Message.signal(path: "/org/freedesktop/login1", interface: "org.freedesktop.login1.Manager",
                                            member: "PrepareForSleep", arguments: [.boolean(sleeping)])
            try connection.send(signal)
        }
    }

    func close() {
        queue.sync { connection.close() }
        lock.withLock { for fd in readEnds { Glibc.close(fd) } }
    }

    private func receive(_ message: Message) {
        guard message.kind == .methodCall, message.member == "Inhibit" else {
            try? connection.send(message.makeError(.unknownMethod("only Inhibit here")))
            return
        }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0, let reply = try? message.makeReturn([.unixFD(ends[1])]) else { return }
        // The reply holds its own duplicate of the write end; ours goes, so that EOF on the
        // read end means aubade closed its copy.
        Glibc.close(ends[1])
        lock.withLock {
            readEnds.append(ends[0])
            calls.append(((try? message.arguments()) ?? []).compactMap(\.asString))
        }
        try? connection.send(reply)
    }
}
