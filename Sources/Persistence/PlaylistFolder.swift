import FoundationEssentials
import Library
import PlayerCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The playlists folder (`XDGDirectories.playlistsDirectory`, i.e. `$XDG_MUSIC_DIR/Playlists`,
/// or a configured folder): `*.m3u`, `*.m3u8` and `*.pls` files, one playlist each.
///
/// M3U files are read by Library's `QueueLoader` (the same rules as `aubade PATH.m3u`); PLS
/// files by `PLSPlaylist`, their entries then queued by `QueueLoader` too. Saving writes M3U8.
public struct PlaylistFolder: Sendable {
    /// Absolute path of the folder.
    public let path: String

    public static let playlistExtensions: Set<String> = ["m3u", "m3u8", "pls"]
    /// A picture named like a playlist ("Road trip.png" beside "Road trip.m3u8") is its icon.
    public static let iconExtensions = ["png", "jpg", "jpeg"]

    /// The `file://` URI of the playlist's icon, or nil.
    public func iconURI(for playlist: PlaylistInfo) -> String? {
        let base = path + "/" + playlist.name + "."
        for ext in Self.iconExtensions where FileIO.exists(base + ext) {
            return FileURI.uri(forPath: base + ext)
        }
        return nil
    }

    public init(path: String) {
        self.path = path
    }

    /// The playlists in `ordering` (reversed if asked). Hidden files, folders and other
    /// extensions are skipped. A missing folder has no playlists; an unreadable one throws.
    public func list(ordering: PlaylistOrdering = .userDefined, reversed: Bool = false) throws(PersistenceError) -> [PlaylistInfo] {
        let names: [String]
        do {
            names = try FileIO.names(inDirectory: path)
        } catch {
            if error.code == ENOENT { return [] }
            throw error
        }
        var playlists: [PlaylistInfo] = []
        for name in names where !name.hasPrefix(".") && Self.playlistExtensions.contains(FileIO.fileExtension(of: name)) {
            // A file deleted between readdir and stat is simply not listed.
            if let info = try? info(forFileName: name) { playlists.append(info) }
        }
        playlists.sort(by: ordering.areInIncreasingOrder)
        return reversed ? playlists.reversed() : playlists
    }

    /// The playlist with `id`, if its file is (still) there.
    public func playlist(id: String) -> PlaylistInfo? {
        (try? list())?.first { $0.id == id }
    }

    /// The tracks of a playlist and what could not be queued. M3U entries are read as
    /// `QueueLoader` reads any playlist; PLS entries are resolved against the playlist's
    /// folder (or taken as `file://` URIs) and then loaded the same way.
    public func tracks(of playlist: PlaylistInfo, loader: QueueLoader = QueueLoader()) -> (tracks: [Track], problems: [LoadProblem]) {
        guard FileIO.fileExtension(of: playlist.path) == PLSPlaylist.fileExtension else {
            return loader.load([playlist.path])
        }
        let bytes: [UInt8]
        do {
            bytes = try FileIO.contents(of: playlist.path)
        } catch {
            return ([], [LoadProblem(path: playlist.path, reason: error.reason)])
        }
        let directory = FileIO.parent(of: playlist.path)
        var paths: [String] = []
        var problems: [LoadProblem] = []
        for entry in PLSPlaylist.entries(in: bytes) {
            if entry.hasPrefix("/") {
                paths.append(entry)
            } else if entry.lowercased().hasPrefix("file:") {
                if let path = FileURI.path(fromFileURI: entry) {
                    paths.append(path)
                } else {
                    problems.append(LoadProblem(path: entry, reason: "malformed file URI"))
                }
            } else if entry.contains("://") {
                problems.append(LoadProblem(path: entry, reason: "unsupported URI (only local files play)"))
            } else {
                // QueueLoader cleans up "." and ".." lexically.
                paths.append(directory + "/" + entry)
            }
        }
        let loaded = loader.load(paths)
        problems += loaded.problems
        if loaded.tracks.isEmpty {
            problems.append(LoadProblem(path: playlist.path, reason: "no playable files in playlist"))
        }
        return (loaded.tracks, problems)
    }

    /// Writes `tracks` as `<name>.m3u8` atomically, replacing a playlist of that file name;
    /// creates the folder if needed. Names that are empty, contain "/" or a NUL, start with
    /// "." (hidden, or "..") or are too long for a file name are refused.
    @discardableResult
    public func save(name: String, tracks: [Track]) throws(PersistenceError) -> PlaylistInfo {
        try Self.validate(name: name, in: path)
        let fileName = name + ".m3u8"
        try FileIO.createDirectories(path)
        try FileIO.writeAtomically(Array(M3U8Writer.text(of: tracks).utf8), to: path + "/" + fileName)
        return try info(forFileName: fileName)
    }

    static func validate(name: String, in folder: String) throws(PersistenceError) {
        let problem: String?
        if name.isEmpty {
            problem = "a playlist name cannot be empty"
        } else if name.contains("/") {
            problem = "a playlist name cannot contain \"/\""
        } else if name.hasPrefix(".") {
            problem = "a playlist name cannot start with \".\""
        } else if name.utf8.contains(0) {
            problem = "a playlist name cannot contain a NUL character"
        } else if name.utf8.count + ".m3u8".utf8.count > 255 {
            problem = "a playlist name can be at most 250 bytes long"
        } else {
            problem = nil
        }
        if let problem {
            throw PersistenceError(path: folder + "/" + name, call: "playlist name", reason: problem)
        }
    }

    private func info(forFileName name: String) throws(PersistenceError) -> PlaylistInfo {
        let file = path + "/" + name
        let status = try FileIO.status(of: file)
        guard status.isRegularFile else {
            throw PersistenceError(path: file, call: "stat", reason: "not a regular file")
        }
        let created = BirthTime.of(file).map { Self.date(seconds: $0.seconds, nanoseconds: Int64($0.nanoseconds)) }
            ?? Self.date(status.changed)
        return PlaylistInfo(id: PlaylistInfo.id(forFileName: name), name: FileIO.stem(of: name), path: file,
                            modified: Self.date(status.modified), created: created)
    }

    private static func date(_ time: timespec) -> Date {
        date(seconds: Int64(time.tv_sec), nanoseconds: Int64(time.tv_nsec))
    }

    private static func date(seconds: Int64, nanoseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
    }
}
