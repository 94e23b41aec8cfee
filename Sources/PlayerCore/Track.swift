/// A span of media time in microseconds, the unit MPRIS speaks.
public typealias Microseconds = Int64

/// One playable file or stream and what is known about it: the "now playing" facts.
///
/// Built by the Decoding adapter from the file's tags (a stream has none until it plays);
/// PlayerCore never reads files itself.
public struct Track: Sendable, Equatable {
    /// Where the audio comes from: an absolute file-system path (bytes, not always UTF-8), or
    /// an http(s) URL.
    public var location: MediaLocation
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
    /// `length` is an estimate (an MP3 without a Xing/Info header, from its size and bit
    /// rate); the exact one is measured later and published then.
    public var lengthIsEstimate = false
    /// The file's ReplayGain tags, if it has any.
    public var replayGain: ReplayGainTags? {
        get { extras?.replayGain }
        set { extras = TrackExtras.make(replayGain: newValue, moreTags: moreTags, audioFormat: audioFormat) }
    }
    /// Every other tag the file carries (composer, performer, comment, sort names, MusicBrainz
    /// ids…: the kinds not in `TagKind.trackFields`), in `TagKind` order, for the library.
    public var moreTags: [TagValue] {
        get { extras?.moreTags ?? [] }
        set { extras = TrackExtras.make(replayGain: replayGain, moreTags: newValue, audioFormat: audioFormat) }
    }
    /// How the audio is stored (rate, bits, channels), when the reader knows it.
    public var audioFormat: AudioFormatFacts? {
        get { extras?.audioFormat }
        set { extras = TrackExtras.make(replayGain: replayGain, moreTags: moreTags, audioFormat: newValue) }
    }
    /// What most tracks of a queue lack, out of line (one reference, nil when empty).
    ///
    /// Also a workaround: with `Track` grown past 232 bytes, Swift 6.3.1's key paths to its
    /// computed properties (`\Track.path`) read garbage and crashed the tests (debug build; a
    /// stored `Int` added at the end was enough). Keep `Track` at or below that size.
    private var extras: TrackExtras?

    public init(location: MediaLocation, title: String? = nil, artists: [String] = [], album: String? = nil,
                albumArtists: [String] = [], genres: [String] = [], trackNumber: Int? = nil,
                discNumber: Int? = nil, date: String? = nil, length: Microseconds? = nil, artURL: String? = nil) {
        self.location = location
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

    /// A local file.
    public init(path: FilePath, title: String? = nil, artists: [String] = [], album: String? = nil,
                albumArtists: [String] = [], genres: [String] = [], trackNumber: Int? = nil,
                discNumber: Int? = nil, date: String? = nil, length: Microseconds? = nil, artURL: String? = nil) {
        self.init(location: .file(path), title: title, artists: artists, album: album, albumArtists: albumArtists,
                  genres: genres, trackNumber: trackNumber, discNumber: discNumber, date: date, length: length, artURL: artURL)
    }

    /// A station or a file over HTTP(S): nothing is known of it until it plays.
    public init(stream url: StreamURL, title: String? = nil) {
        self.init(location: .stream(url), title: title)
    }

    /// The local file, if it is one.
    public var path: FilePath? { location.filePath }

    public var streamURL: StreamURL? { location.streamURL }

    public var isStream: Bool { streamURL != nil }

    /// The values of one kind of tag, as tagged (a track or disc number as its number): no
    /// stand-ins, so an untagged title has none (`displayTitle` has one).
    public func values(of kind: TagKind) -> [String] {
        switch kind {
        case .artist: return artists
        case .albumArtist: return albumArtists
        case .title: return title.map { [$0] } ?? []
        case .album: return album.map { [$0] } ?? []
        case .track: return trackNumber.map { [String($0)] } ?? []
        case .disc: return discNumber.map { [String($0)] } ?? []
        case .date: return date.map { [$0] } ?? []
        case .genre: return genres
        default: return moreTags.compactMap { $0.kind == kind ? $0.value : nil }
        }
    }

    /// The title to show: the tag, or the file name without its extension (a name that is
    /// not UTF-8 is read as Windows-1252/Latin-1: `caf\xE9.mp3` → "café", see
    /// `FilePath.displayString`), or the last part of a stream's URL.
    public var displayTitle: String {
        if let title, !title.isEmpty { return title }
        switch location {
        case .file(let path): return path.stem
        case .stream(let url): return url.displayName
        }
    }
}
