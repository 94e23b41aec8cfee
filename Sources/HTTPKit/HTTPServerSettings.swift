/// Where an `HTTPServer` listens and the limits it keeps. Every limit is enforced by the server
/// itself (libmicrohttpd or HTTPKit), before the handler sees a request.
public struct HTTPServerSettings: Sendable, Equatable {
    /// An IPv4 or IPv6 literal (`127.0.0.1`, `::1`, `[::1]`), or `any` for every interface
    /// (IPv6 and IPv4 on one socket where the system allows it).
    public var address: String
    /// 0 asks the system for a free port (tests); `HTTPServer.port` tells which.
    public var port: Int
    /// Connections open at once, event streams included; more are closed as they arrive.
    public var maximumConnections: Int
    /// Connections open at once from one peer address; 0: no limit but `maximumConnections`.
    public var connectionsPerAddress: Int
    /// A request body past this is answered 413 (at once when Content-Length announces it).
    public var maximumBodyBytes: Int
    /// Seconds a connection may stay silent before it is closed; event streams are exempt.
    public var connectionTimeout: Int
    /// Seconds between the `: ping` comments on every event stream (proxies and phones close
    /// connections that stay silent).
    public var eventStreamPingInterval: Double
    /// Bytes an event stream may hold for a client that does not read; past it the stream is
    /// closed, so a slow or vanished client never costs more memory than this.
    public var eventStreamBufferLimit: Int
    /// The stack of the server's one thread: the handler runs on it and must stay shallow.
    public var threadStackBytes: Int

    public init(address: String = "127.0.0.1", port: Int,
                maximumConnections: Int = 64, connectionsPerAddress: Int = 16,
                maximumBodyBytes: Int = 64 * 1024, connectionTimeout: Int = 30,
                eventStreamPingInterval: Double = 20, eventStreamBufferLimit: Int = 1024 * 1024,
                threadStackBytes: Int = 512 * 1024) {
        self.address = address
        self.port = port
        self.maximumConnections = maximumConnections
        self.connectionsPerAddress = connectionsPerAddress
        self.maximumBodyBytes = maximumBodyBytes
        self.connectionTimeout = connectionTimeout
        self.eventStreamPingInterval = eventStreamPingInterval
        self.eventStreamBufferLimit = eventStreamBufferLimit
        self.threadStackBytes = threadStackBytes
    }
}
