/// A kind of tag a music file can carry, by the names tag editors (MusicBrainz Picard) and MPD
/// clients use for them: the raw value is that name ("AlbumArtist", "MUSICBRAINZ_TRACKID").
///
/// The order of the cases is the order in which a song's tags are listed (MPD's, for an ID3
/// tag): a client comparing Aubade's answers with mpd's sees the same lines in the same order.
public enum TagKind: String, Sendable, Hashable, CaseIterable, Comparable {
    case artist = "Artist"
    case albumArtist = "AlbumArtist"
    case artistSort = "ArtistSort"
    case albumSort = "AlbumSort"
    case albumArtistSort = "AlbumArtistSort"
    case title = "Title"
    case album = "Album"
    case track = "Track"
    case name = "Name"
    case date = "Date"
    case originalDate = "OriginalDate"
    case genre = "Genre"
    case composer = "Composer"
    case composerSort = "ComposerSort"
    case conductor = "Conductor"
    case performer = "Performer"
    case work = "Work"
    case movement = "Movement"
    case movementNumber = "MovementNumber"
    case ensemble = "Ensemble"
    case location = "Location"
    case grouping = "Grouping"
    case comment = "Comment"
    case disc = "Disc"
    case label = "Label"
    case musicBrainzArtistID = "MUSICBRAINZ_ARTISTID"
    case musicBrainzAlbumID = "MUSICBRAINZ_ALBUMID"
    case musicBrainzAlbumArtistID = "MUSICBRAINZ_ALBUMARTISTID"
    case musicBrainzTrackID = "MUSICBRAINZ_TRACKID"
    case musicBrainzReleaseTrackID = "MUSICBRAINZ_RELEASETRACKID"
    case musicBrainzWorkID = "MUSICBRAINZ_WORKID"

    /// The kinds `Track` keeps in fields of their own; every other kind lives in `Track.moreTags`.
    public static let trackFields: Set<TagKind> = [.artist, .albumArtist, .title, .album, .track, .date, .genre, .disc]

    /// Looks a name up as MPD does: case-insensitively ("albumartist", "ALBUMARTIST").
    public init?(name: some StringProtocol) {
        guard let kind = Self.byLowercasedName[name.lowercased()] else { return nil }
        self = kind
    }

    private static let byLowercasedName: [String: TagKind] =
        Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue.lowercased(), $0) })

    private static let ranks: [TagKind: Int] =
        Dictionary(uniqueKeysWithValues: allCases.enumerated().map { ($1, $0) })

    public static func < (lhs: TagKind, rhs: TagKind) -> Bool { ranks[lhs, default: 0] < ranks[rhs, default: 0] }
}

/// One value of one tag (a file may carry several values of a kind: two composers).
public struct TagValue: Sendable, Hashable {
    public var kind: TagKind
    public var value: String

    public init(_ kind: TagKind, _ value: String) {
        self.kind = kind
        self.value = value
    }
}

/// How a file's audio is stored, as its decoder opens it: for the library (`Format:` in MPD).
public struct AudioFormatFacts: Sendable, Hashable {
    public var sampleRate: Int
    /// Bits per sample; nil for floating-point samples (Opus and Vorbis decode to float).
    public var bitsPerSample: Int?
    public var channels: Int

    public init(sampleRate: Int, bitsPerSample: Int?, channels: Int) {
        self.sampleRate = sampleRate
        self.bitsPerSample = bitsPerSample
        self.channels = channels
    }

    /// "44100:16:2", or "48000:f:2" for float: the notation of MPD and its clients.
    public var description: String { "\(sampleRate):\(bitsPerSample.map(String.init) ?? "f"):\(channels)" }
}
