/// How a handler answers its request: once, now or later, from any thread. The first answer
/// counts; later ones are ignored, as are answers to a request whose client has gone.
///
/// A responder dropped without an answer answers 500, so a forgetful handler cannot leave a
/// connection hanging.
public final class HTTPResponder: Sendable {
    private let exchange: Exchange
    private let core: ServerCore

    init(exchange: Exchange, core: ServerCore) {
        self.exchange = exchange
        self.core = core
    }

    deinit {
        _ = exchange.deliver(.response(.error("the request was not answered", status: 500)))
    }

    public func respond(_ response: HTTPResponse) {
        _ = exchange.deliver(.response(response))
    }

    /// Answers with an event stream (200, `text/event-stream`, `Cache-Control: no-cache`).
    /// `onClose` runs once when the stream ends, whoever ends it: at once if this request was
    /// already answered or is over.
    public func openEventStream(onClose: @escaping @Sendable () -> Void) -> EventStream {
        let stream = EventStream(limit: core.settings.eventStreamBufferLimit, onClose: onClose)
        core.register(stream)
        if !exchange.deliver(.stream(stream)) {
            core.forget(stream)
            stream.finish()
        }
        return stream
    }
}
