import Library
import PlayerCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A playlist of the folder by name, its entries as locations, and the edits MPD clients make
/// (`playlistadd`, `playlistdelete`, `playlistmove`, `playlistclear`, `rename`, `rm`): each a
/// whole new file written atomically, as `save` writes one.
extension PlaylistFolder {
    /// The playlist named `name` (its file name without the extension), if there is one.
    public func playlist(named name: String) -> PlaylistInfo? {
        (try? list())?.first { $0.name == name }
    }

    /// Where each entry points, in order (absolute paths, station URLs), nothing read but the
    /// playlist itself. Entries that name nothing playable are left out.
    public func locations(of playlist: PlaylistInfo) throws(PersistenceError) -> [MediaLocation] {
        try Self.locations(inFile: playlist.path)
    }

    /// The same for any playlist file (M3U, M3U8 or PLS by its extension): one of the music
    /// folder, which MPD clients read by its path in the library.
    public static func locations(inFile path: FilePath) throws(PersistenceError) -> [MediaLocation] {
        let bytes = try FileIO.contents(of: path, limit: playlistSizeLimit)
        let directory = path.parent
        if path.fileExtension?.lowercased() == PLSPlaylist.fileExtension {
            switch PLSPlaylist.entries(in: bytes) {
            case .success(let entries): return entries.compactMap { PlaylistLocations.entry($0, in: directory) }
            case .failure(let notText): throw PersistenceError(path: path.displayString, call: "read", reason: notText.reason)
            }
        }
        switch PlaylistLocations.m3u(bytes, in: directory) {
        case .success(let locations): return locations
        case .failure(let notText): throw PersistenceError(path: path.displayString, call: "read", reason: notText.reason)
        }
    }

    /// Writes `tracks` as the playlist `name` (`<name>.m3u8`), replacing it; an older file of
    /// that playlist with another extension (`.m3u`, `.pls`) is removed once the new one is in
    /// place, so the name stays one playlist.
    @discardableResult
    public func replace(name: String, with tracks: [Track]) throws(PersistenceError) -> PlaylistInfo {
        let old = playlist(named: name)
        let saved = try save(name: name, tracks: tracks)
        if let old, old.path != saved.path { try? remove(old) }
        return saved
    }

    public func remove(_ playlist: PlaylistInfo) throws(PersistenceError) {
        // By its bytes: the file name need not be UTF-8.
        guard playlist.path.withCString({ unlink($0) }) == 0 else {
            throw PersistenceError.system("unlink", playlist.path.displayString)
        }
    }

    /// Renames the playlist's file, keeping its extension; refuses a name that is taken.
    public func rename(_ playlist: PlaylistInfo, to name: String) throws(PersistenceError) {
        try Self.validate(name: name, in: path)
        let ext = playlist.path.fileExtension.map { "." + $0 } ?? ".m3u8"
        let target = path + "/" + name + ext
        guard self.playlist(named: name) == nil, !FileIO.exists(target) else {
            throw PersistenceError(path: target, call: "rename", reason: "a playlist of that name exists", code: EEXIST)
        }
        guard playlist.path.withCString({ Glibc.rename($0, target) }) == 0 else {
            throw PersistenceError.system("rename", playlist.path.displayString)
        }
    }
}
