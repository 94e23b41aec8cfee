/// One HTTP(S) GET whose body lands in a bounded buffer that any thread can read from:
/// an internet radio stream or a file on a web server.
///
/// The body is never held in full: the transfer pauses when `bufferCapacity` bytes wait
/// unread and goes on when `read` makes room, so memory stays within the capacity plus
/// libcurl's own buffer, whatever the server sends.
///
/// Events are delivered on the transfer thread, one at a time; handlers must not block (and
/// may call `read`, `cancel`, or drop the transfer). `.head` comes once, before any body
/// byte; `.bytesAvailable` at least whenever the buffer goes from empty to non-empty;
/// `.ended` exactly once — unless `cancel()` came first, after which nothing is delivered.
/// A response with an error status (404) is not a failure: it has a head and a body.
public final class HTTPTransfer: @unchecked Sendable {
    /// What the transfer thread reports.
    public enum Event: Sendable {
        /// The status and header fields of the final response.
        case head(HTTPResponseHead)
        /// The buffer holds bytes to `read`.
        case bytesAvailable
        /// The transfer is over: the whole body was received, or why not. Bytes still in the
        /// buffer can be read after this.
        case ended(Result<Void, TransferFailure>)
    }

    private let core: TransferCore
    /// Kept so the thread outlives every transfer on it.
    private let thread: TransferThread

    /// A transfer of `request`; nothing happens before `start()`.
    /// `bufferCapacity` is rounded up to libcurl's largest single write (16 KiB).
    public init(_ request: HTTPRequest, bufferCapacity: Int, thread: TransferThread = .shared,
                events: @escaping @Sendable (Event) -> Void) {
        self.thread = thread
        core = TransferCore(request: request, bufferCapacity: bufferCapacity, loop: thread.loop, events: events)
    }

    deinit { core.cancel() }

    /// Begins the transfer on the transfer thread. Only the first call counts.
    public func start() { core.start() }

    /// Copies up to `buffer.count` buffered body bytes into `buffer`; returns how many, 0 when
    /// none are there now. Any thread, never blocks. Making room resumes a paused transfer.
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Int { core.read(into: buffer) }

    /// Body bytes waiting to be read.
    public var bufferedByteCount: Int { core.buffer.withLock { $0.ring.count } }

    /// Body bytes received so far (read or not).
    public var bytesReceived: Int64 { core.buffer.withLock { $0.bytesReceived } }

    /// The buffer's real capacity (`bufferCapacity`, at least 16 KiB).
    public var bufferCapacity: Int { core.capacity }

    /// Stops the transfer. Idempotent, any thread (also inside an event handler); once it
    /// returns no more events are delivered. The connection is closed on the transfer thread
    /// soon after. Bytes already buffered can still be read.
    public func cancel() { core.cancel() }
}
