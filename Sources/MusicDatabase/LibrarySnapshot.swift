import PlayerCore
import Handoff

/// One immutable state of the library: share it across threads, query it anywhere, keep it as
/// long as needed (a slow client walking 100,000 songs holds the snapshot it started with;
/// the library meanwhile publishes new ones).
///
/// Queries follow mpd 0.23 (`find`, `search`, `list`, `count`, `lsinfo`, `listall`): see each.
public final class LibrarySnapshot: Sendable {
    let content: LibraryContent
    /// Distinguishes snapshots, so a `LibraryDirectory` of another one is looked up again.
    let generation: UInt64
    /// Seconds since 1970 of the last change (`stats` db_update).
    public let updated: Int64
    public let songCount: Int
    /// Distinct `Artist` values, as mpd counts them (`stats` artists).
    public let artistCount: Int
    /// Distinct `Album` values (`stats` albums).
    public let albumCount: Int
    /// Total playing time in seconds (`stats` db_playtime: milliseconds summed, truncated).
    public let playtime: Int64

    init(content: LibraryContent, updated: Int64) {
        self.content = content
        self.updated = updated
        generation = Self.nextGeneration.withLock { value in
            value += 1
            return value
        }
        songCount = content.songs.count
        var artists = Set<UInt32>(), albums = Set<UInt32>()
        let (artist, album) = (PackedTag.index(.artist), PackedTag.index(.album))
        for tag in content.tags.indices.lazy.map({ content.tags[$0] }) {
            switch PackedTag.kind(tag) {
            case artist: artists.insert(PackedTag.value(tag))
            case album: albums.insert(PackedTag.value(tag))
            default: break
            }
        }
        // The packed array may hold tags of songs no longer there (`LibraryBuilder` compacts
        // it only now and then): count only what songs point at when it does.
        if content.tags.count != content.songs.reduce(0, { $0 + Int($1.tagCount) }) {
            artists.removeAll()
            albums.removeAll()
            for song in content.songs {
                for tag in content.tags[content.tagRange(of: song)] {
                    switch PackedTag.kind(tag) {
                    case artist: artists.insert(PackedTag.value(tag))
                    case album: albums.insert(PackedTag.value(tag))
                    default: break
                    }
                }
            }
        }
        artistCount = artists.count
        albumCount = albums.count
        let milliseconds = content.songs.reduce(UInt64(0)) {
            $1.durationMilliseconds == SongRecord.unknownDuration ? $0 : $0 &+ UInt64($1.durationMilliseconds)
        }
        playtime = Int64(clamping: milliseconds / 1000)
    }

    private static let nextGeneration = LockedState<UInt64>(0)

    /// An empty library (before the cache or the first scan).
    static func empty(folders: [FilePath]) -> LibrarySnapshot {
        LibrarySnapshot(content: LibraryContent(folders: folders), updated: 0)
    }
}
