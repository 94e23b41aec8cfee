import Foundation

/// A child process that starts with no signal blocked and every signal at its default, for
/// programs that wait on signals: the test runner's threads block them (Dispatch's signal
/// sources do), Foundation's `Process` passes that mask on, and then tmux's client waits for
/// ever for its server's "ready" signal, and Xvfb's parent never hears that its display is up.
/// Spawned with posix_spawn (as `PrivateBus` does), reaped with waitpid, stopped by its PID.
/// Its stdout and stderr go to files of the test process's folder, read when it is done.
final class UnblockedProcess: CustomStringConvertible {
    let pid: pid_t
    let command: String
    private let stdoutFile: URL
    private let stderrFile: URL
    private var exitStatus: Int32?

    init(_ tool: String, _ arguments: [String], environment: [String: String?] = [:]) throws {
        let executable = try Shell.which(tool)
        command = ([tool] + arguments).joined(separator: " ")
        let stem = TestRunDirectory.url.appendingPathComponent("\(tool)-\(UUID().uuidString.prefix(8))")
        stdoutFile = stem.appendingPathExtension("stdout")
        stderrFile = stem.appendingPathExtension("stderr")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderrFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigfillset(&defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        var argv = ([executable] + arguments).map { strdup($0) } + [nil]
        var envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for argument in argv { free(argument) }
            for entry in envp { free(entry) }
        }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, &attributes, &argv, &envp)
        guard spawned == 0 else { throw ShellError.launchFailed(tool, String(cString: strerror(spawned))) }
        pid = child
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: stdoutFile)
        try? FileManager.default.removeItem(at: stderrFile)
    }

    var stdout: String { (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "" }
    var isRunning: Bool { status == nil }

    /// The exit status once it ended (reaping it), nil while it runs.
    var status: Int32? {
        if exitStatus == nil {
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid {
                exitStatus = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
            }
        }
        return exitStatus
    }

    /// Waits up to `timeout` for it to end; its status, or nil if it still runs.
    func waitForExit(timeout: TimeInterval) -> Int32? {
        _ = eventually(timeout: timeout) { status != nil }
        return status
    }

    /// SIGTERM by PID, `grace` seconds, then SIGKILL; reaped.
    @discardableResult
    func stop(grace: TimeInterval = 3) -> Int32? {
        guard status == nil else { return exitStatus }
        kill(pid, SIGTERM)
        if let status = waitForExit(timeout: grace) { return status }
        kill(pid, SIGKILL)
        return waitForExit(timeout: 3)
    }

    var description: String { "\(command) (pid \(pid)): stdout \(stdout.suffix(2000).debugDescription), stderr \(stderr.suffix(2000).debugDescription)" }

    /// Runs `tool` to completion (killed after `timeout`), as `Shell.run` does.
    static func run(_ tool: String, _ arguments: [String], environment: [String: String?] = [:],
                    timeout: TimeInterval = 20) throws -> CommandResult {
        let child = try UnblockedProcess(tool, arguments, environment: environment)
        var status = child.waitForExit(timeout: timeout)
        let timedOut = status == nil
        if timedOut { status = child.stop(grace: 1) }
        return CommandResult(status: status ?? -1, stdout: child.stdout, stderr: child.stderr, timedOut: timedOut)
    }
}
