import Foundation

/// A program started under a small `/bin/sh` that waits for it, for programs that close every
/// descriptor they inherit (pulseaudio does, at start-up).
///
/// Why: Foundation's `Process` on Linux learns that a child ended when the child's end of a
/// socket pair closes, and then calls a BLOCKING `waitpid` for that child on its one manager
/// thread. A child that closes its inherited descriptors while it keeps running parks that
/// thread in `waitpid` until the child exits, and no other child of the test process is
/// reaped meanwhile: every later `Shell.run("pactl", …)` then "times out" with its pactl a
/// zombie (seen here with a pulseaudio started by the tests). The shell keeps the socket open
/// and ends only after the program has, so Foundation sees the shell end when the program did.
///
/// Signals go to the program itself, by the PID the shell prints (`$!`), never to the shell.
final class ShellWrappedProcess {
    let executable: String
    /// The program's own PID.
    let pid: Int32
    private let shell: Subprocess

    /// The program's stderr (the shell's, which the program writes to).
    var stderr: OutputBuffer { shell.stderr }

    init(_ tool: String, _ arguments: [String], environment: [String: String?] = [:]) throws {
        executable = try Shell.which(tool)
        // The program's own output goes to stderr, so the shell's stdout carries the PID only.
        shell = try Subprocess("/bin/sh", ["-c", "\"$@\" 1>&2 & echo $!; wait $!", "sh", executable] + arguments,
                               environment: environment)
        guard let line = shell.stdout.waitForLine(timeout: 10, where: { _ in true })?.line,
              let pid = Int32(line.trimmingCharacters(in: .whitespaces)) else {
            shell.stop(grace: 1)
            throw DaemonError("starting \(tool) under sh printed no PID: \(shell.stderr.text)")
        }
        self.pid = pid
    }

    /// Until the program ended (the shell ends right after it).
    var isRunning: Bool { shell.isRunning }
    /// The shell's exit status: the program's, or 128 + the signal that ended it.
    var status: Int32? { shell.status }

    func signal(_ signal: Int32) {
        guard isRunning else { return }
        kill(pid, signal)
    }

    /// Waits until the program ended; its exit status, or nil after `timeout`.
    func waitForExit(timeout: TimeInterval) -> Int32? {
        shell.waitForExit(timeout: timeout)
    }

    /// `signal` (SIGTERM) to the program, up to `grace` seconds, then SIGKILL.
    @discardableResult
    func stop(signal first: Int32 = SIGTERM, grace: TimeInterval = 3) -> Int32? {
        guard isRunning else { return status }
        kill(pid, first)
        if let status = waitForExit(timeout: grace) { return status }
        kill(pid, SIGKILL)
        return waitForExit(timeout: 5)
    }

    deinit {
        if isRunning { kill(pid, SIGKILL) }
    }
}
