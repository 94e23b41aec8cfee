import Foundation

/// A private dbus-daemon standing in for the system bus, for the stand-in logind of the sleep
/// tests (`FakeLogind`, `RecordingLogind`). The test stops it by PID.
enum StandInSystemBus {
    /// Starts one; returns it and its address.
    static func start() throws -> (bus: Subprocess, address: String) {
        // Its socket in TMPDIR, where `make test` sees it if left behind (session.conf says /tmp).
        let bus = try Subprocess("/usr/bin/dbus-daemon", ["--session", "--nofork", "--nopidfile", "--print-address=1",
                                                          "--address=unix:tmpdir=\(NSTemporaryDirectory())"])
        guard let address = bus.stdout.waitForLine(containing: "unix:", from: 0, timeout: 5) else {
            bus.stop(grace: 1)
            throw DaemonError("the stand-in system bus printed no address")
        }
        return (bus, address.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
