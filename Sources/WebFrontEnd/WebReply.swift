import JSON

/// The answers the API gives, built the same way everywhere.
enum WebReply {
    static func json(_ value: JSONValue, status: Int = 200) -> WebResponse {
        WebResponse(status: status,
                    headers: [("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "no-store")],
                    body: Array(JSONText.write(value).utf8))
    }

    static let ok = json(["ok": true])

    /// `{"error": message}` with a 4xx or 5xx status: said in words, and nothing changed.
    static func error(_ status: Int, _ message: String) -> WebResponse {
        json(["error": .string(message)], status: status)
    }

    static let notFound = error(404, "no such thing here")
    static let methodNotAllowed = error(405, "method not allowed here")
}
