import Foundation
import XCTest

/// Base of the suites that drive Aubade with real MPD clients (`MPDClient…Tests`): each test
/// gets a daemon serving the `ClientLibrary` to MPD clients on a TCP port of its own on
/// loopback (as a user's clients reach mpd), with an empty playlists folder and an empty queue,
/// its library scanned. `mpd` is a plain protocol connection to set the stage and read back
/// what a client did; the clients under test are the real programs.
class MPDClientTestCase: AubadeTestCase {
    private(set) var library: ClientLibrary!
    private(set) var daemon: Daemon!
    /// The TCP port the daemon serves MPD clients on (127.0.0.1).
    private(set) var port = 0
    /// The stored playlists' folder (`--playlists-folder`).
    private(set) var playlistsFolder: URL!
    private(set) var mpd: MPDTestClient!

    override func setUpWithError() throws {
        try super.setUpWithError()
        library = try ClientLibrary.shared()
        playlistsFolder = TestRunDirectory.url.appendingPathComponent("playlists-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: playlistsFolder, withIntermediateDirectories: true)
        try startServing()
    }

    override func tearDown() {
        mpd?.close()
        mpd = nil
        super.tearDown()
        if let playlistsFolder { try? FileManager.default.removeItem(at: playlistsFolder) }
    }

    /// Starts the daemon on a free port (another one if that was taken meanwhile) and waits
    /// until its library is scanned.
    private func startServing() throws {
        var lastLog = ""
        for _ in 0..<3 {
            let candidate = try Loopback.freePort()
            let started = try startDaemon(["--mpd-address", "127.0.0.1", "--mpd-port", String(candidate),
                                           "--music-folder", library.directory.path,
                                           "--playlists-folder", playlistsFolder.path])
            let served = "MPD clients served on 127.0.0.1:\(candidate)"
            let line = started.process.stderr.waitForLine(from: 0, timeout: Sanitizer.scaled(10)) {
                $0.contains(served) || $0.contains("is taken")
            }?.line
            if let line, line.contains(served) {
                daemon = started
                port = candidate
                break
            }
            lastLog = started.stderrLines.joined(separator: "\n")
            started.stop()
        }
        guard daemon != nil else { throw DaemonError("the daemon did not serve MPD clients on any of 3 ports:\n\(lastLog)") }
        mpd = try MPDTestClient(port: port)
        let expected = ClientLibrary.songs.count
        var seen = "?"
        try eventually("the library scanned (\(expected) songs; stats said \(seen))", timeout: Sanitizer.scaled(20)) {
            let stats = try mpd.run("stats")
            seen = stats["songs"] ?? "?"
            let updating = try mpd.run("status")["updating_db"]
            return seen == String(expected) && updating == nil
        }
    }

    // MARK: Running clients

    /// Runs a client program to completion with `MPD_HOST`/`MPD_PORT` set to this daemon, LC_ALL
    /// C.UTF-8 (the library's names are UTF-8) and a HOME of its own.
    func runClient(_ tool: String, _ arguments: [String], environment: [String: String?] = [:],
                   timeout: TimeInterval = 20) throws -> ClientRun {
        let home = TestRunDirectory.url.appendingPathComponent("client-home-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        var env: [String: String?] = ["MPD_HOST": "127.0.0.1", "MPD_PORT": String(port), "HOME": home.path,
                                      "LC_ALL": "C.UTF-8"]
        env.merge(environment) { _, new in new }
        let child = try Subprocess(tool, arguments, environment: env, binaryStdout: true)
        var status = child.waitForExit(timeout: Sanitizer.scaled(timeout))
        let timedOut = status == nil
        if timedOut { status = child.stop(grace: 1) }
        child.stdout.waitUntilClosed(timeout: 2)
        child.stderr.waitUntilClosed(timeout: 2)
        return ClientRun(command: ([tool] + arguments).joined(separator: " "), status: status ?? -1,
                         stdout: child.stdout.data, stderr: child.stderr.text, timedOut: timedOut)
    }
}

/// One finished run of a client program: its exit status, its stdout as bytes (a picture) or
/// text, its stderr.
struct ClientRun: CustomStringConvertible {
    var command: String
    var status: Int32
    var stdout: Data
    var stderr: String
    var timedOut: Bool

    var text: String { String(decoding: stdout, as: UTF8.self) }

    /// Fails the test unless the program exited 0 and wrote nothing to stderr.
    func assertSucceeded(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(status, 0, "\(self)", file: file, line: line)
        XCTAssertEqual(stderr, "", "\(self)", file: file, line: line)
    }
    /// The lines of stdout (none when it is empty).
    var lines: [String] {
        guard !stdout.isEmpty else { return [] }
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0).map(String.init)
    }
    var description: String {
        "\(command): exit \(status)\(timedOut ? " (timed out)" : ""), stdout \(stdout.count) bytes \(text.prefix(2000).debugDescription), stderr \(stderr.debugDescription)"
    }
}
