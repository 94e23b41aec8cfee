import MPDProtocol
import MusicDatabase
import PlayerCore

/// What the answers say about a song: a library song as the library knows it, a queue entry by
/// its library URI when its file is in the library (with the library's tags and dates), else by
/// its absolute path (as mpd shows a local file outside its music folder), a station by its URL
/// with its name and the title on air (mpd's `Name:` and `Title:`).
struct SongDescriber {
    let library: LibrarySnapshot?

    func info(_ song: LibrarySong) -> SongInfo {
        SongInfo(uri: song.uri, lastModified: song.lastModified, audioFormat: song.format, tags: song.tags,
                 duration: song.duration)
    }

    func info(_ entry: QueueEntry) -> SongInfo {
        let track = entry.track
        switch track.location {
        case .stream(let url):
            var tags: [TagValue] = []
            if let station = entry.live?.station { tags.append(TagValue(.name, station)) }
            if let title = entry.live?.title?.text ?? track.title { tags.append(TagValue(.title, title)) }
            return SongInfo(uri: url.text, tags: tags, duration: nil)
        case .file(let path):
            if let library, let uri = library.uri(of: path), let song = library.song(uri: uri) {
                var info = info(song)
                // The queue's own knowledge wins where it is newer (an exact length measured).
                if let length = track.length, !track.lengthIsEstimate { info.duration = length }
                return info
            }
            let tags = TagKind.allCases.flatMap { kind in track.values(of: kind).map { TagValue(kind, $0) } }
            return SongInfo(uri: library?.uri(of: path) ?? path.displayString, audioFormat: track.audioFormat,
                            tags: tags, duration: track.length)
        }
    }

    /// The URI a queue entry goes by (`playlist`, the filters of `playlistfind`).
    func uri(_ entry: QueueEntry) -> String {
        switch entry.track.location {
        case .stream(let url): return url.text
        case .file(let path): return library?.uri(of: path) ?? path.displayString
        }
    }
}

/// A queue entry as a filter sees it (`playlistfind`, `playlistsearch`).
struct QueueSong: FilterableSong {
    let entry: QueueEntry
    let uri: String
    let song: LibrarySong?

    func values(of kind: TagKind) -> [String] { song?.values(of: kind) ?? entry.track.values(of: kind) }
    var modificationTime: Int64? { song?.lastModified }
    var format: AudioFormatFacts? { song?.format ?? entry.track.audioFormat }
    var priority: Int { Int(entry.priority) }
}
