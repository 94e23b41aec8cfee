import CMicroHTTPD
import Handoff

/// What libmicrohttpd's callbacks reach through their context pointer: the settings, the
/// handler, and the requests and streams alive, which `stop()` must wake before libmicrohttpd
/// is stopped (it must not be stopped with a connection suspended) and the pings reach.
final class ServerCore: Sendable {
    private struct Alive {
        var stopping = false
        var exchanges: [ObjectIdentifier: Exchange] = [:]
        var streams: [ObjectIdentifier: EventStream] = [:]
    }

    let settings: HTTPServerSettings
    let handler: @Sendable (HTTPRequest, HTTPResponder) -> Void
    private let alive = LockedState(Alive())

    init(settings: HTTPServerSettings, handler: @escaping @Sendable (HTTPRequest, HTTPResponder) -> Void) {
        self.settings = settings
        self.handler = handler
    }

    /// A fresh start (a server may be started again after `stop()`).
    func reset() {
        alive.withLock { $0 = Alive() }
    }

    func begin(_ exchange: Exchange) {
        let stopping = alive.withLock { alive in
            alive.exchanges[ObjectIdentifier(exchange)] = exchange
            return alive.stopping
        }
        if stopping { exchange.stop() }
    }

    /// The request is over (libmicrohttpd's completion): its stream, if any, has ended too.
    func end(_ exchange: Exchange) {
        alive.withLock { _ = $0.exchanges.removeValue(forKey: ObjectIdentifier(exchange)) }
        if let stream = exchange.finish() {
            forget(stream)
            stream.finish()
        }
    }

    func register(_ stream: EventStream) {
        let stopping = alive.withLock { alive in
            alive.streams[ObjectIdentifier(stream)] = stream
            return alive.stopping
        }
        if stopping { stream.close() }
    }

    func forget(_ stream: EventStream) {
        alive.withLock { _ = $0.streams.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    func pingStreams() {
        for stream in alive.withLock({ Array($0.streams.values) }) { stream.ping() }
    }

    /// From here on nothing is suspended again: waiting requests and streams are woken to end.
    func beginStopping() {
        let (exchanges, streams) = alive.withLock { alive in
            alive.stopping = true
            return (Array(alive.exchanges.values), Array(alive.streams.values))
        }
        for stream in streams { stream.close() }
        for exchange in exchanges { exchange.stop() }
    }

    var openStreamCount: Int { alive.withLock { $0.streams.count } }
}
