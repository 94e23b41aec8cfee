import Foundation
import XCTest

/// A terminal program in tmux, as a person at a terminal uses it: keys sent with `send-keys`,
/// the screen read with `capture-pane`. Each terminal has a tmux server of its own (its socket in
/// the test process's folder), so tests side by side never share one; `stop` ends that server by
/// its PID, which ends the program with its pane, and removes the socket. (tmux itself is listed
/// in Tests/needs.txt by hand: check-needs does not see a program started through
/// `UnblockedProcess`.)
final class TmuxTerminal: CustomStringConvertible {
    private let socket: URL
    private(set) var serverPID: Int32 = 0
    let command: String

    /// Starts `command` (run by tmux's shell) in a `width`×`height` terminal.
    init(command: String, width: Int = 120, height: Int = 30) throws {
        self.command = command
        socket = TestRunDirectory.url.appendingPathComponent("tmux-\(UUID().uuidString.prefix(8))")
        try run(["new-session", "-d", "-s", "main", "-x", String(width), "-y", String(height), command])
        let pid = try run(["display-message", "-p", "-t", "main", "#{pid}"])
        guard let number = Int32(pid.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw DaemonError("tmux display-message gave no server PID: \(pid.debugDescription)")
        }
        serverPID = number
    }

    deinit { stop() }

    /// `tmux send-keys`: key names (Enter, Down, Right, "4") as tmux reads them.
    func press(_ keys: String...) throws {
        try run(["send-keys", "-t", "main"] + keys)
    }

    /// Types `text` literally.
    func type(_ text: String) throws {
        try run(["send-keys", "-t", "main", "-l", text])
    }

    /// The screen as it shows now, one string with a line per row.
    func screen() throws -> String {
        try run(["capture-pane", "-p", "-t", "main"])
    }

    /// Waits (polling) until the screen satisfies `condition`; returns it, or fails the test
    /// with the last screen and throws.
    @discardableResult
    func waitForScreen(_ what: String, timeout: TimeInterval = 5, file: StaticString = #filePath, line: UInt = #line,
                       _ condition: (String) -> Bool) throws -> String {
        var last = ""
        let held = eventually(timeout: Sanitizer.scaled(timeout)) {
            last = (try? screen()) ?? last
            return condition(last)
        }
        guard held else {
            let message = "the screen never showed \(what) within \(timeout) s; it shows:\n\(last)"
            XCTFail(message, file: file, line: line)
            throw DaemonError(message)
        }
        return last
    }

    /// Waits until the screen shows every one of `texts`.
    @discardableResult
    func waitForScreen(showing texts: String..., timeout: TimeInterval = 5,
                       file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try waitForScreen(texts.map(\.debugDescription).joined(separator: ", "), timeout: timeout, file: file, line: line) { screen in
            texts.allSatisfy(screen.contains)
        }
    }

    /// Ends the tmux server by its PID (SIGTERM, then SIGKILL), then removes its socket.
    func stop() {
        if serverPID > 0 {
            kill(serverPID, SIGTERM)
            if !eventually(timeout: 3, { !Shell.isAlive(pid: serverPID) }) { kill(serverPID, SIGKILL) }
            serverPID = 0
        }
        try? FileManager.default.removeItem(at: socket)
    }

    var description: String { "tmux -S \(socket.path) (server \(serverPID)): \(command)" }

    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        // A UTF-8 locale: tmux shows what is not ASCII ("Café") only to clients that have one.
        // Unblocked signals: tmux's client waits for its server's signal (UnblockedProcess).
        let result = try UnblockedProcess.run("tmux", ["-S", socket.path] + arguments, environment: ["LC_ALL": "C.UTF-8"],
                                              timeout: 10)
        guard result.succeeded else { throw DaemonError("tmux \(arguments.joined(separator: " ")): \(result)") }
        return result.stdout
    }
}
