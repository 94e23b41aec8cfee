/// A filter that cannot be run: a regular expression that is malformed, uses what cannot be
/// matched in linear time (backreferences, lookaround…), or is too long or too complex.
/// The protocol answers it as mpd does a bad pattern: `ACK [2@0] {find} Error in regex at
/// offset N: …` (`description`), before anything is searched.
public struct SongFilterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The pattern as the client sent it.
    public var pattern: String
    /// The byte offset in the pattern where the problem is.
    public var offset: Int
    public var reason: String

    public var description: String { "Error in regex at offset \(offset): \(reason)" }
}
