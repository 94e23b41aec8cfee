import Synchronization
internal import CCurl
import Handoff

/// One transfer's state, shared by the transfer thread (libcurl's callbacks, the loop) and the
/// reader's thread (`read`, `cancel`). `HTTPTransfer` is its public face; the loop holds it
/// strongly while its easy handle is in the multi, so libcurl's userdata pointer to it stays
/// valid even after the `HTTPTransfer` is gone.
///
/// Locks: `buffer` (the ring and the pause handshake) and `handler` (event delivery) are never
/// held together, except that an event handler may call `read`, which takes `buffer`.
final class TransferCore: @unchecked Sendable {
    typealias Handler = @Sendable (HTTPTransfer.Event) -> Void

    let request: HTTPRequest
    let loop: TransferLoop

    /// What the reader and the write callback share.
    struct BufferState {
        let ring: ByteRing
        var bytesReceived: Int64 = 0
        /// The write callback answered CURL_WRITEFUNC_PAUSE: libcurl holds `refusedCount` bytes
        /// back and reads nothing more until it is resumed on the transfer thread.
        var isPaused = false
        var refusedCount = 0
        /// `read` made room for the refused bytes and asked the loop to resume.
        var resumeRequested = false
    }
    let buffer: LockedState<BufferState>

    /// Events run under this lock, so that `cancel` from another thread can wait for the one
    /// being delivered. Emptied at the end and on cancel: the handler may capture the
    /// `HTTPTransfer`, and that cycle must not outlive the transfer.
    private let handler: LockedState<Handler?>
    let isCancelled = Atomic<Bool>(false)
    private let isStarted = Atomic<Bool>(false)

    // Transfer thread only.
    var easy: CurlEasy?
    var parser = ResponseHeadParser()
    var isHeadDelivered = false
    /// The last response's fields are complete and it is a redirect libcurl will follow.
    var isAwaitingRedirect = false
    var hasResponseStarted = false
    /// Why one of our callbacks ended the transfer (a hostile header), told instead of
    /// libcurl's "failed writing received data".
    var refusal: String?
    var lastActivity = ContinuousClock.now
    private var isEnded = false

    init(request: HTTPRequest, bufferCapacity: Int, loop: TransferLoop, events: @escaping Handler) {
        self.request = request
        self.loop = loop
        // libcurl hands over up to CURL_MAX_WRITE_SIZE bytes at once and accepts all or none:
        // a smaller ring could never take such a piece.
        let capacity = max(bufferCapacity, Int(aubade_CURL_MAX_WRITE_SIZE))
        buffer = LockedState(BufferState(ring: ByteRing(capacity: capacity)))
        handler = LockedState(events)
    }

    var capacity: Int { buffer.withLock { $0.ring.capacity } }

    // MARK: Any thread

    func start() {
        guard !isStarted.exchange(true, ordering: .sequentiallyConsistent) else { return }
        // Paired with cancel(): either cancel sees isStarted and removes, or we see isCancelled.
        guard !isCancelled.load(ordering: .sequentiallyConsistent) else { return }
        loop.submit(.add(self))
    }

    func cancel() {
        let wasCancelled = isCancelled.exchange(true, ordering: .sequentiallyConsistent)
        if !loop.isCurrentThread {
            // Waits for an event being delivered right now; none comes after.
            let dropped = handler.withLock { current -> Handler? in
                defer { current = nil }
                return current
            }
            _ = dropped  // released here, outside the lock: it may hold the last HTTPTransfer
        }
        // On the transfer thread we may be inside a delivery (holding `handler`): the flag is
        // enough, deliveries check it, and the loop drops the handler when it removes us.
        if !wasCancelled, isStarted.load(ordering: .sequentiallyConsistent) {
            loop.submit(.remove(self))
        }
    }

    func read(into target: UnsafeMutableRawBufferPointer) -> Int {
        let (count, wantsResume) = buffer.withLock { state -> (Int, Bool) in
            let count = state.ring.read(into: target)
            // Resume only once the whole refused piece fits, or it would just pause again.
            guard state.isPaused, !state.resumeRequested, state.ring.freeSpace >= state.refusedCount else {
                return (count, false)
            }
            state.resumeRequested = true
            return (count, true)
        }
        if wantsResume { loop.submit(.resume(self)) }
        return count
    }

    // MARK: Transfer thread

    /// Delivers `event` unless cancelled; `isLast` drops the handler afterwards.
    func deliver(_ event: HTTPTransfer.Event, isLast: Bool = false) {
        let dropped = handler.withLock { current -> Handler? in
            guard let events = current else { return nil }
            if !isCancelled.load(ordering: .sequentiallyConsistent) { events(event) }
            guard isLast || isCancelled.load(ordering: .sequentiallyConsistent) else { return nil }
            current = nil
            return events
        }
        _ = dropped  // released outside the lock
    }

    /// Forgets the handler of a cancelled transfer (it may capture the `HTTPTransfer`).
    func dropHandler() {
        let dropped = handler.withLock { current -> Handler? in
            defer { current = nil }
            return current
        }
        _ = dropped
    }

    /// The one `.ended`, unless cancelled. Frees the easy handle: the loop removed it.
    func end(_ result: Result<Void, TransferFailure>) {
        easy = nil
        guard !isEnded else { return }
        isEnded = true
        deliver(.ended(result), isLast: true)
    }

    /// The transfer's own result, from `curl_multi_info_read`.
    func complete(_ code: CURLcode) {
        if code == CURLE_OK {
            // A body-less answer (a 204, an empty 404) has its head only now.
            if !isHeadDelivered { deliverHead() }
            end(.success(()))
        } else if let refusal {
            end(.failure(TransferFailure(kind: .other, message: CredentialRedaction.redacting(refusal))))
        } else if let easy {
            end(.failure(TransferFailure(easy.error("curl_multi_perform", code), isTransferResult: true)))
        } else {
            end(.failure(TransferFailure(CurlCallError(function: "curl_multi_perform", code: code), isTransferResult: true)))
        }
    }

    /// Whether the transfer is held back by us, which is not a stall.
    var isPausedByUs: Bool { buffer.withLock { $0.isPaused } }

    /// When the transfer counts as stalled: `stallTimeout` after the last byte, and before the
    /// first byte of a response also `connectTimeout` (libcurl's own connect timeout fails it
    /// with `.timeout` if the connection is what takes long).
    var stallDeadline: ContinuousClock.Instant {
        let stall = Milliseconds.duration(request.stallTimeout)
        return lastActivity + (hasResponseStarted ? stall : stall + Milliseconds.duration(request.connectTimeout))
    }

    func endStalled() {
        // Best effort: the URL only makes the message clearer.
        let url = (try? easy?.info(string: CURLINFO_EFFECTIVE_URL)) ?? request.url
        let message = "received nothing from \(url) for \(Milliseconds.seconds(request.stallTimeout)) s"
        end(.failure(TransferFailure(kind: .stalled, message: CredentialRedaction.redacting(message))))
    }

    /// Resumes the transfer if `read` asked and nothing changed since.
    func resumeIfAsked() throws(CurlCallError) {
        let resume = buffer.withLock { state -> Bool in
            guard state.isPaused, state.resumeRequested else { return false }
            state.isPaused = false
            state.resumeRequested = false
            return true
        }
        guard resume, let easy else { return }
        lastActivity = .now
        // May run the write callback (the held-back bytes) before it returns, and pause again.
        try easy.resume()
    }
}
