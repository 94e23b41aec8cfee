import Foundation
import XCTest

/// A second private session bus whose only service folder is `serviceDirectory`: a call to a
/// name with an activation file there makes this dbus-daemon start the program, as a desktop's
/// session bus does. Stopped by PID (`stop`), like every process the tests start.
final class ActivationBus {
    let directory: URL
    let address: String
    private let process: Subprocess

    /// `environment`: what the bus passes on to the programs it activates (HOME, XDG_*), on top
    /// of this process's environment.
    init(serviceDirectory: URL, environment: [String: String]) throws {
        // Short: a unix socket path is limited to 108 bytes.
        directory = URL(fileURLWithPath: try Self.makeShortTemporaryDirectory())
        let socket = directory.appendingPathComponent("bus").path
        address = "unix:path=\(socket)"
        let config = directory.appendingPathComponent("bus.conf")
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>\(address)</listen>
              <auth>EXTERNAL</auth>
              <servicedir>\(serviceDirectory.path)</servicedir>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """.write(to: config, atomically: true, encoding: .utf8)
        // The bus sets DBUS_SESSION_BUS_ADDRESS for what it activates; set here too, so nothing
        // it starts can reach the test's main bus by inheritance.
        // --print-address: printed once the bus listens. The socket file appears earlier (bind
        // comes before listen), and a client connecting in between is refused (seen in a run).
        process = try Subprocess("dbus-daemon", ["--config-file=\(config.path)", "--nofork", "--nosyslog", "--print-address=1"],
                                 environment: environment.merging(["DBUS_SESSION_BUS_ADDRESS": address]) { _, new in new })
        let deadline = Date(timeIntervalSinceNow: 10)
        while !process.stdout.text.contains("unix:") {
            if let status = process.status {
                throw DaemonError("dbus-daemon exited with status \(status): \(process.stderr.text)")
            }
            guard Date() < deadline else { throw DaemonError("dbus-daemon did not listen on \(socket) in 10 s") }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// The environment that makes a client talk to this bus as its session bus.
    var clientEnvironment: [String: String?] { ["DBUS_SESSION_BUS_ADDRESS": address] }

    /// A method call on this bus (the tests' client, connected here); a call to a well-known
    /// name not yet owned activates its service (the call asks for auto-start, as dbus-send and
    /// desktop shells do).
    func call(_ member: String, _ arguments: [String] = [], destination: String,
              path: String = Bus.objectPath, timeout: TimeInterval = 30) throws -> DBusReply {
        try Bus.call(member, arguments, destination: destination, path: path, timeout: timeout, client: client())
    }

    /// One client of this bus, made at the first call.
    private var connectedClient: BusClient?
    private func client() throws -> BusClient {
        if let connectedClient { return connectedClient }
        let made = try BusClient(destination: Daemon.busName, label: "aubade.tests.activation", bus: .address(address))
        connectedClient = made
        return made
    }

    func busCall(_ method: String, _ arguments: [String]) throws -> DBusReply {
        try call("org.freedesktop.DBus.\(method)", arguments, destination: "org.freedesktop.DBus",
                 path: "/org/freedesktop/DBus")
    }

    func nameHasOwner(_ name: String) throws -> Bool {
        let reply = try busCall("NameHasOwner", ["string:\(name)"])
        guard reply.succeeded, let owned = reply.values.first?.bool else {
            throw BusError("NameHasOwner on \(address) failed: \(reply)")
        }
        return owned
    }

    /// The PID of the process owning `name` (GetConnectionUnixProcessID).
    func processID(of name: String) throws -> Int32 {
        let reply = try busCall("GetConnectionUnixProcessID", ["string:\(name)"])
        guard reply.succeeded, let pid = reply.values.first?.int64 else {
            throw BusError("GetConnectionUnixProcessID(\(name)) on \(address) failed: \(reply)")
        }
        return Int32(pid)
    }

    /// SIGTERM, a grace period, SIGKILL: by PID. Then removes its folder.
    func stop() {
        process.stop(grace: 3)
        try? FileManager.default.removeItem(at: directory)
    }

    var stderr: String { process.stderr.text }

    /// In `$TMPDIR` (where `make test` checks that nothing is left behind) when its path leaves
    /// room for the socket, else in /tmp.
    private static func makeShortTemporaryDirectory() throws -> String {
        var base = ProcessInfo.processInfo.environment["TMPDIR"] ?? ""
        while base.count > 1, base.hasSuffix("/") { base.removeLast() }
        if base.isEmpty || base.utf8.count > 80 { base = "/tmp" }
        var template = Array("\(base)/aubade-bus.XXXXXX".utf8CString)
        guard let result = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw DaemonError("mkdtemp failed: errno \(errno)")
        }
        return String(cString: result)
    }
}

/// Stops a process that is not our child (the bus started it) by PID: SIGTERM, up to `grace`
/// seconds, then SIGKILL. True when it is gone (or a zombie waiting for its parent).
@discardableResult
func stopForeignProcess(_ pid: Int32, grace: TimeInterval = 3) -> Bool {
    func alive() -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        // A zombie still answers kill(pid, 0); its state in /proc/PID/stat is Z.
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        let state = stat.split(separator: ")").last?.split(separator: " ").first
        return state != "Z"
    }
    guard pid > 0, alive() else { return true }
    kill(pid, SIGTERM)
    let deadline = Date(timeIntervalSinceNow: grace)
    while Date() < deadline {
        if !alive() { return true }
        Thread.sleep(forTimeInterval: 0.02)
    }
    kill(pid, SIGKILL)
    Thread.sleep(forTimeInterval: 0.1)
    return !alive()
}
