import Glibc
import Synchronization
internal import CCurl
import Handoff

/// The `curl_multi_poll` loop behind a `TransferThread`: commands in, libcurl driven, stalls
/// timed, finished transfers reported.
///
/// Other threads only `submit` (under `inbox`'s lock, which also guards the multi handle's
/// existence for `curl_multi_wakeup`). Everything else runs on the loop's own thread.
final class TransferLoop: @unchecked Sendable {
    enum Command {
        case add(TransferCore)
        case remove(TransferCore)
        /// `read` made room in a paused transfer's buffer.
        case resume(TransferCore)
    }

    private struct Inbox {
        var commands: [Command] = []
        var multi: CurlMulti?
        var isRunning = false
        var isShuttingDown = false
    }
    private let inbox = LockedState(Inbox())
    /// The loop thread's `pthread_self()`, 0 before it runs.
    private let threadID = Atomic<UInt>(0)

    // Loop thread only.
    private var active: [UnsafeMutableRawPointer: TransferCore] = [:]
    /// Handles libcurl refused to remove: never freed, as libcurl may still point at them.
    private var unremovable: [(CurlEasy, TransferCore)] = []

    /// With nothing to do the loop still looks at its inbox now and then, so that even a lost
    /// wakeup (curl_multi_wakeup failing) only delays a command.
    static let idlePollMilliseconds: Int32 = 10_000
    static let busyPollMilliseconds: Int32 = 1_000

    var isCurrentThread: Bool { threadID.load(ordering: .acquiring) == pthread_self() }

    /// Queues `command` for the loop, starting the thread on first use. Any thread, never
    /// waits for the loop. If the thread cannot be started at all, an added transfer ends
    /// with `.other` right here, on the calling thread.
    func submit(_ command: Command) {
        let startFailure = inbox.withLock { state -> (CurlCallError, [Command])? in
            state.commands.append(command)
            if state.isRunning {
                // A failed wakeup is not lost work: the loop looks again within a poll interval.
                do { try state.multi?.wakeup() } catch {}
                return nil
            }
            do throws(CurlCallError) {
                let multi = try CurlMulti()
                try startThread(multi)
                state.multi = multi
                state.isRunning = true
                return nil
            } catch {
                defer { state.commands.removeAll() }
                return (error, state.commands)
            }
        }
        guard let (error, commands) = startFailure else { return }
        for case .add(let core) in commands { core.end(.failure(TransferFailure(error))) }
    }

    /// Ends the loop after the commands queued so far; transfers still running are dropped
    /// without events (nobody holds them any more).
    func shutDown() {
        inbox.withLock { state in
            state.isShuttingDown = true
            do { try state.multi?.wakeup() } catch {}
        }
    }

    private final class ThreadContext {
        let loop: TransferLoop
        let multi: CurlMulti
        init(loop: TransferLoop, multi: CurlMulti) {
            self.loop = loop
            self.multi = multi
        }
    }

    private func startThread(_ multi: CurlMulti) throws(CurlCallError) {
        let context = Unmanaged.passRetained(ThreadContext(loop: self, multi: multi)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            let context = Unmanaged<ThreadContext>.fromOpaque(raw).takeRetainedValue()
            context.loop.run(context.multi)
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<ThreadContext>.fromOpaque(context).release()
            throw CurlCallError(function: "pthread_create", message: String(cString: strerror(result)))
        }
        pthread_detach(thread)
    }

    // MARK: The loop thread

    private func run(_ multi: CurlMulti) {
        threadID.store(pthread_self(), ordering: .releasing)
        // Only for gdb and top; a thread without a name works the same.
        _ = aubade_name_this_thread("aubade-http")
        while true {
            let (commands, isShuttingDown) = inbox.withLock { state in
                defer { state.commands.removeAll() }
                return (state.commands, state.isShuttingDown)
            }
            for command in commands { apply(command, multi) }
            if isShuttingDown { break }
            do {
                try multi.perform()
            } catch {
                failAll(error, multi)
            }
            for (easy, code) in multi.finishedTransfers() {
                guard let core = active[easy] else { continue }
                detach(core, multi)
                core.complete(code)
            }
            endStalledTransfers(multi)
            do {
                try multi.poll(milliseconds: pollTimeout())
            } catch {
                failAll(error, multi)
                usleep(100_000)  // a multi that cannot poll would otherwise spin this loop
            }
        }
        for core in Array(active.values) {
            detach(core, multi)
            core.easy = nil
            core.dropHandler()
        }
        inbox.withLock { $0.multi = nil }
    }

    private func apply(_ command: Command, _ multi: CurlMulti) {
        switch command {
        case .add(let core):
            guard !core.isCancelled.load(ordering: .sequentiallyConsistent) else {
                core.dropHandler()
                return
            }
            do {
                try core.prepare()
                guard let easy = core.easy else { return }
                core.lastActivity = .now
                try multi.add(easy)
                active[easy.handle] = core
            } catch {
                core.end(.failure(TransferFailure(error)))
            }
        case .remove(let core):
            detach(core, multi)
            core.easy = nil
            core.dropHandler()
        case .resume(let core):
            guard let easy = core.easy, active[easy.handle] === core else { return }
            do {
                try core.resumeIfAsked()
            } catch {
                detach(core, multi)
                core.end(.failure(TransferFailure(error)))
            }
        }
    }

    /// Takes `core`'s handle out of the multi (the core keeps it until it is done with it).
    private func detach(_ core: TransferCore, _ multi: CurlMulti) {
        guard let easy = core.easy, active[easy.handle] === core else { return }
        active[easy.handle] = nil
        do {
            try multi.remove(easy)
        } catch {
            unremovable.append((easy, core))
        }
    }

    private func failAll(_ error: CurlCallError, _ multi: CurlMulti) {
        for core in Array(active.values) {
            detach(core, multi)
            core.end(.failure(TransferFailure(error)))
        }
    }

    /// libcurl's low-speed check skips paused transfers but cannot tell our pause from a
    /// server's silence either way, so the stall clock is ours: it stops while we pause.
    private func endStalledTransfers(_ multi: CurlMulti) {
        let now = ContinuousClock.now
        for core in Array(active.values) where !core.isPausedByUs && now >= core.stallDeadline {
            detach(core, multi)
            core.endStalled()
        }
    }

    /// Until the nearest stall deadline; libcurl shortens it further for its own timeouts.
    private func pollTimeout() -> Int32 {
        guard !active.isEmpty else { return Self.idlePollMilliseconds }
        let now = ContinuousClock.now
        var timeout = Self.busyPollMilliseconds
        for core in active.values where !core.isPausedByUs {
            let (seconds, attoseconds) = (core.stallDeadline - now).components
            let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1
            timeout = min(timeout, Int32(clamping: max(milliseconds, 0)))
        }
        return timeout
    }
}
