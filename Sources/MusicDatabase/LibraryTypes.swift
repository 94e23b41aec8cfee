public import PlayerCore

/// One song of the library, as a query answers it: made from the database's compact form when
/// asked for, so holding one costs nothing to the library.
public struct LibrarySong: Sendable, Equatable, FilterableSong {
    /// Its URI: the path below the music folder, "/"-separated, as text (see `MusicLibrary`).
    public var uri: String
    /// The real file.
    public var path: FilePath
    /// Seconds since 1970 of the file's last change (`Last-Modified`).
    public var lastModified: Int64
    public var duration: Microseconds?
    public var format: AudioFormatFacts?
    /// Every tag value, in `TagKind` order (a kind's values in the file's order).
    public var tags: [TagValue]

    public init(uri: String, path: FilePath, lastModified: Int64, duration: Microseconds?, format: AudioFormatFacts?,
                tags: [TagValue]) {
        self.uri = uri
        self.path = path
        self.lastModified = lastModified
        self.duration = duration
        self.format = format
        self.tags = tags
    }

    public var modificationTime: Int64? { lastModified }

    /// A library song has no queue priority.
    public var priority: Int { Int.min }

    public func values(of kind: TagKind) -> [String] {
        tags.compactMap { $0.kind == kind ? $0.value : nil }
    }

    /// The song as a `Track` for the queue: its tags, length and format.
    public func track() -> Track {
        func first(_ kind: TagKind) -> String? { tags.first { $0.kind == kind }?.value }
        func number(_ kind: TagKind) -> Int? { first(kind).flatMap(TagNumber.leadingInteger).flatMap { $0 > 0 ? $0 : nil } }
        var track = Track(path: path, title: first(.title), artists: values(of: .artist), album: first(.album),
                          albumArtists: values(of: .albumArtist), genres: values(of: .genre), trackNumber: number(.track),
                          discNumber: number(.disc), date: first(.date), length: duration)
        track.moreTags = tags.filter { !TagKind.trackFields.contains($0.kind) }
        track.audioFormat = format
        return track
    }
}

/// One line of `lsinfo` or `listall`: a folder, a song or a playlist file.
public enum LibraryEntry: Sendable, Equatable {
    case directory(uri: String, lastModified: Int64)
    case song(LibrarySong)
    case playlist(uri: String, lastModified: Int64)
}

/// A folder of one snapshot, found by `LibrarySnapshot.directory(uri:)`.
public struct LibraryDirectory: Sendable, Equatable {
    /// "" for the root.
    public var uri: String
    /// Seconds since 1970 of the folder's last change.
    public var lastModified: Int64
    /// Its index in the snapshot that found it (another snapshot looks it up by `uri`).
    let index: UInt32
    let generation: UInt64

    public var isRoot: Bool { uri.isEmpty }
}

/// The order of `find`/`search … sort [-]TAG` (mpd's: a tag's first value, with the
/// AlbumArtist → Artist and sort-tag fallbacks, compared as bytes, Track and Disc as numbers;
/// or `Last-Modified`), stable over the library's order.
public struct SongOrder: Sendable, Equatable {
    public enum Key: Sendable, Equatable {
        case tag(TagKind)
        case lastModified
    }

    public var key: Key
    public var descending: Bool

    public init(_ key: Key, descending: Bool = false) {
        self.key = key
        self.descending = descending
    }
}

/// One line group of `count`: the songs and their playing time, of one value of the grouping
/// tag (nil: no grouping).
public struct LibraryCount: Sendable, Equatable {
    public var group: String?
    public var songs: Int
    /// Whole seconds (mpd sums milliseconds, then truncates).
    public var playtime: Int64

    public init(group: String?, songs: Int, playtime: Int64) {
        self.group = group
        self.songs = songs
        self.playtime = playtime
    }
}

/// How the library is set up.
public struct LibraryConfiguration: Sendable {
    /// The music folders. One is the root of the library (its files are `x.mp3`); several
    /// appear as top-level folders named after each one's last component ("Music",
    /// "Music (2)" for a second folder of the same name).
    public var folders: [FilePath]
    /// The cache file (`~/.cache/aubade/library.db`); nil: none, every start reads every file.
    public var cacheFile: String?
    /// The most songs the library holds; past it, one log line says what is left out.
    public var songLimit: Int
    /// Watch the folders with inotify, so changes appear without a command.
    public var watch: Bool
    /// How long a burst of changes is waited out before the folders touched are scanned again.
    public var debounce: Duration

    public init(folders: [FilePath], cacheFile: String? = nil, songLimit: Int = 1_000_000, watch: Bool = true,
                debounce: Duration = .seconds(1)) {
        self.folders = folders
        self.cacheFile = cacheFile
        self.songLimit = songLimit
        self.watch = watch
        self.debounce = debounce
    }
}

/// What the library tells its front-ends (MPD's idle `update` and `database`).
public enum LibraryEvent: Sendable {
    case updateStarted(job: Int)
    case updateFinished(job: Int)
    /// The content changed: a new snapshot (sent before the `updateFinished` of its job).
    case changed(LibrarySnapshot)
}

/// Reading a number tag as mpd does (`strtol`): leading spaces, a sign, digits; "3/12" is 3.
enum TagNumber {
    static func leadingInteger(_ text: String) -> Int? {
        var value = 0, sawDigit = false, negative = false
        var scalars = text.unicodeScalars.drop { $0 == " " || $0 == "\t" }[...]
        if let sign = scalars.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            scalars = scalars.dropFirst()
        }
        for scalar in scalars {
            guard scalar >= "0", scalar <= "9" else { break }
            sawDigit = true
            value = min(value &* 10 &+ Int(scalar.value - 48), Int(Int32.max))
        }
        return sawDigit ? (negative ? -value : value) : nil
    }
}
