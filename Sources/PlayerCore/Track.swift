/// A span of media time in microseconds, the unit MPRIS speaks.
public typealias Microseconds = Int64

/// One playable file and what is known about it: the "now playing" facts.
///
/// Built by the Decoding adapter from the file's tags; PlayerCore never reads files itself.
public struct Track: Sendable, Equatable {
    /// Absolute file-system path of the MP3 file, as bytes (names need not be UTF-8).
    public var path: FilePath
    /// Title tag; `nil` when untagged (the file name stands in, see `displayTitle`).
    public var title: String?
    public var artists: [String]
    public var album: String?
    public var albumArtists: [String]
    public var genres: [String]
    public var trackNumber: Int?
    public var discNumber: Int?
    /// The year or date the recording was made, as tagged (e.g. "2009" or "2009-05-01").
    public var date: String?
    /// Exact playing time, gapless-aware; `nil` when it could not be determined.
    public var length: Microseconds?
    /// A `file://` URI of the cover picture, once looked up (only for tracks that were current).
    public var artURL: String?

    public init(path: FilePath, title: String? = nil, artists: [String] = [], album: String? = nil,
                albumArtists: [String] = [], genres: [String] = [], trackNumber: Int? = nil,
                discNumber: Int? = nil, date: String? = nil, length: Microseconds? = nil, artURL: String? = nil) {
        self.path = path
        self.title = title
        self.artists = artists
        self.album = album
        self.albumArtists = albumArtists
        self.genres = genres
        self.trackNumber = trackNumber
        self.discNumber = discNumber
        self.date = date
        self.length = length
        self.artURL = artURL
    }

    /// The title to show: the tag, or the file name without its extension. A name that is
    /// not UTF-8 is read as Windows-1252/Latin-1 (`caf\xE9.mp3` → "café"), see
    /// `FilePath.displayString`.
    public var displayTitle: String {
        if let title, !title.isEmpty { return title }
        return path.stem
    }
}
