import Foundation

/// Where the guard for other players answers: `aubade serve`'s object, or `aubade guard`'s.
struct GuardEndpoint: CustomStringConvertible {
    var destination: String
    var path: String
    var interface: String

    /// `aubade serve`: org.aubade.AudioSession1 on /org/aubade/Player.
    static let serve = GuardEndpoint(destination: Daemon.busName, path: Bus.aubadePath, interface: AudioSessionBus.interface)
    /// `aubade guard`: org.aubade.Guard1 on /org/aubade/Guard, bus name org.aubade.Guard.
    static let alone = GuardEndpoint(destination: "org.aubade.Guard", path: "/org/aubade/Guard", interface: "org.aubade.Guard1")

    var description: String { "\(destination) \(path) \(interface)" }

    /// `OtherStreams() → aa{sv}`.
    func otherStreams() throws -> [OtherStream] {
        let reply = try Bus.call("\(interface).OtherStreams", destination: destination, path: path)
        guard reply.succeeded, case .array(let entries)? = reply.values.first else {
            throw BusError("OtherStreams on \(self) failed: \(reply)")
        }
        return try entries.map { entry in
            guard let values = entry.dictionary else { throw BusError("an OtherStreams entry is not a{sv}: \(entry)") }
            return OtherStream(values: values)
        }
    }
}

/// One entry of `OtherStreams`: a playback stream that is not Aubade's own, and its player.
struct OtherStream: CustomStringConvertible {
    var values: [String: TypedBusValue]

    var index: Int? { values["index"]?.int64.map { Int($0) } }
    var sink: String? { values["sink"]?.string }
    var processID: Int32? { values["process_id"]?.int64.map { Int32(truncatingIfNeeded: $0) } }
    var binary: String? { values["binary"]?.string }
    var application: String? { values["application"]?.string }
    var role: String? { values["role"]?.string }
    /// The player's well-known name; "" when the stream belongs to none.
    var player: String? { values["player"]?.string }
    /// "process", "ancestor", "name", "appId", or "" for none.
    var matchedBy: String? { values["matched_by"]?.string }

    var description: String {
        values.keys.sorted().map { "\($0)=\(values[$0]!.string ?? values[$0]!.int64.map(String.init) ?? "\(values[$0]!)")" }
            .joined(separator: " ")
    }
}

/// `OtherPlayerDecision(s action, s player, s reason, a{sv} stream)` as the monitor saw it.
struct GuardDecision: CustomStringConvertible {
    /// "pause", "play", "none".
    var action: String
    /// The player's well-known name.
    var player: String
    /// "deviceLost", "deviceBack", "callBegan", "callEnded", "sleep", "ignoredPause".
    var reason: String
    /// The stream involved (index, sink, process_id, binary, application); empty when none.
    var stream: [String: TypedBusValue]

    var processID: Int32? { stream["process_id"]?.int64.map { Int32(truncatingIfNeeded: $0) } }
    var streamIndex: Int? { stream["index"]?.int64.map { Int($0) } }

    var description: String {
        let details = stream.keys.sorted().map { "\($0)=\(stream[$0]!.string ?? stream[$0]!.int64.map(String.init) ?? "?")" }
        return "\(action) \(player) (\(reason)) [\(details.joined(separator: " "))]"
    }
}

extension MonitoredMessage {
    /// The decision, when this is OtherPlayerDecision from `endpoint` with all four arguments.
    func guardDecision(from endpoint: GuardEndpoint) -> GuardDecision? {
        guard kind == "signal", member == "OtherPlayerDecision", interface == endpoint.interface, path == endpoint.path,
              arguments.count == 4, let action = arguments[0].string, let player = arguments[1].string,
              let reason = arguments[2].string, let stream = arguments[3].dictionary else { return nil }
        return GuardDecision(action: action, player: player, reason: reason, stream: stream)
    }
}

/// `aubade guard ARGUMENTS`, the guard alone: its own HOME (removed by `stop`), waited for until
/// it owns org.aubade.Guard, stopped by PID.
final class GuardDaemon {
    let arguments: [String]
    let process: Subprocess
    let home: URL
    private(set) var uniqueName = ""

    var pid: Int32 { process.pid }
    var stderrLines: [String] { process.stderr.lines }
    var isRunning: Bool { process.isRunning }

    init(_ arguments: [String] = [], environment extra: [String: String] = [:]) throws {
        self.arguments = ["guard"] + arguments
        home = TestRunDirectory.url.appendingPathComponent("guard-home-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        process = try Subprocess(try Daemon.binaryPath(), self.arguments,
                                 environment: Daemon.privateHome(home).merging(extra) { _, new in new })
    }

    /// Waits until org.aubade.Guard is owned; fails early, with its stderr, if it exits.
    func waitForBusName(timeout: TimeInterval = 10) throws {
        // As Daemon.waitForBusName: a sanitized aubade starts several times slower.
        let timeout = Sanitizer.scaled(timeout)
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if let owner = try Bus.nameOwner(GuardEndpoint.alone.destination) {
                uniqueName = owner
                return
            }
            if let status = process.status {
                process.stderr.waitUntilClosed(timeout: 1)
                throw DaemonError("aubade \(arguments.joined(separator: " ")) exited with \(status) before owning "
                                  + "\(GuardEndpoint.alone.destination); stderr:\n\(process.stderr.text)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw DaemonError("\(GuardEndpoint.alone.destination) not owned \(timeout) s after starting aubade "
                          + "\(arguments.joined(separator: " ")); stderr:\n\(process.stderr.text)")
    }

    /// SIGTERM, 3 s, SIGKILL, by PID; then waits until the bus dropped its connection.
    func stop() {
        process.stop(grace: 3)
        if !uniqueName.isEmpty {
            let deadline = Date(timeIntervalSinceNow: 3)
            while Date() < deadline, (try? Bus.nameHasOwner(uniqueName)) == true { Thread.sleep(forTimeInterval: 0.02) }
        }
        try? FileManager.default.removeItem(at: home)
    }
}
