import CMicroHTTPD
import Glibc
import Handoff

/// A server-sent events stream to one client (`text/event-stream`), opened by
/// `HTTPResponder.openEventStream(onClose:)`. Any thread may send to it.
///
/// What is sent waits in a buffer until libmicrohttpd's thread takes it for the socket; while
/// the buffer is empty the connection is suspended, so an idle stream costs no CPU. A client
/// that reads too slowly, or is gone without a word, lets the buffer grow to the server's
/// `eventStreamBufferLimit`: then the stream is closed. A client that has gone is noticed when
/// the next event or ping fails to reach it. `onClose` runs once, on whichever thread sees
/// the end (libmicrohttpd's, or the caller's of `openEventStream` when the request was over).
public final class EventStream: Sendable {
    private struct State {
        var buffer = EventBuffer()
        /// Set by libmicrohttpd's thread when the response is queued; nil once finished.
        var connection: OpaquePointer?
        var socket: Int32 = -1
        /// The connection waits in `MHD_suspend_connection` for bytes (or the end).
        var suspended = false
        /// No more events: what is buffered goes out, then the stream ends.
        var closing = false
        /// Over the limit: nothing more goes out, the connection is dropped.
        var overflowed = false
        var finished = false
    }

    private let state = LockedState(State())
    private let limit: Int
    private let onClose: @Sendable () -> Void

    init(limit: Int, onClose: @escaping @Sendable () -> Void) {
        self.limit = limit
        self.onClose = onClose
    }

    /// Queues one event; false when the stream is closed, or closes now because the client
    /// has left too much unread.
    @discardableResult
    public func send(event: String? = nil, data: String) -> Bool {
        enqueue(EventBuffer.event(named: event, data: data))
    }

    /// Ends the stream once what is queued has gone out.
    public func close() {
        state.withLock { state in
            guard !state.closing, !state.finished else { return }
            state.closing = true
            Self.wake(&state)
        }
    }

    /// Whether events sent now can still reach the client.
    public var isOpen: Bool {
        state.withLock { !$0.closing && !$0.finished }
    }

    /// Bytes waiting for the client (tests check the bound).
    public var pendingBytes: Int {
        state.withLock { $0.buffer.count }
    }

    func ping() {
        _ = enqueue(EventBuffer.ping)
    }

    private func enqueue(_ bytes: [UInt8]) -> Bool {
        state.withLock { state in
            guard !state.closing, !state.finished else { return false }
            guard state.buffer.count + bytes.count <= limit else {
                state.overflowed = true
                state.closing = true
                state.buffer.removeAll()
                Self.wake(&state)
                return false
            }
            state.buffer.append(bytes)
            Self.wake(&state)
            return true
        }
    }

    /// Under the lock: lets libmicrohttpd's thread see the change. A suspended connection is
    /// resumed (MHD then asks `read` again); an overflowed one that is busy writing to a client
    /// that does not read is shut down, which wakes MHD's poll with an error and makes it close
    /// the connection. The socket stays open until MHD closes it after `finish`, so shutting it
    /// down here, before `finish`, can never touch another connection's descriptor.
    private static func wake(_ state: inout State) {
        guard !state.finished, let connection = state.connection else { return }
        if state.suspended {
            state.suspended = false
            MHD_resume_connection(connection)
        } else if state.overflowed, state.socket >= 0 {
            shutdown(state.socket, Int32(SHUT_RDWR))
        }
    }

    // MARK: libmicrohttpd's thread

    /// The response carrying this stream was queued on `connection`.
    func attach(to connection: OpaquePointer) {
        let socket = aubade_mhd_socket(connection)
        state.withLock { state in
            state.connection = connection
            state.socket = socket
        }
    }

    /// The content reader: bytes for MHD, the end, or a suspension until there are some.
    func read(into target: UnsafeMutableRawBufferPointer) -> Int {
        state.withLock { state in
            if state.overflowed { return Int(AUBADE_MHD_END_WITH_ERROR) }
            let taken = state.buffer.take(into: target)
            if taken > 0 { return taken }
            if state.closing || state.finished { return Int(AUBADE_MHD_END_OF_STREAM) }
            guard let connection = state.connection else { return Int(AUBADE_MHD_END_WITH_ERROR) }
            // Suspended inside the lock, so a sender that sees `suspended` always finds the
            // connection really suspended when it resumes it.
            state.suspended = true
            MHD_suspend_connection(connection)
            return 0
        }
    }

    /// The connection is over (or never carried the stream): tell the owner, once.
    func finish() {
        let first = state.withLock { state in
            guard !state.finished else { return false }
            state.finished = true
            state.connection = nil
            state.socket = -1
            state.suspended = false
            state.buffer.removeAll()
            return true
        }
        if first { onClose() }
    }
}
