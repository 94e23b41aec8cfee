public import PlayerCore

/// What a filter looks at in a song: the library's songs and the queue's tracks both answer it,
/// so one `SongFilter` serves `find` and `playlistfind`.
public protocol FilterableSong {
    /// The song's URI as clients see it (relative to the music folder for a library song).
    var uri: String { get }
    /// The values of one kind of tag, as tagged (no fallback: the filter applies mpd's).
    func values(of kind: TagKind) -> [String]
    /// Seconds since 1970 of the file's last change, if known (`modified-since`). Not named
    /// `lastModified`: `LibrarySong.lastModified` is that time, always known, as an `Int64`.
    var modificationTime: Int64? { get }
    var format: AudioFormatFacts? { get }
    /// A queue entry's priority (0…255); a library song has none (`Int.min`).
    var priority: Int { get }
}
