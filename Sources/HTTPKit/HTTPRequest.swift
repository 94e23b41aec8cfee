/// One request as the handler sees it: whole (the body read to its end), decoded and checked.
public struct HTTPRequest: Sendable {
    /// As sent: `GET`, `POST`, …
    public let method: String
    /// Percent-decoded, without the query; valid UTF-8 with no NUL (else the server answered 400).
    public let path: String
    /// The query's parameters, decoded (`+` is a space); a repeated name keeps its first value.
    public let query: [String: String]
    public let headers: HTTPHeaders
    public let body: [UInt8]
    /// The peer's address as text (`127.0.0.1`, `::1`; an IPv4 peer on a dual-stack socket is
    /// shown as IPv4).
    public let peer: String
    /// Whether the peer is this machine (127.0.0.0/8 or ::1).
    public let peerIsLoopback: Bool

    public init(method: String, path: String, query: [String: String] = [:], headers: HTTPHeaders = HTTPHeaders(),
                body: [UInt8] = [], peer: String = "127.0.0.1", peerIsLoopback: Bool = true) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.peer = peer
        self.peerIsLoopback = peerIsLoopback
    }
}
