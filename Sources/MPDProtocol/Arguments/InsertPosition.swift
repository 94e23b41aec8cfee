/// Where to insert songs in the queue: `N` (absolute), `+N` (N after the current song, `+0` right
/// after it), `-N` (N before it, `-0` right before it) — mpd 0.23's `ParseInsertPosition`.
///
/// The text is kept and read when the command runs, against the queue at that moment, in the
/// order mpd reads it: a relative position with no current song is "No current song" (55)
/// whatever follows the sign. Only what cannot depend on the queue is checked when the command
/// is parsed: an absolute position that is no number ("Integer expected").
public struct InsertPosition: Sendable, Hashable {
    public let text: String

    public init(_ text: String) {
        self.text = text
    }

    /// The position of a command being parsed: an absolute one must be a number.
    static func parse(_ text: String) throws(MPDError) -> InsertPosition {
        try checkAbsoluteSyntax(text)
        return InsertPosition(text)
    }

    /// The absolute position, 0 through `queueLength`.
    public func resolve(queueLength: Int, currentPosition: Int?) throws(MPDError) -> Int {
        guard let first = text.utf8.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") else {
            return try ArgumentParser.unsigned(text, maximum: UInt64(max(queueLength, 0)))
        }
        guard let current = currentPosition, current < queueLength else { throw .noCurrentSong }
        let offsetText = String(text.dropFirst())
        if first == UInt8(ascii: "+") {
            return current + 1 + (try ArgumentParser.unsigned(offsetText, maximum: UInt64(queueLength - current - 1)))
        }
        return current - (try ArgumentParser.unsigned(offsetText, maximum: UInt64(current)))
    }
}

/// Where `move`/`moveid` put a range: `N`, `+N` or `-N` relative to the current song, as mpd
/// 0.23's `ParseMoveDestination` reads it, when the command runs.
public struct MoveDestination: Sendable, Hashable {
    public let text: String

    public init(_ text: String) {
        self.text = text
    }

    /// The destination of a command being parsed: an absolute one must be a number.
    static func parse(_ text: String) throws(MPDError) -> MoveDestination {
        try checkAbsoluteSyntax(text)
        return MoveDestination(text)
    }

    /// The destination of the range's first song. Like mpd's, the result is not checked against
    /// the queue (`+N` and `-N` can point past either end): the move itself checks it.
    public func resolve(moving range: Range<Int>, queueLength: Int, currentPosition: Int?) throws(MPDError) -> Int {
        let count = range.count
        guard let first = text.utf8.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") else {
            return try ArgumentParser.unsigned(text, maximum: UInt64(max(queueLength - count, 0)))
        }
        guard var current = currentPosition, current < queueLength else { throw .noCurrentSong }
        if range.contains(current) {
            throw MPDError(.argument, "Cannot move current song relative to itself")
        }
        if current >= range.upperBound { current -= count }
        let offset = try ArgumentParser.unsigned(String(text.dropFirst()), maximum: UInt64(max(queueLength - current - count, 0)))
        return first == UInt8(ascii: "+") ? current + 1 + offset : current - offset
    }
}

/// mpd reads an absolute position with `ParseCommandArgUnsigned`, whose "Integer expected" comes
/// before its range check: that part of the answer does not depend on the queue.
private func checkAbsoluteSyntax(_ text: String) throws(MPDError) {
    if let first = text.utf8.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { return }
    _ = try ArgumentParser.unsigned(text, maximum: .max)
}
