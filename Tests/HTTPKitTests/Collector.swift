import Handoff
import HTTPKit

/// What the tests' handlers keep for the test's thread: requests seen, responders held, streams
/// opened, streams closed.
final class Collector: Sendable {
    private struct Kept {
        var requests: [HTTPRequest] = []
        var responders: [HTTPResponder] = []
        var streams: [EventStream] = []
        var closed = 0
    }

    private let kept = LockedState(Kept())

    func note(_ request: HTTPRequest) { kept.withLock { $0.requests.append(request) } }
    func hold(_ responder: HTTPResponder) { kept.withLock { $0.responders.append(responder) } }
    func keep(_ stream: EventStream) { kept.withLock { $0.streams.append(stream) } }
    func streamClosed() { kept.withLock { $0.closed += 1 } }

    var requests: [HTTPRequest] { kept.withLock { $0.requests } }
    var streams: [EventStream] { kept.withLock { $0.streams } }
    var closedStreams: Int { kept.withLock { $0.closed } }
    var heldCount: Int { kept.withLock { $0.responders.count } }

    func releaseHeld(with response: HTTPResponse) {
        for responder in kept.withLock({ kept in defer { kept.responders = [] }; return kept.responders }) {
            responder.respond(response)
        }
    }
}
