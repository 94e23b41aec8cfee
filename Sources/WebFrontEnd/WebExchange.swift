/// A request as the web front-end reads it, whatever the HTTP library: the adapter
/// (`WebFrontEnd+HTTP.swift`) fills it in from HTTPKit, the unit tests by hand.
public struct WebRequest: Sendable {
    public var method: String
    /// Percent-decoded, without the query ("/api/albums").
    public var path: String
    /// Decoded query parameters (the first of a repeated name).
    public var query: [String: String]
    /// Header names in lower case.
    public var headers: [String: String]
    public var body: [UInt8]
    /// The peer is this machine (127.0.0.0/8, ::1).
    public var fromLoopback: Bool
    /// The peer's address in words, for the rate limit and the log.
    public var peer: String

    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
                body: [UInt8] = [], fromLoopback: Bool = true, peer: String = "127.0.0.1") {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.fromLoopback = fromLoopback
        self.peer = peer
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// An answer: a status, its headers, its body.
public struct WebResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public static func == (lhs: WebResponse, rhs: WebResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body
            && lhs.headers.map { "\($0.name): \($0.value)" } == rhs.headers.map { "\($0.name): \($0.value)" }
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// Where a server-sent event goes: one open page. `send` is false once the page is gone (or
/// too slow to read: its stream is closed rather than its events kept without bound).
public protocol WebEventSink: AnyObject, Sendable {
    @discardableResult
    func send(event: String, data: String) -> Bool
    func close()
}
