import CMicroHTTPD
import Dispatch
import Glibc
import Handoff

/// An HTTP/1.1 server on libmicrohttpd (docs/http.md): one thread polls every connection
/// (epoll) and runs `handler` for each whole request; the handler answers through its
/// `HTTPResponder`, at once or later from any thread, or opens an event stream.
///
/// The handler runs on the server's thread: it must return quickly and never wait (hop to
/// another queue and answer from there). `stop()` must not be called from the handler.
public final class HTTPServer: Sendable {
    private struct Running {
        let daemon: OpaquePointer
        let port: Int
        let pinger: any DispatchSourceTimer
    }

    public let settings: HTTPServerSettings
    private let core: ServerCore
    private let running = LockedState<Running?>(nil)

    public init(settings: HTTPServerSettings, handler: @escaping @Sendable (HTTPRequest, HTTPResponder) -> Void) {
        self.settings = settings
        core = ServerCore(settings: settings, handler: handler)
    }

    deinit { stop() }

    /// The port listened on while running (the system's pick when the settings say 0).
    public var port: Int? {
        running.withLock { $0?.port }
    }

    /// Event streams open now.
    public var openEventStreams: Int { core.openStreamCount }

    public func start() throws(HTTPServerError) {
        try running.withLock { running -> Result<Void, HTTPServerError> in
            guard running == nil else { return .failure(.alreadyStarted) }
            return Result { () throws(HTTPServerError) in running = try launch() }
        }.get()
    }

    private func launch() throws(HTTPServerError) -> Running {
        let socket = try ListeningSocket.open(address: settings.address, port: settings.port,
                                              backlog: Int32(clamping: max(settings.maximumConnections, 16)))
        core.reset()
        let flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        // On failure the socket is left open: whether libmicrohttpd closed it is not
        // documented, and closing it twice could close a descriptor another thread just got.
        guard let daemon = aubade_mhd_start(flags, socket.descriptor,
                                            UInt32(clamping: max(settings.maximumConnections, 1)),
                                            UInt32(clamping: max(settings.connectionsPerAddress, 0)),
                                            UInt32(clamping: max(settings.connectionTimeout, 0)),
                                            max(settings.threadStackBytes, 64 * 1024),
                                            accessHandler, requestCompleted, uriLogger,
                                            Unmanaged.passUnretained(core).toOpaque())
        else { throw .cannotStart }
        return Running(daemon: daemon, port: socket.port, pinger: startPings())
    }

    /// Closes every connection and event stream (each stream's `onClose` runs before this
    /// returns) and joins the server's thread. A server stopped may be started again.
    public func stop() {
        guard let stopped = running.withLock({ running in defer { running = nil }; return running }) else { return }
        stopped.pinger.cancel()
        core.beginStopping()
        MHD_stop_daemon(stopped.daemon)
    }

    private func startPings() -> any DispatchSourceTimer {
        let interval = settings.eventStreamPingInterval.isFinite ? max(settings.eventStreamPingInterval, 0.05) : 20
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "httpkit.pings"))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(Int(interval * 100)))
        timer.setEventHandler { [core] in core.pingStreams() }
        timer.resume()
        return timer
    }
}
