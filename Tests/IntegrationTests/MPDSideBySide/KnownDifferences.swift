/// A way Aubade answers otherwise than mpd 0.23 on purpose, or because the two read the same
/// file differently, with the reason. Each rewrites the exchange so that the rest of it is
/// still compared: it maps one server's lines onto the other's (a format, a name's bytes, a
/// length within a tolerance), never drops an answer whole unless the answer is the difference.
struct KnownDifference: Sendable {
    let name: String
    let reason: String
    /// Rewrites the exchange where the difference shows; true when it changed something.
    let rewrite: @Sendable (inout Exchange) -> Bool
}

/// The table, and which rows were needed: a row no exchange needed any more is stale and
/// fails the run (the difference went away: the table must say so).
struct KnownDifferences {
    let table: [KnownDifference]
    private(set) var uses: [String: Int] = [:]

    init(_ table: [KnownDifference]) {
        self.table = table
    }

    /// Applies every row; the names of those that changed the exchange.
    mutating func apply(to exchange: inout Exchange) -> [String] {
        var applied: [String] = []
        for row in table where row.rewrite(&exchange) {
            applied.append(row.name)
            uses[row.name, default: 0] += 1
        }
        return applied
    }

    var unused: [KnownDifference] { table.filter { uses[$0.name] == nil } }
}

