import Foundation

/// A private dbus-daemon standing in for the system bus (for the stand-in logind of the sleep
/// tests, `FakeLogind` and `RecordingLogind`) or for a session bus a test kills. The test stops
/// it by PID. Its socket is in the test run's folder (`TestRunDirectory`, removed when the test
/// process exits): dbus-daemon leaves its socket file behind when it stops, and the session.conf
/// default would put it in /tmp.
enum StandInSystemBus {
    /// Starts one; returns it and its address.
    static func start() throws -> (bus: Subprocess, address: String) {
        let bus = try Subprocess("/usr/bin/dbus-daemon", ["--session", "--nofork", "--nopidfile", "--print-address=1",
                                                          "--address=unix:tmpdir=\(TestRunDirectory.url.path)"])
        guard let address = bus.stdout.waitForLine(containing: "unix:", from: 0, timeout: 5) else {
            bus.stop(grace: 1)
            throw DaemonError("the stand-in system bus printed no address")
        }
        return (bus, address.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
