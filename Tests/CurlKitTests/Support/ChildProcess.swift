import Foundation

/// A child process started with `posix_spawn`, its stdout on a pipe, stopped by its PID.
///
/// Not Foundation's `Process` (see AudioOutputTests/Subprocess.swift: its SIGCHLD handling
/// hung `waitUntilExit` here with long-running children).
final class ChildProcess {
    let pid: pid_t
    private var stdoutFD: Int32
    private var isReaped = false

    init(_ path: String, _ arguments: [String]) throws {
        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        // Neither end leaks into other children (dup2 makes the child's stdout inheritable).
        for fd in pipeFDs { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        posix_spawn_file_actions_adddup2(&fileActions, pipeFDs[1], 1)
        posix_spawn_file_actions_addopen(&fileActions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &fileActions, nil, argv, environ)
        close(pipeFDs[1])
        guard result == 0 else {
            close(pipeFDs[0])
            throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL)
        }
        self.pid = pid
        stdoutFD = pipeFDs[0]
    }

    deinit { stop() }

    /// The first line the child prints, or nil after `timeout` seconds.
    func firstLine(timeout: Double) -> String? {
        var data = [UInt8]()
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        var byte: UInt8 = 0
        while ContinuousClock.now < deadline {
            var descriptor = pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            guard Glibc.read(stdoutFD, &byte, 1) == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: data, as: UTF8.self) }
            data.append(byte)
        }
        return nil
    }

    /// Exit status, after waiting for the child to end on its own.
    func wait() -> Int32 {
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        isReaped = true
        closeOutput()
        return status
    }

    /// SIGTERM by PID, SIGKILL if it is still there after 2 s; then reaps it.
    func stop() {
        defer { closeOutput() }
        guard !isReaped else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<200 {
            if waitpid(pid, &status, WNOHANG) == pid {
                isReaped = true
                return
            }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        isReaped = true
    }

    private func closeOutput() {
        if stdoutFD >= 0 { close(stdoutFD) }
        stdoutFD = -1
    }

    /// Runs `path` to its end; throws unless it exits 0.
    static func run(_ path: String, _ arguments: [String]) throws {
        let child = try ChildProcess(path, arguments)
        let status = child.wait()
        guard status == 0 else {
            throw TestServer.SetupError("\(path) \(arguments.joined(separator: " ")) exited with status \(status)")
        }
    }
}
