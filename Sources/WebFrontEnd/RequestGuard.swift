/// Who may ask what (docs/web.md, Safety). Pure: the settings and one request in, a refusal or
/// nothing out.
///
/// - On loopback no token is asked, but the `Host` must be this machine's (`127.0.0.1`,
///   `localhost`, `[::1]`): a page of another site whose name is made to resolve to 127.0.0.1
///   (DNS rebinding) sends its own name, and is refused.
/// - Beyond loopback every request carries the token: the cookie set by `/?token=…`, or
///   `Authorization: Bearer …`.
/// - A change (`POST`) is JSON and, when the browser says where it comes from (`Origin`), from
///   the page's own origin: a form or a script of another site cannot send one.
struct RequestGuard: Sendable {
    /// Loopback only: no token needed.
    var loopbackOnly: Bool
    var token: String
    var port: Int

    static let cookieName = "aubade_token"

    enum Refusal: Equatable {
        case unauthorized
        case foreignHost
        case foreignOrigin
        case notJSON

        var response: WebResponse {
            switch self {
            case .unauthorized: WebReply.error(401, "this page needs its token: open the address `aubade web` prints")
            case .foreignHost: WebReply.error(403, "not this machine's address")
            case .foreignOrigin: WebReply.error(403, "changes come from the page's own origin only")
            case .notJSON: WebReply.error(415, "a change is sent as application/json")
            }
        }
    }

    func check(_ request: WebRequest) -> Refusal? {
        if loopbackOnly {
            guard let host = request.header("host"), Self.isLoopbackHost(host) else { return .foreignHost }
        } else if !carriesToken(request) {
            return .unauthorized
        }
        guard request.method == "POST" else { return nil }
        if let origin = request.header("origin") {
            guard let host = request.header("host"), origin == "http://" + host || origin == "https://" + host else {
                return .foreignOrigin
            }
        }
        // A site's form can post text/plain or a form body without asking; JSON it cannot.
        let type = request.header("content-type")?.lowercased() ?? ""
        guard type == "application/json" || type.hasPrefix("application/json;") else { return .notJSON }
        return nil
    }

    /// The request has the token (compared in constant time: the time taken says nothing of it).
    func carriesToken(_ request: WebRequest) -> Bool {
        if let authorization = request.header("authorization"), authorization.hasPrefix("Bearer "),
           Self.same(String(authorization.dropFirst(7)), token) { return true }
        if let cookie = request.header("cookie"), let given = Self.cookie(Self.cookieName, in: cookie),
           Self.same(given, token) { return true }
        if let given = request.query["token"], Self.same(given, token) { return true }
        return false
    }

    static func isLoopbackHost(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("[") {
            guard let end = name.firstIndex(of: "]") else { return false }
            name = String(name[name.index(after: name.startIndex)..<end])
            return name == "::1"
        }
        if let colon = name.lastIndex(of: ":") { name = String(name[..<colon]) }
        if name == "localhost" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    static func cookie(_ name: String, in header: String) -> String? {
        for pair in header.split(separator: ";") {
            let trimmed = pair.drop { $0 == " " }
            guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == name else { continue }
            return String(trimmed[trimmed.index(after: equals)...])
        }
        return nil
    }

    static func same(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
