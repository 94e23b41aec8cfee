import JSON
import MusicDatabase
import PlayerCore

/// The library's pages: albums, artists, an album's tracks, folders, search (docs/web.md).
extension WebFrontEnd {
    func libraryPage(_ request: WebRequest) -> WebResponse {
        guard let paging = Paging(request.query) else { return Paging.badRequest }
        guard let snapshot = library?.snapshot else {
            return WebReply.json(paging.document(total: 0, items: []))
        }
        switch request.path {
        case "/api/albums":
            guard let index = currentAlbumIndex() else { return WebReply.json(paging.document(total: 0, items: [])) }
            let albums = request.query["artist"].map { index.albums(of: $0) } ?? index.albums[...]
            let page = paging.range(in: albums.count).map { albums[albums.startIndex + $0] }
            return WebReply.json(paging.document(total: albums.count, items: page.map(Self.albumDocument)))
        case "/api/artists":
            guard let index = currentAlbumIndex() else { return WebReply.json(paging.document(total: 0, items: [])) }
            let page = index.artists[paging.range(in: index.artists.count)]
            return WebReply.json(paging.document(total: index.artists.count, items: page.map { artist in
                ["name": .string(artist.name), "albums": .integer(Int64(artist.albums.count))]
            }))
        case "/api/album":
            guard let album = request.query["album"] else { return WebReply.error(400, "which album? (album=…)") }
            let tracks = albumTracks(album, artist: request.query["artist"], in: snapshot)
            return WebReply.json(paging.document(total: tracks.count, items: tracks[paging.range(in: tracks.count)].map(TrackDocument.song)))
        case "/api/folder":
            let path = request.query["path"] ?? ""
            guard let directory = snapshot.directory(uri: path) else { return WebReply.error(404, "no such folder") }
            let entries = snapshot.contents(of: directory)
            return WebReply.json(paging.document(total: entries.count, items: entries[paging.range(in: entries.count)].map(Self.entryDocument),
                                                 extra: [("path", .string(directory.uri))]))
        default: // "/api/search"
            let text = request.query["q"] ?? ""
            guard !text.isEmpty else { return WebReply.json(paging.document(total: 0, items: [])) }
            guard text.utf8.count <= 256 else { return WebReply.error(400, "a search is at most 256 bytes") }
            // Any tag or the file's path: MPD's `any` alone leaves the URI out (as mpd 0.23 does),
            // and an untagged file is then found by no search. (There is no `or`: not-and-not.)
            let match = StringMatch(text, foldCase: true, substring: true)
            let filter = SongFilter.not(.and([.not(.tag(.any, match)), .not(.uri(match))]))
            let total = snapshot.counts(matching: filter).first?.songs ?? 0
            let window = paging.range(in: total)
            let songs = window.isEmpty ? [] : snapshot.songs(matching: filter, window: window)
            return WebReply.json(paging.document(total: total, items: songs.map(TrackDocument.song)))
        }
    }

    /// The album's songs (by album artist, or artist, when one is given) in disc, track and
    /// file order.
    func albumTracks(_ album: String, artist: String?, in snapshot: LibrarySnapshot) -> [LibrarySong] {
        var filters: [SongFilter] = [.tag(.kind(.album), StringMatch(album))]
        if let artist { filters.append(.tag(.kind(.albumArtist), StringMatch(artist))) }
        let songs = snapshot.songs(matching: .and(filters))
        func number(_ song: LibrarySong, _ kind: TagKind) -> Int {
            song.values(of: kind).first.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
        }
        return songs.sorted { a, b in
            (number(a, .disc), number(a, .track), a.uri) < (number(b, .disc), number(b, .track), b.uri)
        }
    }

    static func albumDocument(_ album: AlbumIndex.Album) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("album", .string(album.album)), ("artist", .string(album.artist)),
            ("tracks", .integer(Int64(album.tracks))), ("cover", .string(TrackDocument.coverURL(album.coverURI))),
        ]
        if let date = album.date { members.append(("date", .string(date))) }
        return .object(members)
    }

    static func entryDocument(_ entry: LibraryEntry) -> JSONValue {
        switch entry {
        case .directory(let uri, _):
            return ["type": "folder", "uri": .string(uri), "name": .string(lastComponent(uri))]
        case .playlist(let uri, _):
            return ["type": "playlist", "uri": .string(uri), "name": .string(lastComponent(uri))]
        case .song(let song):
            guard case .object(let members) = TrackDocument.song(song) else { return .null }
            return .object([("type", "song")] + members)
        }
    }

    static func lastComponent(_ uri: String) -> String {
        uri.lastIndex(of: "/").map { String(uri[uri.index(after: $0)...]) } ?? uri
    }

    func queuePage(_ request: WebRequest) -> WebResponse {
        guard let paging = Paging(request.query) else { return Paging.badRequest }
        let entries = playerQueueCopy.entries
        let snapshot = library?.snapshot
        let items = entries[paging.range(in: entries.count)].map { TrackDocument.entry($0, library: snapshot) }
        return WebReply.json(paging.document(total: entries.count, items: items, extra: [
            ("version", .integer(Int64(clamping: queueVersion))),
            ("current", facts.currentIndex.map { .integer(Int64($0)) } ?? .null),
        ]))
    }
}
