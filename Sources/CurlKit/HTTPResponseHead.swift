/// The status line and header fields of the final response (after every redirect).
///
/// Header bytes are taken as UTF-8 when they are valid UTF-8, else as ISO 8859-1 (what
/// SHOUTcast and Icecast servers send in `icy-name` and friends), so no byte is lost.
public struct HTTPResponseHead: Sendable, Equatable {
    /// The HTTP status; 200 also for a SHOUTcast `ICY 200 OK` answer.
    public var status: Int
    /// Header fields in the order received, names lowercased, values without surrounding
    /// blanks. Only those of the final response, not of the redirects before it.
    public var headers: [(name: String, value: String)]
    /// The URL that answered, after redirects, as libcurl reports it: credentials of the request
    /// URL stay in it (a relative playlist entry may need them), so do not log it as it is.
    public var effectiveURL: String
    /// The body length the server announced (`Content-Length`), `nil` when unknown or
    /// streamed. For a 206 answer this is the length of the part, not of the whole file.
    public var contentLength: Int64?

    public init(status: Int, headers: [(name: String, value: String)], effectiveURL: String, contentLength: Int64?) {
        self.status = status
        self.headers = headers
        self.effectiveURL = effectiveURL
        self.contentLength = contentLength
    }

    /// The first value of the header field `name`, compared without regard to case.
    public subscript(name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name == wanted }?.value
    }

    public static func == (left: HTTPResponseHead, right: HTTPResponseHead) -> Bool {
        left.status == right.status && left.effectiveURL == right.effectiveURL
            && left.contentLength == right.contentLength
            && left.headers.count == right.headers.count
            && zip(left.headers, right.headers).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}
