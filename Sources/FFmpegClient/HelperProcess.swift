import Dispatch
import FFmpegWire
import Handoff
#if canImport(Glibc)
import Glibc
#endif

/// One running `aubade-ffmpeg`: its pid and the daemon's end of its socket (the helper has the
/// other end as descriptor 3). Stopped with SIGKILL — it holds nothing worth saving — and
/// reaped on a background queue, so no caller waits for the kernel.
///
/// Used from one thread at a time (its owner's queue).
public final class HelperProcess {
    public let pid: pid_t
    let socket: WireSocket
    private var stopped = false

    /// Helpers started by this process and not yet reaped: for `aubade status` and the tests.
    public static var running: Int { runningCount.withLock { $0 } }
    private static let runningCount = LockedState(0)

    /// Starts the helper; throws `HelperError.notInstalled` or `.cannotStart`.
    public init() throws(HelperError) {
        let path: String
        switch HelperLocation.find() {
        case .success(let found): path = found
        case .failure(let error): throw error
        }
        let ends: (WireSocket, WireSocket)
        do { ends = try WireSocket.pair() } catch { throw .cannotStart("\(error)") }
        let (ours, theirs) = ends
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 onto 3 clears close-on-exec there; an end that already is 3 is moved away first.
        var childEnd = theirs.descriptor
        if childEnd == 3 {
            childEnd = fcntl(theirs.descriptor, F_DUPFD_CLOEXEC, 4)
        }
        posix_spawn_file_actions_adddup2(&actions, childEnd, 3)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Default signal handling in the child whatever the daemon set (SIGPIPE ignored…).
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var child: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
        defer { for argument in argv { free(argument) } }
        // From the spawn thread: the helper's death signal follows the thread that made it.
        let result = SpawnThread.shared.run { posix_spawn(&child, path, &actions, &attributes, argv, environ) }
        if childEnd != theirs.descriptor { close(childEnd) }
        theirs.close()
        guard result == 0 else { throw .cannotStart("posix_spawn \(path): \(String(cString: strerror(result)))") }
        pid = child
        socket = ours
        Self.runningCount.withLock { $0 += 1 }
        HelperWatchdog.shared.watch(child)
    }

    deinit { stop() }

    /// Kills the helper (if it still runs) and reaps it in the background.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        socket.close()
        kill(pid, SIGKILL)
        let pid = self.pid
        DispatchQueue.global(qos: .utility).async {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            _ = HelperWatchdog.shared.forget(pid)
            Self.runningCount.withLock { $0 -= 1 }
        }
    }

    /// How the helper ended, once its socket closed: "crashed (signal 11, SIGSEGV)", "exited
    /// with status 1". Waits up to `timeout` for the exit; kills it when it does not come.
    func fate(timeout: Double = 0.5) -> String {
        var status: Int32 = 0
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                stopped = true
                socket.close()
                Self.runningCount.withLock { $0 -= 1 }
                if let reason = HelperWatchdog.shared.forget(pid) { return reason + "; killed it" }
                return Self.describe(status)
            }
            if result < 0, errno != EINTR { break }
            if DispatchTime.now().uptimeNanoseconds > deadline { break }
            usleep(5_000)
        }
        stop()
        return "closed its connection"
    }

    /// Whether the process is stopped (SIGSTOP, a debugger): it will not answer.
    var isStopped: Bool {
        guard let text = Self.read("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return false }
        let state = text[text.index(after: close)...].drop { $0 == " " }.first
        return state == "T" || state == "t"
    }

    /// The helper's resident memory in bytes (VmRSS), for `aubade status` and the benchmark.
    public var residentBytes: Int? {
        guard let text = Self.read("/proc/\(pid)/status"),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
    }

    static func describe(_ status: Int32) -> String {
        let signal = status & 0x7F
        if signal == 0 { return "exited with status \((status >> 8) & 0xFF)" }
        let name: String
        switch signal {
        case SIGSEGV: name = "SIGSEGV"
        case SIGABRT: name = "SIGABRT"
        case SIGKILL: name = "SIGKILL"
        case SIGBUS: name = "SIGBUS"
        case SIGILL: name = "SIGILL"
        case SIGTRAP: name = "SIGTRAP"
        default: name = "signal \(signal)"
        }
        return "crashed (\(name))"
    }

    private static func read(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = Glibc.read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count), as: UTF8.self)
    }
}

