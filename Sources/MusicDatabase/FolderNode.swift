import Library
import PlayerCore

/// One folder of the library as the update keeps it, on the library's queue: what was found in
/// it, to compare with the disk and to flatten into a snapshot (`LibraryBuilder`). Songs are
/// `SongRecord`s whose strings and tags live in the builder's tables.
final class FolderNode {
    /// The name on disk; for a music folder shown as a top-level folder, its whole path.
    var rawName: [UInt8]
    var modified: Int64 = 0
    var fileID: FileSystem.FileID?
    var songs: [SongRecord] = []
    var playlists: [PlaylistRecord] = []
    var children: [FolderNode] = []
    /// The shown name, set when its parent is put in order.
    var name: UInt32 = 0
    /// False after a change: songs, playlists and children are sorted and named again before
    /// the next snapshot.
    var isOrdered = false

    init(rawName: [UInt8]) {
        self.rawName = rawName
    }

    /// mpd prunes a folder with no song, playlist or non-empty subfolder.
    var isEmpty: Bool { songs.isEmpty && playlists.isEmpty && children.isEmpty }

    func child(named raw: [UInt8]) -> FolderNode? {
        children.first { $0.rawName == raw }
    }

    var songCount: Int { songs.count + children.reduce(0) { $0 + $1.songCount } }
}
