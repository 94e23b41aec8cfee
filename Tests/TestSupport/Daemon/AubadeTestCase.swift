import Foundation
import XCTest

/// Base of the integration tests: requires the private audio session, makes the fixtures,
/// starts daemons and monitors and stops them (by PID) after each test.
///
/// Waits poll with generous timeouts instead of sleeping fixed times: the machine may be busy.
class AubadeTestCase: XCTestCase {
    private(set) var fixtures: TestMusic!
    private var daemons: [Daemon] = []
    private var monitors: [SignalMonitor] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        try AudioSession.require()
        fixtures = try TestMusic.shared()
        // A daemon left over from a crashed test would answer instead of ours.
        if try Bus.nameHasOwner(Daemon.busName) {
            XCTFail("\(Daemon.busName) is already owned before the test starts")
        }
    }

    override func tearDown() {
        for monitor in monitors { monitor.stop() }
        monitors.removeAll()
        let failed = (testRun?.failureCount ?? 0) + (testRun?.unexpectedExceptionCount ?? 0) > 0
        for daemon in daemons.reversed() {
            daemon.stop()
            if failed {
                print("--- stderr of aubade \(daemon.arguments.joined(separator: " ")) (pid \(daemon.pid)):")
                print(daemon.stderrLines.joined(separator: "\n"))
            }
        }
        daemons.removeAll()
        super.tearDown()
    }

    // MARK: Daemons

    /// Starts `aubade serve ARGUMENTS` and waits until it owns org.mpris.MediaPlayer2.aubade.
    @discardableResult
    func startDaemon(_ arguments: [URL]) throws -> Daemon {
        try startDaemon(arguments.map(\.path))
    }

    @discardableResult
    func startDaemon(_ arguments: [String], waitingFor name: String? = Daemon.busName,
                     environment: [String: String] = [:], home: URL? = nil,
                     keepsDefaultTCP: Bool = false) throws -> Daemon {
        let daemon = try Daemon(serve: arguments, environment: environment, home: home, keepsDefaultTCP: keepsDefaultTCP)
        daemons.append(daemon)
        if let name { try daemon.waitForBusName(name) }
        return daemon
    }

    /// Starts the daemon and waits until it reports Playing (the first track started).
    @discardableResult
    func startPlaying(_ files: [URL]) throws -> Daemon {
        let daemon = try startDaemon(files)
        try waitForStatus("Playing")
        return daemon
    }

    /// A signal monitor on the running daemon's connection, stopped after the test. It returns
    /// once the daemon answered it: what the daemon announced before (its start-up) is in
    /// `messages` already, so a `mark` taken now leaves it out.
    func monitor(_ daemon: Daemon) throws -> SignalMonitor {
        let sender = try daemon.uniqueName ?? Bus.nameOwner(Daemon.busName) ?? ""
        let monitor = try SignalMonitor(sender: sender)
        monitors.append(monitor)
        try monitor.settle(with: sender)
        return monitor
    }

    // MARK: What a person looks at afterwards

    /// Where a test keeps what a person should be able to look at afterwards (a screenshot):
    /// `$AUBADE_TEST_ARTIFACTS`, else `.build/test-logs/artifacts` (make test empties
    /// `.build/test-logs` at its start). Named after the test, and the sanitizer if any.
    func artifact(_ name: String, extension pathExtension: String) throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        let folder = environment["AUBADE_TEST_ARTIFACTS"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? Repository.file(".build/test-logs/artifacts")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // XCTest's name, "-[Suite test]" or "Suite.test", as a file name: Suite.test.
        let test = String(self.name.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? Character($0) : "." })
            .split(separator: ".").joined(separator: ".")
        let sanitizer = environment["AUBADE_SANITIZER"].flatMap { $0.isEmpty ? nil : "-\($0)" } ?? ""
        return folder.appendingPathComponent("\(test).\(name)\(sanitizer).\(pathExtension)")
    }

    // MARK: Waiting

    func waitForStatus(_ status: String, timeout: TimeInterval = 5,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        var last = "?"
        try eventually("PlaybackStatus \(status) (last seen \(last))", timeout: timeout, file: file, line: line) {
            last = try playbackStatus()
            return last == status
        }
    }

    func waitForTitle(_ title: String, timeout: TimeInterval = 5,
                      file: StaticString = #filePath, line: UInt = #line) throws {
        var seen: [String] = []
        try eventually("title \(title) (titles seen: \(seen))", timeout: timeout, file: file, line: line) {
            let current = try metadata()["xesam:title"]?.string ?? "(none)"
            if seen.last != current { seen.append(current) }
            return current == title
        }
    }

    // MARK: Reading the player

    func playerProperty(_ name: String) throws -> TypedBusValue {
        try Bus.get(Bus.playerInterface, name)
    }

    func playbackStatus() throws -> String {
        guard let status = try playerProperty("PlaybackStatus").string else { throw BusError("PlaybackStatus is not a string") }
        return status
    }

    func metadata() throws -> [String: TypedBusValue] {
        guard let metadata = try playerProperty("Metadata").dictionary else { throw BusError("Metadata is not a{sv}") }
        return metadata
    }

    func trackID() throws -> String? {
        try metadata()["mpris:trackid"]?.string
    }

    func title() throws -> String? {
        try metadata()["xesam:title"]?.string
    }

    /// Position in µs.
    func position() throws -> Int64 {
        guard let position = try playerProperty("Position").int64 else { throw BusError("Position is not a number") }
        return position
    }

    /// Fails unless `playerctl -p aubade ARGS` succeeds; returns its trimmed output.
    @discardableResult
    func playerctl(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try Playerctl.run(arguments)
        XCTAssertTrue(result.succeeded, "playerctl \(arguments.joined(separator: " ")): \(result)", file: file, line: line)
        return result.trimmedOutput
    }

    /// The daemon still answers on the bus (after an error, say).
    func assertStillAnswers(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNoThrow(try playbackStatus(), "the daemon stopped answering", file: file, line: line)
        let ping = try? Bus.call("org.freedesktop.DBus.Peer.Ping")
        XCTAssertEqual(ping?.succeeded, true, "Peer.Ping: \(ping.map(String.init(describing:)) ?? "not run")",
                       file: file, line: line)
    }
}
