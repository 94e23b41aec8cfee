/// What to fetch over HTTP(S), and how patiently: the input of an `HTTPTransfer`.
///
/// Only `http` and `https` URLs are fetched, also across redirects. TLS peers are always
/// verified (certificate and host name); `caFile` only chooses which CAs to trust.
public struct HTTPRequest: Sendable, Equatable {
    /// An `http://` or `https://` URL. Credentials in it (`user:password@`) are sent, but never
    /// appear in a `TransferFailure` message.
    public var url: String
    /// Extra request header lines, e.g. `"Icy-MetaData: 1"`. A line with CR, LF or NUL is
    /// refused (the transfer ends with `.other`): it could smuggle in a second header.
    public var headers: [String] = []
    /// A CA bundle file (PEM) to trust instead of the system's CAs; `nil` = the system CAs.
    /// Verification is never turned off.
    public var caFile: String? = nil
    /// Seconds to resolve, connect and finish the TLS handshake.
    public var connectTimeout: Double = 5
    /// Seconds without a byte from the server, while the transfer is not paused for
    /// backpressure, after which it fails with `.stalled`. Before the response starts the
    /// allowance is `connectTimeout + stallTimeout`.
    public var stallTimeout: Double = 5
    /// Redirects followed at most; one more fails with `.tooManyRedirects`. Negative means 0.
    public var maxRedirects: Int = 5
    /// Asks for the body from this byte on (`Range: bytes=N-`). The server may ignore it:
    /// check for status 206 in the head. Negative is refused (`.other`).
    public var rangeStart: Int64? = nil
    /// The `User-Agent` header.
    public var userAgent: String = "Aubade"

    public init(url: String) {
        self.url = url
    }
}
