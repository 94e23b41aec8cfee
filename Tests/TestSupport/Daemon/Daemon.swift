import Foundation
import XCTest

/// One `aubade serve …` process under test.
///
/// Its stderr (one line per event) is captured for `waitForLog`. It runs with its own HOME and
/// XDG directories, so nothing it remembers (state, cache) reaches the next test.
final class Daemon {
    static let busName = "org.mpris.MediaPlayer2.aubade"

    /// HOME and the XDG folders under `home`: an aubade that sees nothing of a real user's.
    static func privateHome(_ home: URL) -> [String: String] {
        ["HOME": home.path,
         "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
         "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path,
         "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
         "XDG_STATE_HOME": home.appendingPathComponent(".local/state").path]
    }

    let arguments: [String]
    let process: Subprocess
    let home: URL
    /// False when the test gave the home (a restart in the same home): then `stop` leaves it.
    private let ownsHome: Bool

    var pid: Int32 { process.pid }
    var stderrLines: [String] { process.stderr.lines }
    var isRunning: Bool { process.isRunning }
    /// The name a second instance owns, per the MPRIS spec.
    var instanceBusName: String { "\(Daemon.busName).instance\(pid)" }

    /// The daemon's connection (":1.N"), known once `waitForBusName` succeeded.
    private(set) var uniqueName: String?

    /// Starts `aubade serve ARGUMENTS` without waiting for anything. With `home`, it runs in
    /// that home (and its XDG directories) and `stop` leaves it: a second daemon started with
    /// the same home finds what the first remembered.
    ///
    /// The daemon serves MPD clients on its session's Unix socket only: TCP is off (first on
    /// the command line, so a test's own `--mpd-address`/`--mpd-port` wins), or every daemon
    /// of a parallel run would reach for the one port 6600 — and a test's client could meet
    /// another test's daemon there. `keepsDefaultTCP`: none of that, for the one test of what
    /// a user gets by default (TCP on loopback only); it must pass a free `--mpd-port`. The page
    /// (`--http-address`, port 6680) is off for the same reason; a test of it turns it on.
    init(serve arguments: [String], environment extra: [String: String] = [:], home givenHome: URL? = nil,
         keepsDefaultTCP: Bool = false) throws {
        self.arguments = ["serve"] + (keepsDefaultTCP ? [] : ["--mpd-address", "none", "--http-address", "none"]) + arguments
        ownsHome = givenHome == nil
        home = givenHome ?? TestRunDirectory.url.appendingPathComponent("home-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        process = try Subprocess(try Daemon.binaryPath(), self.arguments,
                                 environment: Daemon.privateHome(home).merging(extra) { _, new in new })
    }

    /// Waits (polling every 20 ms, up to `timeout`) until `name` has an owner on the bus.
    /// Fails early, with the daemon's stderr, if the daemon exits instead.
    func waitForBusName(_ name: String = Daemon.busName, timeout: TimeInterval = 10) throws {
        // A sanitized daemon (make test's TSan and ASan runs) reads the tracks it is given
        // before it owns its name 5–20 times slower: 3,000 files take longer than 10 s there.
        let timeout = Sanitizer.scaled(timeout)
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if try Bus.nameHasOwner(name) {
                uniqueName = try Bus.nameOwner(name)
                return
            }
            if let status = process.status {
                process.stderr.waitUntilClosed(timeout: 1)
                throw DaemonError("aubade exited with status \(status) before owning \(name); stderr:\n\(process.stderr.text)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw DaemonError("\(name) not owned \(timeout) s after starting aubade \(arguments.joined(separator: " ")); stderr so far:\n\(process.stderr.text)")
    }

    /// The first stderr line (from line `index` on) containing `text`, waiting up to `timeout`.
    func waitForLog(containing text: String, from index: Int = 0, timeout: TimeInterval = 5) -> String? {
        process.stderr.waitForLine(containing: text, from: index, timeout: timeout)
    }

    /// The exit status, once its stderr is read to the end too (a last line written just
    /// before exiting is otherwise still in the pipe when the test looks).
    func waitForExit(timeout: TimeInterval) -> Int32? {
        let status = process.waitForExit(timeout: timeout)
        if status != nil { process.stderr.waitUntilClosed(timeout: 2) }
        return status
    }

    /// SIGTERM, up to 3 s, then SIGKILL; by PID. Then waits (up to 3 s) until the bus has
    /// dropped its connection (and with it its names), so the next test's daemon gets the plain name.
    func stop() {
        process.stop(grace: 3)
        if let uniqueName {
            let deadline = Date(timeIntervalSinceNow: 3)
            while Date() < deadline, (try? Bus.nameHasOwner(uniqueName)) == true {
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        if ownsHome { try? FileManager.default.removeItem(at: home) }
    }

    /// `AUBADE_BINARY`, else `aubade` next to the test executable (SwiftPM builds both into
    /// `.build/<triple>/debug`).
    static func binaryPath() throws -> String {
        if let configured = ProcessInfo.processInfo.environment["AUBADE_BINARY"], !configured.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: configured) else {
                throw DaemonError("AUBADE_BINARY=\(configured) is not an executable file")
            }
            return configured
        }
        let testExecutable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let candidate = URL(fileURLWithPath: testExecutable).deletingLastPathComponent()
            .appendingPathComponent("aubade").path
        guard FileManager.default.isExecutableFile(atPath: candidate) else {
            throw DaemonError("no aubade binary at \(candidate); build it (swift build) or set AUBADE_BINARY")
        }
        return candidate
    }
}

struct DaemonError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
