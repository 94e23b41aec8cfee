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
    /// The same as bytes, for building the paths of the files in it.
    private var folder: FilePath { FilePath(bytes: path.utf8.prefix { $0 != 0 }) ?? "/" }

    public static let playlistExtensions: Set<String> = ["m3u", "m3u8", "pls"]
    /// A picture named like a playlist ("Road trip.png" beside "Road trip.m3u8") is its icon.
    public static let iconExtensions = ["png", "jpg", "jpeg"]

    /// The `file://` URI of the playlist's icon, or nil.
    public func iconURI(for playlist: PlaylistInfo) -> String? {
        // The playlist's own bytes up to its extension, so a Latin-1 name finds its icon.
        let name = playlist.path.lastComponent.bytes
        let stem = name.lastIndex(of: UInt8(ascii: ".")).map { name[..<$0] } ?? name[...]
        for ext in Self.iconExtensions {
            guard let icon = FilePath(bytes: playlist.path.parent.bytes + [UInt8(ascii: "/")] + stem + Array(".\(ext)".utf8)),
                  FileIO.exists(icon) else { continue }
            return FileURI.uri(for: icon)
        }
        return nil
    }

    public init(path: String) {
        self.path = path
    }

    /// The playlists in `ordering` (reversed if asked). Hidden files, folders and other
    /// extensions are skipped. A missing folder has no playlists; an unreadable one throws.
    public func list(ordering: PlaylistOrdering = .userDefined, reversed: Bool = false) throws(PersistenceError) -> [PlaylistInfo] {
        let names: [FilePath]
        do {
            names = try FileIO.names(inDirectory: folder)
        } catch {
            if error.code == ENOENT { return [] }
            throw error
        }
        var playlists: [PlaylistInfo] = []
        for name in names where !name.isHidden && name.hasExtension(in: Self.playlistExtensions) {
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
    /// `QueueLoader` reads any playlist; PLS entries are handed to `QueueLoader` to be
    /// resolved the same way (relative to the playlist's folder, absolute, or `file://`
    /// URIs). A PLS file over 16 MiB, or not a regular file, is not read.
    public func tracks(of playlist: PlaylistInfo, loader: QueueLoader = QueueLoader()) -> (tracks: [Track], problems: [LoadProblem]) {
        guard playlist.path.fileExtension?.lowercased() == PLSPlaylist.fileExtension else {
            return loader.load([playlist.path])
        }
        let bytes: [UInt8]
        do {
            bytes = try FileIO.contents(of: playlist.path, limit: Self.playlistSizeLimit)
        } catch {
            return ([], [LoadProblem(path: playlist.path.displayString, reason: error.reason)])
        }
        switch PLSPlaylist.entries(in: bytes) {
        case .success(let entries):
            return loader.load(playlistEntries: entries, of: playlist.path)
        case .failure(let notText):
            return ([], [LoadProblem(path: playlist.path.displayString, reason: notText.reason)])
        }
    }

    /// The largest PLS file read (the same limit as Library's for M3U).
    static let playlistSizeLimit = 16 << 20

    /// Writes `tracks` as `<name>.m3u8` atomically, replacing a playlist of that file name;
    /// creates the folder if needed. Names that are empty, contain "/" or a NUL, start with
    /// "." (hidden, or "..") or are too long for a file name are refused.
    @discardableResult
    public func save(name: String, tracks: [Track]) throws(PersistenceError) -> PlaylistInfo {
        try Self.validate(name: name, in: path)
        let fileName = name + ".m3u8"
        try FileIO.createDirectories(path)
        try FileIO.writeAtomically(Array(M3U8Writer.text(of: tracks).utf8), to: path + "/" + fileName)
        // validate(name:) refused a NUL, so the name is a path component.
        return try info(forFileName: FilePath(fileName) ?? "")
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

    private func info(forFileName name: FilePath) throws(PersistenceError) -> PlaylistInfo {
        let file = folder.appending(name)
        let status = try FileIO.status(of: file)
        guard status.isRegularFile else {
            throw PersistenceError(path: file.displayString, call: "stat", reason: "not a regular file")
        }
        let created = BirthTime.of(file).map { Self.date(seconds: $0.seconds, nanoseconds: Int64($0.nanoseconds)) }
            ?? Self.date(status.changed)
        return PlaylistInfo(id: PlaylistInfo.id(forFileName: name), name: name.stem, path: file,
                            modified: Self.date(status.modified), created: created)
    }

    private static func date(_ time: timespec) -> Date {
        date(seconds: Int64(time.tv_sec), nanoseconds: Int64(time.tv_nsec))
    }

    private static func date(seconds: Int64, nanoseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
    }
}
