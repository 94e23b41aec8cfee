import Dispatch
import FFmpegWire
import Handoff

/// The helper that reads tags and covers while files are queued: one process for a whole
/// folder (starting one per file would cost 40 ms of loading FFmpeg each), started at the
/// first file that needs it and stopped `idleTime` after the last, so a daemon playing MP3s
/// has no helper at all.
///
/// Thread-safe: calls from the loading queue and the cover cache take turns. A helper that
/// crashes or hangs on one file fails that file only; the next file starts a new one.
public final class ProbeHelper: Sendable {
    public static let shared = ProbeHelper()

    /// How long it waits idle before it stops its helper (`defaultIdleTime`; tests shorten it).
    private let idleTime: Double

    public init(idleTime: Double = ProbeHelper.defaultIdleTime) {
        self.idleTime = idleTime
    }

    private struct State {
        var channel: HelperChannel?
        /// Bumped by every use: an idle stop scheduled before a later use is void.
        var generation = 0
        /// A conversation is under way (one can outlast the idle time: a slow disk, a
        /// sanitizer build): the idle stop waits for the next one.
        var busy = false
    }
    private let state = LockedState(State())
    /// Serializes the conversations (the state lock is never held while waiting for one).
    private let turn = Lock()

    /// A helper nobody asked anything for this long is stopped.
    public static let defaultIdleTime = 2.0
    /// One file's header may take this long (a slow disk, a `moov` at the end).
    static let timeout = 15.0

    /// The tags, length and cover flag of the file open at `descriptor`.
    public func facts(descriptor: Int32, formatName: String) throws(HelperError) -> TrackFacts {
        switch try ask(.text(.probe, formatName), descriptor: descriptor) {
        case .tags(let facts): return facts
        default: throw HelperError.broken("the answer to probe was not tags")
        }
    }

    /// The embedded cover of the file open at `descriptor`, nil when there is none.
    public func cover(descriptor: Int32, formatName: String) throws(HelperError) -> (mimeType: String, data: [UInt8])? {
        switch try ask(.text(.cover, formatName), descriptor: descriptor) {
        case .cover(let mime, let data): return (mime, data)
        case .noCover: return nil
        default: throw HelperError.broken("the answer to cover was not a cover")
        }
    }

    /// Stops the helper now (tests; the daemon's exit kills it anyway).
    public func stop() {
        let channel = state.withLock { state -> HelperChannel? in
            defer { state.channel = nil }
            return state.channel
        }
        channel?.close()
    }

    /// The running helper's pid, if one runs.
    public var pid: Int32? { state.withLock { $0.channel?.pid } }

    /// `request` with the file open at `descriptor`, answered within `timeout` seconds.
    func ask(_ request: WireFrame, descriptor: Int32, timeout: Double = ProbeHelper.timeout) throws(HelperError) -> HelperAnswer {
        let result = turn.withLock {
            state.withLock {
                $0.busy = true
                $0.generation += 1
            }
            defer { state.withLock { $0.busy = false } }
            return Result { () throws(HelperError) in try converse(request, descriptor: descriptor, timeout: timeout) }
        }
        scheduleIdleStop()
        return try result.get()
    }

    /// One request and its answer; called with `turn` held.
    private func converse(_ request: WireFrame, descriptor: Int32, timeout: Double) throws(HelperError) -> HelperAnswer {
        let channel: HelperChannel
        if let running = state.withLock({ $0.channel }) {
            channel = running
        } else {
            channel = try HelperChannel()
            state.withLock { $0.channel = channel }
        }
        do {
            try channel.send(request, passing: descriptor)
            return try channel.receive(timeout: timeout)
        } catch {
            // A helper that failed (not a file it refused) is gone: the next file starts another.
            if error.isHelperFault { state.withLock { if $0.channel === channel { $0.channel = nil } } }
            throw error
        }
    }

    private func scheduleIdleStop() {
        let generation = state.withLock { state -> Int in
            state.generation += 1
            return state.generation
        }
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + idleTime) { [self] in
            let idle = state.withLock { state -> HelperChannel? in
                guard state.generation == generation, !state.busy else { return nil }
                defer { state.channel = nil }
                return state.channel
            }
            idle?.close()
        }
    }
}
