/// A range of positions in the queue or a playlist: `START:END` (END excluded), `START:` or `N`.
///
/// Parsed as mpd does; whether it fits the list is checked by the server against the list it
/// applies to (mpd's "Bad song index").
public struct SongRange: Sendable, Hashable {
    public var start: Int
    /// The first position after the range; nil: to the end of the list.
    public var end: Int?

    public init(start: Int, end: Int?) {
        self.start = start
        self.end = end
    }

    /// Everything (`-1` from older clients, or the argument left out).
    public static let all = SongRange(start: 0, end: nil)

    /// The range within a list of `count` entries (mpd's `ClipRelaxed`): nothing past the end.
    public func clipped(to count: Int) -> Range<Int> {
        let upper = min(end ?? count, count)
        return min(start, upper)..<upper
    }
}
