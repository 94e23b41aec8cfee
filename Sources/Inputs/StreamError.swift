/// Why a stream cannot be played at all (not a drop, which is retried): the reason names
/// the URL (without credentials) and what the server said.
public struct StreamError: Error, Sendable, Equatable, CustomStringConvertible {
    public var url: String
    public var reason: String

    public init(url: String, reason: String) {
        self.url = url
        self.reason = reason
    }

    /// The reason alone: whoever reports it names the entry (and so the URL) already.
    public var description: String { reason }
}
