import DBusKit
import Foundation

/// Sends hostile calls to a running daemon and keeps the score: what was answered and how
/// fast, what went wrong. Calls that load files (OpenUri, AddTrack, ActivatePlaylist) answer
/// when loading is done, so they go out without waiting and are collected by `waitForLoads`;
/// everything else waits for its answer, so each round trip is measured alone.
/// Used from one thread; the load replies arrive on the client's queue (hence the lock).
final class FuzzRun: @unchecked Sendable {
    let daemon: Daemon
    let client: BusClient
    private let lock = NSLock()
    private var state = State()

    struct State {
        var failures: [String] = []
        var errors = 0
        var returns = 0
        /// Round trips of the calls answered at once (not loads), in seconds.
        var replySeconds: [Double] = []
        /// Round trips of the loads, in seconds.
        var loadSeconds: [Double] = []
        var slowest: (seconds: Double, call: String) = (0, "")
        /// Time spent per kind of call, for the summary.
        var secondsByKind: [String: (count: Int, seconds: Double)] = [:]
        var pendingLoads = 0
        var unanswered = 0
        /// The last calls sent, newest last: what to show when the daemon dies.
        var recent: [String] = []
        var reportedDeath = false
    }

    init(daemon: Daemon, client: BusClient) {
        self.daemon = daemon
        self.client = client
    }

    var snapshot: State { lock.withLock { state } }
    var failures: [String] { lock.withLock { state.failures } }

    /// False once the daemon is gone or stopped answering: every further call would wait out its timeout.
    var mayGoOn: Bool { lock.withLock { state.unanswered } < 2 && daemon.isRunning }

    static func isLoad(_ call: HostileCall) -> Bool {
        ["OpenUri", "AddTrack", "ActivatePlaylist"].contains(call.member)
    }

    /// Loads waiting for their answer at most: the bus refuses a connection more than 128
    /// pending replies, and loads queue up behind each other in the daemon.
    static let maximumPendingLoads = 16

    /// Sends `call`; false when it was not sent because too many loads are pending (make another).
    @discardableResult
    func send(_ call: HostileCall, timeoutMilliseconds: Int32 = 5_000) -> Bool {
        if Self.isLoad(call) {
            let admitted = lock.withLock {
                guard state.pendingLoads < Self.maximumPendingLoads else { return false }
                state.pendingLoads += 1
                state.recent = (state.recent + [call.description]).suffix(5)
                return true
            }
            guard admitted else { return false }
            do {
                // Weak: the last reference must never go away on the client's own queue.
                try client.callAsync(path: call.path, interface: call.interface, member: call.member, call.arguments,
                                     timeoutMilliseconds: 60_000) { [weak self] outcome, seconds in
                    guard let self else { return }
                    record(call, outcome, seconds, isLoad: true)
                    lock.withLock { state.pendingLoads -= 1 }
                }
            } catch {
                lock.withLock {
                    state.pendingLoads -= 1
                    state.failures.append("could not send \(call): \(error)")
                }
            }
            return true
        }
        lock.withLock { state.recent = (state.recent + [call.description]).suffix(5) }
        do {
            let (outcome, seconds) = try client.call(path: call.path, interface: call.interface, member: call.member,
                                                     call.arguments, timeoutMilliseconds: timeoutMilliseconds)
            record(call, outcome, seconds, isLoad: false)
        } catch {
            // The call could not be built: a bug in the maker, not in the daemon.
            lock.withLock { state.failures.append("could not send \(call): \(error)") }
        }
        return true
    }

    private func record(_ call: HostileCall, _ outcome: BusClient.Outcome, _ seconds: Double, isLoad: Bool) {
        let running = daemon.isRunning
        lock.withLock {
            if isLoad { state.loadSeconds.append(seconds) } else { state.replySeconds.append(seconds) }
            if !state.reportedDeath, !running || outcome.errorName == "org.freedesktop.DBus.Error.ServiceUnknown" {
                state.reportedDeath = true
                state.failures.append("the daemon died; the last calls were:\n  " + state.recent.joined(separator: "\n  "))
            }
            if seconds > state.slowest.seconds { state.slowest = (seconds, call.description) }
            let spent = state.secondsByKind[call.kind] ?? (0, 0)
            state.secondsByKind[call.kind] = (spent.count + 1, spent.seconds + seconds)
            switch outcome {
            case .noReply(let why):
                state.unanswered += 1
                state.failures.append("no reply to \(call) after \(Int(seconds * 1000)) ms: \(why)")
            case .error(let name, _):
                state.errors += 1
                if name == DBusError.noMemoryName { state.failures.append("\(name) for \(call)") }
            case .returned:
                state.returns += 1
                if call.expectation == .error { state.failures.append("accepted, but must be an error: \(call)") }
            }
        }
    }

    /// Ping must be answered, the process still be there.
    func checkBetweenBatches() {
        guard daemon.isRunning else {
            return lock.withLock { state.failures.append("the daemon is no longer running") }
        }
        do {
            let ping = try client.ping(timeoutMilliseconds: 2_000)
            if !ping.isReturn {
                lock.withLock {
                    state.unanswered += 1
                    state.failures.append("Ping between batches: \(ping)")
                }
            }
        } catch {
            lock.withLock { state.failures.append("Ping between batches could not be sent: \(error)") }
        }
    }

    /// Waits until every load has been answered; false (and a failure) at `deadline`.
    @discardableResult
    func waitForLoads(until deadline: Date) -> Bool {
        while lock.withLock({ state.pendingLoads }) > 0 {
            if Date() >= deadline {
                let pending = lock.withLock { state.pendingLoads }
                lock.withLock { state.failures.append("\(pending) loads (OpenUri/AddTrack) still unanswered at the deadline") }
                return false
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return true
    }

    /// The kinds of call that took the most time, for the summary line.
    var busiestKinds: String {
        snapshot.secondsByKind.sorted { $0.value.seconds > $1.value.seconds }.prefix(6)
            .map { String(format: "%@ %d × %.1f ms", $0.key, $0.value.count, $0.value.seconds * 1000 / Double($0.value.count)) }
            .joined(separator: ", ")
    }
}
