import Foundation

/// A child process started with `posix_spawn`, its stdout on a pipe.
///
/// Not Foundation's `Process`: with a long-running child (pulseaudio) alive, its SIGCHLD
/// handling blocked in `wait4` on that child here, hanging every later `waitUntilExit`.
struct Subprocess {
    let pid: pid_t
    private let stdoutFD: Int32?

    /// Starts `path` with `arguments`; `environment` entries are added to ours, the variables
    /// named in `unsetting` are left out.
    init(_ path: String, _ arguments: [String], environment extra: [String: String] = [:],
         unsetting: [String] = [], captureOutput: Bool) throws {
        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        var pipeFDs: [Int32] = [-1, -1]
        if captureOutput {
            guard pipe(&pipeFDs) == 0 else { throw POSIXError(.EMFILE) }
            posix_spawn_file_actions_adddup2(&fileActions, pipeFDs[1], 1)
            posix_spawn_file_actions_addclose(&fileActions, pipeFDs[0])
            posix_spawn_file_actions_addclose(&fileActions, pipeFDs[1])
        } else {
            posix_spawn_file_actions_addopen(&fileActions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&fileActions, 2, "/dev/null", O_WRONLY, 0)
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in extra { environment[key] = value }
        for key in unsetting { environment[key] = nil }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &fileActions, nil, argv, envp)
        if captureOutput { close(pipeFDs[1]) }
        guard result == 0 else {
            if captureOutput { close(pipeFDs[0]) }
            throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL)
        }
        self.pid = pid
        self.stdoutFD = captureOutput ? pipeFDs[0] : nil
    }

    /// Reads stdout to its end, then reaps the child.
    func finish() -> Data {
        var data = Data()
        if let fd = stdoutFD {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = Glibc.read(fd, &chunk, chunk.count)
                if n <= 0 { break }
                data.append(contentsOf: chunk[0..<n])
            }
            close(fd)
        }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return data
    }

    /// Reads up to `count` bytes of stdout, giving up after `timeout` seconds.
    func read(count: Int, timeout: Double) -> Data {
        guard let fd = stdoutFD else { return Data() }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while data.count < count, ContinuousClock.now < deadline {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            let n = Glibc.read(fd, &chunk, min(chunk.count, count - data.count))
            if n <= 0 { break }
            data.append(contentsOf: chunk[0..<n])
        }
        return data
    }

    /// Sends SIGTERM to this child (by PID), then collects its output.
    func terminate() -> Data {
        kill(pid, SIGTERM)
        return finish()
    }

    /// Runs to completion and returns stdout.
    static func run(_ path: String, _ arguments: [String]) throws -> String {
        String(decoding: try Subprocess(path, arguments, captureOutput: true).finish(), as: UTF8.self)
    }
}
