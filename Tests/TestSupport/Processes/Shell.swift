import Foundation

/// Output of a child process as it arrives: the raw bytes and, split at newlines, the lines.
/// Reader threads append; test code reads a snapshot or waits for a line to appear.
final class OutputBuffer: @unchecked Sendable {
    private let condition = NSCondition()
    private var raw = Data()
    private var partial = Data()
    private var completeLines: [String] = []
    private var closed = false
    /// False for binary output (parec): no line splitting, bytes only.
    private let splitsLines: Bool

    init(splitsLines: Bool = true) {
        self.splitsLines = splitsLines
    }

    func append(_ data: Data) {
        condition.lock()
        defer { condition.unlock() }
        raw.append(data)
        if splitsLines {
            partial.append(data)
            while let newline = partial.firstIndex(of: 0x0A) {
                completeLines.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
                partial = Data(partial[partial.index(after: newline)...])
            }
        }
        condition.broadcast()
    }

    /// End of stream: a last line without a newline still counts.
    func close() {
        condition.lock()
        defer { condition.unlock() }
        if !partial.isEmpty {
            completeLines.append(String(decoding: partial, as: UTF8.self))
            partial = Data()
        }
        closed = true
        condition.broadcast()
    }

    var data: Data { condition.withLock { raw } }
    var text: String { String(decoding: data, as: UTF8.self) }
    var lines: [String] { condition.withLock { completeLines } }
    var isClosed: Bool { condition.withLock { closed } }

    /// Waits until a line at `index` or later satisfies `predicate`; nil on timeout or end of stream.
    func waitForLine(from index: Int = 0, timeout: TimeInterval,
                     where predicate: (String) -> Bool) -> (index: Int, line: String)? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        var next = index
        while true {
            while next < completeLines.count {
                if predicate(completeLines[next]) { return (next, completeLines[next]) }
                next += 1
            }
            if closed || Date() >= deadline { return nil }
            _ = condition.wait(until: deadline)
        }
    }

    func waitForLine(containing text: String, from index: Int = 0, timeout: TimeInterval) -> String? {
        waitForLine(from: index, timeout: timeout) { $0.contains(text) }?.line
    }

    /// Waits until at least `count` bytes arrived; false on timeout or end of stream.
    func waitForByteCount(_ count: Int, timeout: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while raw.count < count {
            if closed || !condition.wait(until: deadline) { return raw.count >= count }
        }
        return true
    }

    /// Waits for the end of the stream (the writer exited and nobody else holds the pipe).
    @discardableResult
    func waitUntilClosed(timeout: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !closed {
            if !condition.wait(until: deadline) { return closed }
        }
        return true
    }
}

/// What a finished command left behind.
struct CommandResult: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String
    /// True when the command was killed because it ran past its timeout.
    var timedOut: Bool

    var succeeded: Bool { status == 0 && !timedOut }
    var trimmedOutput: String { stdout.trimmingCharacters(in: .whitespacesAndNewlines) }
    var description: String {
        "exit \(status)\(timedOut ? " (timed out)" : ""), stdout: \(stdout.debugDescription), stderr: \(stderr.debugDescription)"
    }
}

enum ShellError: Error, CustomStringConvertible {
    case notFound(String)
    case launchFailed(String, String)

    var description: String {
        switch self {
        case .notFound(let tool): "\(tool) not found on PATH (run scripts/install-deps)"
        case .launchFailed(let tool, let why): "could not start \(tool): \(why)"
        }
    }
}

/// A child process with its stdout and stderr captured by reader threads.
/// Stopped by PID only: SIGTERM, a grace period, then SIGKILL.
final class Subprocess: @unchecked Sendable {
    let executable: String
    let arguments: [String]
    let stdout: OutputBuffer
    let stderr: OutputBuffer
    private let process = Process()
    private let exitCondition = NSCondition()
    private var exitStatus: Int32?

    /// Spawns are serialised: a pipe's write end must not leak into a child started at the same
    /// moment by another thread, or its reader would never see end of file.
    private static let spawnLock = NSLock()

