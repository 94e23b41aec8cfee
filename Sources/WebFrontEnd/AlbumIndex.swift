import MusicDatabase
import PlayerCore

/// The library by album and by album artist, as the page's grid and artist list show it: made
/// in one walk of a snapshot (about 100 ms for 100,000 songs) and kept until the library
/// changes, so each page of albums is a slice, not a query over every song.
final class AlbumIndex: Sendable {
    struct Album: Sendable, Equatable {
        var album: String
        /// The album artist (the artist when the songs name none).
        var artist: String
        var date: String?
        var tracks: Int
        /// A song of it, whose cover stands for the album's.
        var coverURI: String
    }

    struct Artist: Sendable, Equatable {
        var name: String
        var albums: Range<Int>
    }

    /// By album artist, then album (case and accents aside as far as lower case goes).
    let albums: [Album]
    /// Each album artist with their albums' range in `albums`.
    let artists: [Artist]
    private let artistIndex: [String: Int]
    /// The snapshot it was made of.
    let snapshot: LibrarySnapshot

    init(snapshot: LibrarySnapshot) {
        self.snapshot = snapshot
        struct Key: Hashable { var artist: String; var album: String }
        var found: [Key: Album] = [:]
        for entry in snapshot.walk(from: snapshot.directory(uri: "")!) {
            guard case .song(let song) = entry, let album = song.values(of: .album).first, !album.isEmpty else { continue }
            let artist = song.values(of: .albumArtist).first ?? song.values(of: .artist).first ?? ""
            let key = Key(artist: artist, album: album)
            if found[key] == nil {
                found[key] = Album(album: album, artist: artist, date: song.values(of: .date).first, tracks: 1,
                                   coverURI: song.uri)
            } else {
                found[key]!.tracks += 1
            }
        }
        // The exact name second: "Foo" and "foo" stay apart, each in one run of albums.
        let sorted = found.values.map { (album: $0, keys: (Self.sortKey($0.artist), $0.artist, Self.sortKey($0.album))) }
            .sorted { $0.keys < $1.keys }
        albums = sorted.map(\.album)
        var artists: [Artist] = []
        var start = 0
        for index in albums.indices where index + 1 == albums.count || albums[index + 1].artist != albums[index].artist {
            artists.append(Artist(name: albums[index].artist, albums: start..<(index + 1)))
            start = index + 1
        }
        self.artists = artists
        artistIndex = Dictionary(artists.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
    }

    func albums(of artist: String) -> ArraySlice<Album> {
        guard let index = artistIndex[artist] else { return [] }
        return albums[artists[index].albums]
    }

    /// "The Beatles" and "the beatles" side by side; "Émile" among the e's is left to a later
    /// day (the library's collation is mpd's byte order, a list for people wants better).
    private static func sortKey(_ text: String) -> String { text.lowercased() }
}
