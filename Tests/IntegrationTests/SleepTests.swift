import DBusKit
import Dispatch
import Foundation
import XCTest

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
        // Its socket in TMPDIR, where `make test` sees it if left behind (session.conf says /tmp).
        let bus = try Subprocess("/usr/bin/dbus-daemon", ["--session", "--nofork", "--nopidfile", "--print-address=1",
                                                          "--address=unix:tmpdir=\(NSTemporaryDirectory())"])
        systemBus = bus
        guard let address = bus.stdout.waitForLine(containing: "unix:", from: 0, timeout: 5) else {
            throw DaemonError("the stand-in system bus printed no address")
        }
        return address.trimmingCharacters(in: .whitespacesAndNewlines)
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

    private func sessionProperty(_ name: String) throws -> DBusValue {
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
