public import PlayerCore

/// What a song answer says about one song (mpd's `song_print_info`): the server fills it from
/// the library or the queue.
public struct SongInfo: Sendable, Equatable {
    /// The URI relative to the library, or a stream's URL (its user and password are not shown).
    public var uri: String
    /// The part of the file this song is (a CUE track).
    public var range: PlayRange?
    /// When the file changed, in seconds since 1970.
    public var lastModified: Int64?
    public var audioFormat: AudioFormatFacts?
    /// In any order: they are written in `TagKind` order, a kind's values in the order given.
    public var tags: [TagValue]
    public var duration: Microseconds?

    public init(uri: String, range: PlayRange? = nil, lastModified: Int64? = nil, audioFormat: AudioFormatFacts? = nil,
                tags: [TagValue] = [], duration: Microseconds? = nil) {
        self.uri = uri
        self.range = range
        self.lastModified = lastModified
        self.audioFormat = audioFormat
        self.tags = tags
        self.duration = duration
    }
}

/// The part of a file a song plays (`Range: 12.000-305.500`).
public struct PlayRange: Sendable, Hashable {
    public var start: Microseconds
    /// nil: to the end of the file.
    public var end: Microseconds?

    public init(start: Microseconds, end: Microseconds?) {
        self.start = start
        self.end = end
    }
}

/// Where a song is in the queue (`Pos:`, `Id:`, `Prio:` after its tags).
public struct QueueSlot: Sendable, Hashable {
    public var position: Int
    public var id: Int
    /// 0…255; written only when not 0.
    public var priority: Int

    public init(position: Int, id: Int, priority: Int = 0) {
        self.position = position
        self.id = id
        self.priority = priority
    }
}
