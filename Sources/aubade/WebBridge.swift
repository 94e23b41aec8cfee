import HTTPKit
import WebFrontEnd

/// HTTPKit's requests and streams as the web front-end reads them: the one place that knows
/// both (the front-end knows no HTTP library, HTTPKit knows no Aubade).
enum WebBridge {
    static func serve(_ request: HTTPRequest, _ responder: HTTPResponder, on web: WebFrontEnd) {
        var headers: [String: String] = [:]
        for field in request.headers where headers[field.name.lowercased()] == nil {
            headers[field.name.lowercased()] = field.value
        }
        let asked = WebRequest(method: request.method, path: request.path, query: request.query, headers: headers,
                               body: request.body, fromLoopback: request.peerIsLoopback, peer: request.peer)
        web.serve(asked, reply: { response in
            responder.respond(HTTPResponse(status: response.status, headers: HTTPHeaders(response.headers),
                                           body: .bytes(response.body)))
        }, openStream: { [weak web] in
            let sink = StreamSink()
            sink.stream = responder.openEventStream { [weak web, weak sink] in
                if let sink { web?.streamClosed(sink) }
            }
            return sink
        })
    }
}

/// One page's event stream, as the front-end sends to it.
final class StreamSink: WebEventSink, @unchecked Sendable {
    // @unchecked Sendable: `stream` is set once, before the front-end ever sees the sink.
    var stream: EventStream?

    func send(event: String, data: String) -> Bool { stream?.send(event: event, data: data) ?? false }
    func close() { stream?.close() }
}