    /// `environment` entries are added to (or, with a nil value, removed from) this process's.
    /// `stdin`: a pipe the caller writes to (and whose end it keeps); /dev/null otherwise.
    init(_ tool: String, _ arguments: [String], environment: [String: String?] = [:],
         currentDirectory: URL? = nil, binaryStdout: Bool = false, stdin: Pipe? = nil) throws {
        executable = try Shell.which(tool)
        self.arguments = arguments
        stdout = OutputBuffer(splitsLines: !binaryStdout)
        stderr = OutputBuffer()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["LC_ALL"] = "C"  // pactl, playerctl and friends print translated text otherwise
        for (key, value) in environment { env[key] = value }
        Subprocess.addLeakCheck(to: &env, for: executable)
        process.environment = env
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        process.standardInput = stdin ?? FileHandle.nullDevice
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.terminationHandler = { [weak self] finished in
            guard let self else { return }
            self.exitCondition.lock()
            self.exitStatus = finished.terminationStatus
            self.exitCondition.broadcast()
            self.exitCondition.unlock()
        }
        try Subprocess.spawnLock.withLock {
            do {
                try process.run()
            } catch {
                throw ShellError.launchFailed(tool, "\(error)")
            }
        }
        Subprocess.startReader(outPipe.fileHandleForReading, into: stdout)
        Subprocess.startReader(errPipe.fileHandleForReading, into: stderr)
    }

    /// Under the AddressSanitizer run of `make test` (scripts/run-tests), aubade's own processes
    /// (the daemon, the verbs) check for leaks at exit, with the options (a suppressions file)
    /// in `AUBADE_LSAN_OPTIONS`. Only they: the test runner's leaks at exit are Foundation's
    /// (Process, Pipe and Thread objects in reference cycles, thousands per run), not the daemon's,
    /// so its own leak check is off (detect_leaks=0 in ASAN_OPTIONS).
    private static func addLeakCheck(to env: inout [String: String], for executable: String) {
        guard let options = env["AUBADE_LSAN_OPTIONS"], !options.isEmpty,
              URL(fileURLWithPath: executable).lastPathComponent == "aubade" else { return }
        // Of repeated flags the last one counts.
        env["ASAN_OPTIONS"] = (env["ASAN_OPTIONS"].map { $0 + " " } ?? "") + "detect_leaks=1"
        env["LSAN_OPTIONS"] = options
    }

    private static func startReader(_ handle: FileHandle, into buffer: OutputBuffer) {
        let thread = Thread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
            }
            buffer.close()
            try? handle.close()
        }
        thread.start()
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { exitCondition.withLock { exitStatus == nil } }
    var status: Int32? { exitCondition.withLock { exitStatus } }

    /// The exit status, or nil if still running after `timeout`.
    func waitForExit(timeout: TimeInterval) -> Int32? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        exitCondition.lock()
        defer { exitCondition.unlock() }
        while exitStatus == nil {
            if !exitCondition.wait(until: deadline) { break }
        }
        return exitStatus
    }

    func signal(_ signal: Int32) {
        guard isRunning else { return }
        kill(pid, signal)
    }

    /// SIGTERM (or `signal`), up to `grace` seconds, then SIGKILL. Returns the exit status.
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

enum Shell {
    /// The absolute path of `tool` on PATH (or `tool` itself when it holds a slash).
    static func which(_ tool: String) throws -> String {
        if tool.contains("/") { return tool }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw ShellError.notFound(tool)
    }

    /// Runs a command to completion (killed after `timeout` seconds) and returns its output.
    static func run(_ tool: String, _ arguments: [String], environment: [String: String?] = [:],
                    currentDirectory: URL? = nil, timeout: TimeInterval = 20) throws -> CommandResult {
        let child = try Subprocess(tool, arguments, environment: environment, currentDirectory: currentDirectory)
        var timedOut = false
        var status = child.waitForExit(timeout: timeout)
        if status == nil {
            timedOut = true
            status = child.stop(grace: 1)
        }
        // The pipes end when the child is gone; a short wait covers the reader threads' last chunk.
        child.stdout.waitUntilClosed(timeout: 2)
        child.stderr.waitUntilClosed(timeout: 2)
        return CommandResult(status: status ?? -1, stdout: child.stdout.text, stderr: child.stderr.text,
                             timedOut: timedOut)
    }
}

extension Shell {
    /// Whether process `pid` is alive: it exists and is not a zombie (one that ended but was
    /// not reaped yet is gone for a test checking that nothing is left running).
    static func isAlive(pid: Int32) -> Bool {
        guard kill(pid, 0) == 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else {
            return false
        }
        // The state follows the command name in parentheses, which may itself hold ") ".
        guard let close = stat.range(of: ") ", options: .backwards) else { return true }
        return !stat[close.upperBound...].hasPrefix("Z")
    }
}
