import Dispatch
import Library
import MPDProtocol
import MusicDatabase
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

    /// Where each entry of a playlist to read points (files queue): the stored playlist `name`,
    /// else the playlist file `inLibrary` of the music folder — mpd looks there next, so a
    /// client reads `Playlists/road trip.m3u` as it reads a stored playlist. A name that is
    /// neither is no such playlist (mpd), even one no stored playlist could have.
    func locations(of name: String, inLibrary file: FilePath?) throws(MPDError) -> [MediaLocation] {
        let stored = !name.contains("/") && exists(name)
        if let file, !stored {
            do throws(PersistenceError) {
                return try PlaylistFolder.locations(inFile: file)
            } catch {
                throw MPDError(.playlistLoad, "Failed to read the playlist: \(error.reason)")
            }
        }
        guard !name.contains("/") else { throw .noSuchPlaylist }
        return try locations(of: name)
    }

    /// The entries of `range` (a range past the end is none, and no error: mpd's `load`).
    func locations(of name: String, inLibrary file: FilePath?, range: SongRange) throws(MPDError) -> [MediaLocation] {
        let locations = try locations(of: name, inLibrary: file)
        return range.start < locations.count ? Array(locations[range.clipped(to: locations.count)]) : []
    }

    /// A playlist's entries as tracks for rewriting it: what the library knows, else just where
    /// each entry points (nothing is read).
    func tracks(of name: String, snapshot: LibrarySnapshot?) throws(MPDError) -> [Track] {
        try locations(of: name).map { location in
            switch location {
            case .stream(let url): return Track(stream: url)
            case .file(let path):
                if let snapshot, let uri = snapshot.uri(of: path), let song = snapshot.song(uri: uri) { return song.track() }
                return Track(path: path)
            }
        }
    }

    /// `playlistclear`: empties a playlist that is there; makes none (mpd: "No such playlist").
    func clear(_ name: String) throws(MPDError) {
        _ = try playlist(named: name)
        try write(name, [])
    }

    /// `playlistdelete`: the entries of `range` out.
    func delete(_ range: SongRange, from name: String, snapshot: LibrarySnapshot?) throws(MPDError) {
        var tracks = try tracks(of: name, snapshot: snapshot)
        guard range.start < tracks.count, (range.end ?? tracks.count) <= tracks.count else { throw .badSongIndex }
        tracks.removeSubrange(range.clipped(to: tracks.count))
        try write(name, tracks)
    }

    /// `playlistmove`: one entry to another position (mpd's words for a position out of range).
    func move(_ from: Int, to: Int, in name: String, snapshot: LibrarySnapshot?) throws(MPDError) {
        var tracks = try tracks(of: name, snapshot: snapshot)
        guard tracks.indices.contains(from), tracks.indices.contains(to) else { throw MPDError(.argument, "Bad range") }
        tracks.insert(tracks.remove(at: from), at: to)
        try write(name, tracks)
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
        // mpd's words for rename (save says "already exists").
        guard folder.playlist(named: newName) == nil else { throw MPDError(.exist, "Playlist exists already") }
        do throws(PersistenceError) {
            try folder.rename(playlist, to: newName)
        } catch {
            throw MPDError(.system, "Failed to rename the playlist: \(error.reason)")
        }
    }

    func exists(_ name: String) -> Bool { folder.playlist(named: name) != nil }
}
