import Dispatch
import Library
import MPDProtocol
import Persistence
import PlayerCore

/// MPD's stored playlists: the files of Aubade's playlists folder (the one MPRIS Playlists and
/// `aubade save` use), by name (the file name without `.m3u8`, `.m3u` or `.pls`). Everything
/// here reads or writes files: it runs on the MPD server's files queue.
struct StoredPlaylists: Sendable {
    let folder: PlaylistFolder
    let loader: QueueLoader

    init(folder: String, loader: QueueLoader) {
        self.folder = PlaylistFolder(path: folder)
        self.loader = loader
    }

    struct Listing: Sendable {
        var name: String
        /// Seconds since 1970.
        var modified: Int64
    }

    /// Every playlist, by name (files queue).
    func all() -> [Listing] {
        let playlists = (try? folder.list(ordering: .userDefined)) ?? []
        return playlists.map { Listing(name: $0.name, modified: Int64($0.modified.timeIntervalSince1970)) }
    }

    /// `all()` read on `files`, handed back on `queue`.
    func list(on files: DispatchQueue, replyOn queue: DispatchQueue, completion: @escaping ([Listing]) -> Void) {
        let box = UncheckedBox(completion)
        files.async {
            let listing = all()
            queue.async { box.value(listing) }
        }
    }

    /// mpd's `spl_valid_name`, and what the folder refuses (a leading dot, a NUL, too long).
    static func check(name: String) throws(MPDError) {
        guard !name.isEmpty, !name.contains("/"), !name.contains("\n"), !name.contains("\r"), !name.hasPrefix("."),
              !name.utf8.contains(0), name.utf8.count <= 250 else {
            throw MPDError(.argument, "Bad playlist name")
        }
    }

    func playlist(named name: String) throws(MPDError) -> PlaylistInfo {
        try Self.check(name: name)
        guard let playlist = folder.playlist(named: name) else { throw .noSuchPlaylist }
        return playlist
    }

    /// Where each entry points (files queue).
    func locations(of name: String) throws(MPDError) -> [MediaLocation] {
        let playlist = try playlist(named: name)
        do throws(PersistenceError) {
            return try folder.locations(of: playlist)
        } catch {
            throw MPDError(.playlistLoad, "Failed to read the playlist: \(error.reason)")
        }
    }

    /// Writes the playlist (created or replaced) with these tracks (files queue).
    func write(_ name: String, _ tracks: [Track]) throws(MPDError) {
        try Self.check(name: name)
        do throws(PersistenceError) {
            try folder.replace(name: name, with: tracks)
        } catch {
            throw MPDError(.system, "Failed to write the playlist: \(error.reason)")
        }
    }

    func remove(_ name: String) throws(MPDError) {
        let playlist = try playlist(named: name)
        do throws(PersistenceError) {
            try folder.remove(playlist)
        } catch {
            throw MPDError(.system, "Failed to remove the playlist: \(error.reason)")
        }
    }

    func rename(_ name: String, to newName: String) throws(MPDError) {
        let playlist = try playlist(named: name)
        try Self.check(name: newName)
        guard folder.playlist(named: newName) == nil else { throw MPDError(.exist, "Playlist already exists") }
        do throws(PersistenceError) {
            try folder.rename(playlist, to: newName)
        } catch {
            throw MPDError(.system, "Failed to rename the playlist: \(error.reason)")
        }
    }

    func exists(_ name: String) -> Bool { folder.playlist(named: name) != nil }
}
