public import PlayerCore

/// Where `seekcur` goes: `+N`/`-N` seconds from where the song is, or `N` from its start.
public enum SeekTarget: Sendable, Hashable {
    /// From the song's start; never negative (mpd seeks a negative time to 0).
    case to(Microseconds)
    /// From the current position (mpd then clamps below 0 to 0).
    case by(Microseconds)

    /// mpd's `handle_seekcur`: relative when the text starts with a sign.
    static func parse(_ text: String) throws(MPDError) -> SeekTarget {
        let time = try ArgumentParser.signedSongTime(text)
        if let first = text.utf8.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            return .by(time)
        }
        return .to(max(time, 0))
    }
}
