/// An answer: status, headers, and a body of bytes or a file. libmicrohttpd adds the reason
/// phrase, `Content-Length` and `Date`.
public struct HTTPResponse: Sendable {
    public enum Body: Sendable, Equatable {
        case bytes([UInt8])
        /// A file sent from disk by the server's thread (so the answering thread, the player's
        /// queue, never reads a file); 404 if it cannot be opened when the answer goes out.
        case file(path: String)
    }

    public var status: Int
    public var headers: HTTPHeaders
    public var body: Body

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// JSON text, `application/json; charset=utf-8`.
    public static func json(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", "application/json; charset=utf-8")]),
                     body: .bytes(Array(text.utf8)))
    }

    /// `{"error": message}`: how HTTPKit itself answers what it refuses (400, 413, 500, 503).
    public static func error(_ message: String, status: Int) -> HTTPResponse {
        json("{\"error\": \"\(jsonEscaped(message))\"}", status: status)
    }

    private static func jsonEscaped(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\u{0}"..."\u{1F}": escaped += "\\u00" + hex(scalar.value)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 2 - digits.count)) + digits
    }

    /// The file at `path`, of the given type.
    public static func file(_ path: String, contentType: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", contentType)]), body: .file(path: path))
    }
}
