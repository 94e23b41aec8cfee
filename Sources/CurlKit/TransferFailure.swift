/// Why an `HTTPTransfer` ended before its body did.
///
/// `message` is for people (logs, the MPRIS error text): libcurl's sentence about the failure,
/// or ours, with any `user:password@` taken out of URLs in it.
public struct TransferFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, coarse enough to decide on (retry, give up, tell the user).
    public enum Kind: Sendable, Equatable {
        /// The host name did not resolve.
        case resolve
        /// Nothing accepted the connection (refused, unreachable).
        case connect
        /// `connectTimeout` passed before the connection (with TLS) stood.
        case timeout
        /// No byte for `stallTimeout` while the transfer was not paused by us.
        case stalled
        /// The TLS handshake failed, e.g. the peer's certificate is not trusted.
        case tls
        /// More redirects than `maxRedirects`.
        case tooManyRedirects
        /// The body was shorter than its `Content-Length`, or the connection was reset.
        case closedEarly
        /// Not produced by CurlKit (a 404 is a head with status 404); free for callers that
        /// treat an HTTP status as a failure.
        case http(Int)
        /// Anything else: a refused URL or protocol, a hostile header, a libcurl error.
        case other
    }

    public var kind: Kind
    public var message: String

    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(message) (\(kind))" }
}
