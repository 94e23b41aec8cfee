import Foundation
import XCTest
import DBusKit

/// A message bus for one test: the session bus if `DBUS_SESSION_BUS_ADDRESS` is set,
/// otherwise a private `dbus-daemon` that `stop()` kills by its pid.
final class TestBus {
    let address: String
    private let daemon: Process?

    init() throws {
        if let address = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty {
            self.address = address
            daemon = nil
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--session", "--nofork", "--print-address=1", "--nopidfile"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        daemon = process
        // The daemon prints its address as the first line once it listens.
        var data = Data()
        while !data.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            data.append(chunk)
        }
        guard let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first else {
            process.terminate()
            throw DBusError.failed("dbus-daemon printed no address")
        }
        address = String(line)
    }

    /// Whether this bus is ours to stop (to test losing the bus).
    var isPrivate: Bool { daemon != nil }

    func stop() {
        guard let daemon, daemon.isRunning else { return }
        kill(daemon.processIdentifier, SIGTERM)  // by pid, never by name
        daemon.waitUntilExit()
    }
}

/// Something set on one queue and read on the test thread.
final class Box<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: T
    init(_ value: T) { storage = value }
    var value: T {
        get { lock.withLock { storage } }
        set { lock.withLock { storage = newValue } }
    }
}

/// A unique well-known name per test, so a real session bus never sees a clash.
func uniqueBusName(_ suffix: String) -> String {
    "org.aubade.DBusKitTest.p\(ProcessInfo.processInfo.processIdentifier).\(suffix)"
}

extension DispatchSemaphore {
    func waitOrFail(_ what: String, seconds: Double = 5, file: StaticString = #filePath, line: UInt = #line) {
        if wait(timeout: .now() + seconds) == .timedOut {
            XCTFail("timed out waiting for \(what)", file: file, line: line)
        }
    }
}
