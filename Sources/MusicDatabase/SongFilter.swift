public import PlayerCore

/// Which songs a query wants: the library's own expression of MPD's filters (`find`, `search`,
/// `list`, `count`, `playlistfind`…), built by a front-end's parser and evaluated here, against
/// the library or against the queue's tracks.
///
/// Semantics are MPD 0.23's (`src/song/*Filter.cxx`): a tag the song lacks compares as the
/// empty string; AlbumArtist falls back to Artist (and the sort tags to their plain tags) when
/// missing; a comparison on a tag with several values matches when any value does (a negated one
/// when none does).
public indirect enum SongFilter: Sendable, Equatable {
    /// One tag's values (or any tag's, `TagSelector.any`) against a string.
    case tag(TagSelector, StringMatch)
    /// The song's URI (`(file == 'A/x.mp3')`, `file` in old-style pairs): the whole URI.
    case uri(StringMatch)
    /// Songs in this folder of the library, or below it (`(base 'A/B')`).
    case base(String)
    /// Songs whose file changed at or after this time (seconds since 1970; `modified-since`).
    case modifiedSince(Int64)
    /// The song's audio format against a pattern (`(AudioFormat == '44100:16:2')`, or with
    /// `=~` a mask whose `*` parts match anything: `'44100:*:2'`).
    case audioFormat(AudioFormatPattern)
    /// A queue entry's priority at least this (`(prio >= 42)`): matches no library song.
    case priorityAtLeast(Int)
    case not(SongFilter)
    /// Every one of these (an empty list matches every song).
    case and([SongFilter])
}

/// The tag a comparison looks at.
public enum TagSelector: Sendable, Hashable {
    case kind(TagKind)
    /// Every tag value of the song (MPD's `any`). Not its URI: mpd 0.23's `search any aaa` does
    /// not find `Multi/aaa.mp3` (checked), though the protocol's documentation suggests so.
    case any
}

/// How a value is compared with a string (MPD's `StringFilter`).
public struct StringMatch: Sendable, Equatable {
    public var value: String
    /// Case-insensitive: both sides case-folded (`search`, `searchadd`, `searchcount`…).
    public var foldCase: Bool
    /// `value` anywhere in the string, not the whole string (`contains`, old-style `search`).
    public var substring: Bool
    /// `value` is a regular expression (`=~`, `!~`).
    public var isRegex: Bool
    /// The result is inverted (`!=`, `!~`).
    public var negated: Bool

    public init(_ value: String, foldCase: Bool = false, substring: Bool = false, isRegex: Bool = false, negated: Bool = false) {
        self.value = value
        self.foldCase = foldCase
        self.substring = substring
        self.isRegex = isRegex
        self.negated = negated
    }
}

/// An audio format to compare a song's with; nil parts (`*` in a mask) match anything.
public struct AudioFormatPattern: Sendable, Equatable {
    public var sampleRate: Int?
    /// Bits per sample; `.some(nil)` is float ("f"), nil is any.
    public var bitsPerSample: Int??
    public var channels: Int?
    /// Compared as a mask (`=~`): nil parts are wildcards. Otherwise every part must be given.
    public var isMask: Bool

    public init(sampleRate: Int?, bitsPerSample: Int??, channels: Int?, isMask: Bool) {
        self.sampleRate = sampleRate
        self.bitsPerSample = bitsPerSample
        self.channels = channels
        self.isMask = isMask
    }
}
