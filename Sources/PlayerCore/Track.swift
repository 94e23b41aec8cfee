/// A span of media time in microseconds, the unit MPRIS speaks.
public typealias Microseconds = Int64

/// One playable file and what is known about it: the "now playing" facts.
///
/// Built by the Decoding adapter from the file's tags; PlayerCore never reads files itself.
public struct Track: Sendable, Equatable {
    /// Absolute file-system path of the MP3 file.
    public var path: String
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

    public init(path: String, title: String? = nil, artists: [String] = [], album: String? = nil,
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

    /// The title to show: the tag, or the file name without its extension.
    public var displayTitle: String {
        if let title, !title.isEmpty { return title }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return String(name[..<dot])
        }
        return name
    }
}
