import FFmpegWire

/// Requests to one helper and its answers, with the daemon's guards: an answer that does not
/// come in time, a helper that is stopped, dies or breaks the protocol ends the conversation
/// (the helper is killed) with a `HelperError` that says which.
///
/// Used from one thread at a time (the item's decoder queue, or the loading queue).
public final class HelperChannel {
    public let process: HelperProcess
    /// Once set, every call throws it: a helper that failed once is never trusted again.
    public private(set) var failure: HelperError?

    /// A stopped helper is noticed within this long even when the timeout is longer.
    static let stoppedCheckInterval = 0.2

    public init() throws(HelperError) {
        process = try HelperProcess()
    }

    public var pid: Int32 { process.pid }

    public func send(_ frame: WireFrame, passing descriptor: Int32? = nil) throws(HelperError) {
        if let failure { throw failure }
        do {
            try process.socket.send(frame, passing: descriptor)
        } catch .closed {
            throw fail(.died(process.fate()))
        } catch {
            throw fail(.broken(error.description))
        }
    }

    /// The next answer, waiting at most `timeout` seconds. `.failure`/`.dropped` answers are
    /// thrown as `.refused`/`.dropped` (the helper lives on; its session is over).
    /// `isCancelled` is asked between slices of the wait: true ends it (the helper is killed,
    /// `.cancelled` thrown) — an item dropped while its station fetches.
    public func receive(timeout: Double, isCancelled: (() -> Bool)? = nil) throws(HelperError) -> HelperAnswer {
        if let failure { throw failure }
        var waited = 0.0
        while true {
            if let isCancelled, isCancelled() { throw fail(.cancelled) }
            let slice = min(Self.stoppedCheckInterval, timeout - waited)
            let frame: WireFrame
            do throws(WireError) {
                frame = try process.socket.receive(timeout: slice)
            } catch .timedOut {
                waited += slice
                if process.isStopped { throw fail(.hung("was stopped (SIGSTOP) and answered nothing")) }
                if waited >= timeout { throw fail(.hung("answered nothing for \(Int(timeout.rounded())) s")) }
                continue
            } catch .closed {
                throw fail(.died(process.fate()))
            } catch {
                throw fail(.broken(error.description))
            }
            do {
                return try HelperAnswer(frame)
            } catch {
                if case .broken = error { throw fail(error) }
                throw error
            }
        }
    }

    /// Kills the helper.
    public func close() {
        process.stop()
    }

    private func fail(_ error: HelperError) -> HelperError {
        failure = error
        process.stop()
        return error
    }
}
