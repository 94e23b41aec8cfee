import JSON

/// `?offset=…&limit=…` of a list (docs/web.md): every list is served a page at a time, so a
/// 100,000-album library costs the page what it shows.
struct Paging: Sendable, Equatable {
    static let maximumLimit = 500
    var offset: Int
    var limit: Int

    /// nil: a bad offset or limit (the answer is a 400 naming them).
    init?(_ query: [String: String], defaultLimit: Int = 100) {
        let offset = query["offset"].map { Int($0) } ?? 0
        let limit = query["limit"].map { Int($0) } ?? defaultLimit
        guard let offset, let limit, offset >= 0, (1...Self.maximumLimit).contains(limit) else { return nil }
        self.offset = offset
        self.limit = limit
    }

    func range(in count: Int) -> Range<Int> {
        let start = min(offset, count)
        return start..<min(count, start + limit)
    }

    /// `{"total", "offset", "items"}`, with `extra` members first.
    func document(total: Int, items: [JSONValue], extra: [(key: String, value: JSONValue)] = []) -> JSONValue {
        .object(extra + [("total", .integer(Int64(total))), ("offset", .integer(Int64(offset))), ("items", .array(items))])
    }

    static let badRequest = WebReply.error(400, "offset is a number from 0, limit a number from 1 to \(maximumLimit)")
}
