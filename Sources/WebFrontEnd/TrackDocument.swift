import JSON
import MusicDatabase
import PlayerCore

/// A track as the API describes it (docs/web.md): the library's URI, the tags a page shows, and
/// the URL of its cover. Every string goes out as JSON text: the page puts it in the DOM as
/// text, never as markup.
enum TrackDocument {
    /// The cover URL of library song `uri` at `size` pixels.
    static func coverURL(_ uri: String, size: Int = 300) -> String {
        "/cover?uri=\(URLText.queryValue(uri))&size=\(size)"
    }

    static func song(_ song: LibrarySong) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("uri", .string(song.uri))]
        func add(_ key: String, _ kind: TagKind) {
            if let value = song.values(of: kind).first { members.append((key, .string(value))) }
        }
        add("title", .title)
        add("artist", .artist)
        add("album", .album)
        add("albumArtist", .albumArtist)
        add("track", .track)
        add("disc", .disc)
        add("date", .date)
        if let duration = song.duration { members.append(("duration", seconds(duration))) }
        members.append(("cover", .string(coverURL(song.uri))))
        return .object(members)
    }

    /// A queue entry: its id, and its track — described from the library when the library has
    /// its file (the same tags as the library's pages), else from what the player read.
    static func entry(_ entry: QueueEntry, library: LibrarySnapshot?) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("id", .integer(Int64(clamping: entry.id.rawValue)))]
        if let path = entry.track.path, let library, let uri = library.uri(of: path), let song = library.song(uri: uri),
           case .object(let described) = self.song(song) {
            return .object(members + described)
        }
        let track = entry.track
        members.append(("uri", .string(track.streamURL?.description ?? track.path?.displayString ?? "")))
        if let title = entry.live?.title?.title ?? track.title { members.append(("title", .string(title))) }
        if let artist = entry.live?.title?.artist ?? track.artists.first { members.append(("artist", .string(artist))) }
        if let album = entry.live?.station ?? track.album { members.append(("album", .string(album))) }
        if let length = track.length, !track.isStream { members.append(("duration", seconds(length))) }
        if track.isStream { members.append(("station", true)) }
        return .object(members)
    }

    static func seconds(_ microseconds: Microseconds) -> JSONValue {
        .number((Double(microseconds) / 1_000).rounded() / 1_000)
    }
}
