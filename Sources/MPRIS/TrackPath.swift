public import PlayerCore

/// Maps queue entries to the object paths MPRIS uses as track ids.
///
/// Ids live under Aubade's own prefix (MPRIS reserves /org/mpris for NoTrack) and are built
/// from the entry's never-reused number, so they stay stable when the queue is edited.
public enum TrackPath {
    public static let prefix = "/org/aubade/Track/"
    public static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"

    public static func path(for entry: EntryID) -> String { prefix + String(entry.rawValue) }

    /// The entry a track id names, or nil for NoTrack and anything that is not ours.
    public static func entry(from path: String) -> EntryID? {
        guard path.hasPrefix(prefix), let number = UInt64(path.dropFirst(prefix.count)) else { return nil }
        return EntryID(number)
    }
}
