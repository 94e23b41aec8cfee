import CMicroHTTPD
import Handoff

/// One request and its answer, from the URI logger (the request line read) to the completion
/// callback. libmicrohttpd keeps it (retained) as the request's context.
///
/// Threads: the request's fields (`phase`, `method`, `body`) are libmicrohttpd's thread's
/// alone; the answer may come from any thread and is the only shared part, under `shared`.
final class Exchange: @unchecked Sendable {
    enum Answer {
        case response(HTTPResponse)
        case stream(EventStream)
    }

    enum Phase {
        /// The headers are in; the handler's first call.
        case headers
        /// The body is arriving.
        case body
        /// The handler has the request; the answer may come.
        case handed
        /// An answer is queued with libmicrohttpd.
        case queued
    }

    /// What the access handler does next once the handler has the request.
    enum Step {
        case send(Answer)
        /// Suspended until the answer comes.
        case wait
        /// The server is stopping: the connection is closed.
        case drop
    }

    private struct Shared {
        var answer: Answer?
        var suspended = false
        var stopping = false
        var finished = false
    }

    let connection: OpaquePointer
    let target: [UInt8]
    let peer: PeerAddress
    var phase = Phase.headers
    var body: [UInt8] = []
    private let shared = LockedState(Shared())

    init(connection: OpaquePointer, target: [UInt8], peer: PeerAddress) {
        self.connection = connection
        self.target = target
        self.peer = peer
    }

    /// Takes the first answer, from any thread; false if there was one already or the request
    /// is over. A suspended connection is resumed, inside the lock so that the resume always
    /// follows the suspension (see `nextStep`).
    func deliver(_ answer: Answer) -> Bool {
        shared.withLock { shared in
            guard shared.answer == nil, !shared.finished else { return false }
            shared.answer = answer
            if shared.suspended {
                shared.suspended = false
                MHD_resume_connection(connection)
            }
            return true
        }
    }

    /// libmicrohttpd's thread, in the access handler: the answer, or a suspension until it comes.
    func nextStep() -> Step {
        shared.withLock { shared in
            if let answer = shared.answer { return .send(answer) }
            if shared.stopping { return .drop }
            shared.suspended = true
            MHD_suspend_connection(connection)
            return .wait
        }
    }

    /// The server is stopping: no more suspensions, and a waiting connection is resumed, since
    /// libmicrohttpd must not be stopped with a connection suspended.
    func stop() {
        shared.withLock { shared in
            shared.stopping = true
            if shared.suspended {
                shared.suspended = false
                MHD_resume_connection(connection)
            }
        }
    }

    /// The request is over: later answers are dropped. Returns the stream it carried, if any,
    /// for its owner to be told.
    func finish() -> EventStream? {
        shared.withLock { shared in
            shared.finished = true
            shared.suspended = false
            if case let .stream(stream) = shared.answer { return stream }
            return nil
        }
    }
}
