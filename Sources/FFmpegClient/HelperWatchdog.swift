import Dispatch
import Handoff
#if canImport(Glibc)
import Glibc
#endif

/// Watches the resident memory of every running helper and kills one that grows past
/// `limit` — whatever it is doing, answering or not. The helper's own address-space rlimit
/// catches most runaways first; this one holds where that cannot be set (a sanitizer build)
/// and is the daemon's own word on it. Runs a timer only while a helper runs.
final class HelperWatchdog: Sendable {
    static let shared = HelperWatchdog()

    /// A helper decoding normally stays under 50 MB.
    static let limit = 384 * 1024 * 1024
    static let interval = 0.1

    private struct State {
        var watched: Set<pid_t> = []
        var killed: [pid_t: String] = [:]
        var timer: DispatchSourceTimer?
    }
    private let state = LockedState(State())
    private let queue = DispatchQueue(label: "aubade.ffmpeg-watchdog", qos: .utility)
    private let limit: Int
    private let residentBytes: @Sendable (pid_t) -> Int?
    private let kill: @Sendable (pid_t) -> Void

    /// `residentBytes` and `kill` are seams for tests; the daemon uses /proc and SIGKILL.
    init(limit: Int = HelperWatchdog.limit,
         residentBytes: @escaping @Sendable (pid_t) -> Int? = HelperWatchdog.residentBytes,
         kill: @escaping @Sendable (pid_t) -> Void = { _ = Glibc.kill($0, SIGKILL) }) {
        self.limit = limit
        self.residentBytes = residentBytes
        self.kill = kill
    }

    func watch(_ pid: pid_t) {
        state.withLock { state in
            state.watched.insert(pid)
            guard state.timer == nil else { return }
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + Self.interval, repeating: Self.interval)
            timer.setEventHandler { [weak self] in self?.check() }
            state.timer = timer
            timer.resume()
        }
    }

    /// Stops watching `pid`; returns why the watchdog killed it, if it did.
    func forget(_ pid: pid_t) -> String? {
        state.withLock { state in
            state.watched.remove(pid)
            if state.watched.isEmpty {
                state.timer?.cancel()
                state.timer = nil
            }
            return state.killed.removeValue(forKey: pid)
        }
    }

    /// Why `pid` was killed, if the watchdog did it (kept until `forget`).
    func reason(for pid: pid_t) -> String? { state.withLock { $0.killed[pid] } }

    /// One look at every watched helper (the timer's turn; internal for tests).
    func check() {
        let pids = state.withLock { $0.watched }
        for pid in pids {
            guard let resident = residentBytes(pid), resident > limit else { continue }
            // The reason first: whoever reaps the helper asks for it as soon as it is dead, and
            // a reason stored after the kill was sometimes too late ("crashed (SIGKILL)" in the
            // log instead of the memory it grew to).
            state.withLock { $0.killed[pid] = "grew to \(resident / (1024 * 1024)) MB of memory (more than \(limit / (1024 * 1024)) MB)" }
            kill(pid)
        }
    }

    /// VmRSS from /proc/PID/statm's second field (pages).
    static func residentBytes(_ pid: pid_t) -> Int? {
        let descriptor = open("/proc/\(pid)/statm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return nil }
        let fields = buffer.prefix(count).split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
