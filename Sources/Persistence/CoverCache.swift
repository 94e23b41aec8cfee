import Decoding
import PlayerCore
import Handoff
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Cover pictures for `mpris:artUrl`, as `file://` URIs of copies named by their content:
/// `directory/<128-bit content hash>.<jpg|png|…>` (normally `$XDG_CACHE_HOME/aubade/covers`),
/// written once, so an album's tracks share one file, of
/// 1. the picture embedded in the track (front cover preferred, else the first);
/// 2. else `cover.jpg`, `cover.png`, `folder.jpg` or `folder.png` beside the track (any case,
///    in that order of preference; `.jpeg` too; at most `folderCoverLimit` bytes);
/// 3. else `nil`.
///
/// Named by content, the URL changes whenever the picture does: phone remotes (GSConnect, KDE
/// Connect) cache art by URL and send it to the phone only for `file://` URLs, so a retagged
/// file or a replaced `cover.jpg` under the same name would keep its old picture there.
///
/// The folder is bounded by `limitBytes`: after a new picture is written, the least recently
/// used ones (oldest modification time; a reused picture is touched) are deleted until the
/// total fits. Answers are remembered per track and per folder with the size and modification
/// time of the file they came from, so repeated calls cost a dictionary lookup and a `stat`,
/// and a changed file is read again; a cover added beside the files later is noticed only by
/// a new `CoverCache`.
///
/// Thread-safe. Reading pictures and writing files happen outside the lock.
public final class CoverCache: Sendable {
    public let directory: String
    public let limitBytes: Int64

    /// A remembered answer: the cached picture (nil: none), and the source file's version.
    private struct Known {
        var picture: String?
        var source: FileVersion?
    }

    private struct Memo {
        /// Track path → its embedded picture.
        var embedded: [FilePath: Known] = [:]
        /// Folder → its cover file (nil: none) and that file's picture.
        var folders: [FilePath: (cover: FilePath?, known: Known)] = [:]
    }
    private let memo = LockedState(Memo())

    /// A reused picture's modification time is refreshed at most this often (seconds), so
    /// the "recently used" mark costs no write on every metadata request.
    private static let touchInterval = 60
    /// A folder cover larger than this is not copied (nor published): nobody scans 16 MiB covers.
    static let folderCoverLimit = 16 * 1024 * 1024

    public init(directory: String, limitBytes: Int64 = 50 * 1024 * 1024) {
        self.directory = directory
        self.limitBytes = limitBytes
    }

    /// The `file://` URI of the track's cover, or `nil`. Unreadable files and a cache that
    /// cannot be written fall through to the folder cover: art is never worth an error.
    ///
    /// Track paths are bytes (`FilePath`): the folder of a Latin-1 named track is searched,
    /// and a folder cover's URI escapes its bytes exactly.
    public func artURL(for trackPath: FilePath) -> String? {
        if let cached = embeddedPicture(for: trackPath) {
            return FileURI.uri(forPath: cached)
        }
        return folderCover(of: trackPath.parent).map(FileURI.uri(forPath:))
    }

    // MARK: Embedded pictures

    private func embeddedPicture(for trackPath: FilePath) -> String? {
        let version = FileVersion(of: trackPath)
        if let known = memo.withLock({ $0.embedded[trackPath] }), known.source == version, let reused = reuse(known) {
            return reused
        }
        let picture = storeEmbeddedPicture(of: trackPath)
        memo.withLock { $0.embedded[trackPath] = Known(picture: picture, source: version) }
        return picture
    }

    /// The remembered answer, if it still holds: "none", or a picture still in the cache
    /// (touched now and then, as recently used). Nil when it must be made again (evicted).
    private func reuse(_ known: Known) -> String?? {
        guard let picture = known.picture else { return .some(nil) }
        guard let status = try? FileIO.status(of: picture) else { return nil }
        if time(nil) - Int(status.modified.tv_sec) > Self.touchInterval { FileIO.touch(picture) }
        return .some(picture)
    }

    /// Writes the track's picture into the cache unless a file of the same content is there.
    private func storeEmbeddedPicture(of trackPath: FilePath) -> String? {
        guard let art = (try? TrackReader.coverArt(path: trackPath)) ?? nil else { return nil }
        return store(art)
    }

    /// Writes a picture into the cache under its content's name, unless it is there already.
    private func store(_ art: CoverArt) -> String? {
        guard !art.data.isEmpty, let ext = Self.fileExtension(of: art) else { return nil }
        let picture = directory + "/" + ContentHash.hex(of: art.data) + "." + ext
        if FileIO.isRegularFile(picture) {
            FileIO.touch(picture)
            return picture
        }
        do {
            try FileIO.createDirectories(directory, mode: 0o700)
            try FileIO.writeAtomically(art.data, to: picture)
        } catch {
            return nil
        }
        evictLeastRecentlyUsed(keeping: picture)
        return picture
    }

    /// The picture's file extension, from its first bytes (tags often carry a wrong or empty
    /// MIME type), else from the MIME type; `nil` for what no viewer would show.
    static func fileExtension(of art: CoverArt) -> String? {
        let bytes = art.data
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpg" }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "png" }
        if bytes.starts(with: Array("GIF8".utf8)) { return "gif" }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return "webp" }
        switch art.mimeType.lowercased() {
        case "image/jpeg", "image/jpg", "jpg": return "jpg"
        case "image/png", "png": return "png"
        case "image/gif": return "gif"
        case "image/webp": return "webp"
        default: return nil
        }
    }

    /// Deletes the oldest pictures until the folder fits in `limitBytes`, never `keeping`
    /// (the one just written, even if it alone is over the limit). Files of other programs
    /// are not expected here; hidden ones (temporary files being written) are left alone.
    private func evictLeastRecentlyUsed(keeping: String) {
        guard let names = try? FileIO.names(inDirectory: directory) else { return }
        var files: [(path: String, size: Int64, modified: timespec)] = []
        var total: Int64 = 0
        for name in names where !name.hasPrefix(".") {
            let path = directory + "/" + name
            guard let status = try? FileIO.status(of: path), status.isRegularFile else { continue }
            files.append((path, status.size, status.modified))
            total += status.size
        }
        guard total > limitBytes else { return }
        files.sort { ($0.modified.tv_sec, $0.modified.tv_nsec) < ($1.modified.tv_sec, $1.modified.tv_nsec) }
        for file in files where total > limitBytes && file.path != keeping {
            if (try? FileIO.remove(file.path)) != nil { total -= file.size }
        }
    }

    // MARK: Folder covers

    static let folderCoverNames = ["cover.jpg", "cover.jpeg", "cover.png", "folder.jpg", "folder.jpeg", "folder.png"]

    private func folderCover(of folder: FilePath) -> String? {
        let remembered = memo.withLock { $0.folders[folder] }
        let cover = remembered.map(\.cover) ?? Self.findFolderCover(in: folder)
        guard let cover else {
            memo.withLock { $0.folders[folder] = (nil, Known(picture: nil, source: nil)) }
            return nil
        }
        let version = FileVersion(of: cover)
        if let known = remembered?.known, known.source == version, let reused = reuse(known) { return reused }
        let picture = version == nil ? nil : storeFolderCover(cover)
        memo.withLock { $0.folders[folder] = (cover, Known(picture: picture, source: version)) }
        return picture
    }

    private func storeFolderCover(_ cover: FilePath) -> String? {
        guard let bytes = try? FileIO.contents(of: cover, limit: Self.folderCoverLimit) else { return nil }
        let name = cover.lastComponent.displayString.lowercased()
        return store(CoverArt(mimeType: name.hasSuffix(".png") ? "image/png" : "image/jpeg", data: bytes))
    }

    private static func findFolderCover(in folder: FilePath) -> FilePath? {
        guard let names = try? FileIO.names(inDirectory: folder) else { return nil }
        var byLowercasedName: [String: FilePath] = [:]
        // Sorted, so with both "Cover.jpg" and "cover.jpg" the choice does not depend on readdir.
        for name in names.sorted(by: FilePath.bytewiseLess) where name.isValidUTF8 {
            let key = name.displayString.lowercased()
            if folderCoverNames.contains(key), byLowercasedName[key] == nil { byLowercasedName[key] = name }
        }
        for candidate in folderCoverNames {
            if let name = byLowercasedName[candidate], FileIO.isRegularFile(folder.appending(name)) {
                return folder.appending(name)
            }
        }
        return nil
    }
}

/// Which version of a file an answer came from: its size and modification time (a retagged
/// track or a replaced cover differs in one of them). Nil when the file cannot be stat'ed.
struct FileVersion: Equatable, Sendable {
    var size: Int64
    var seconds: Int
    var nanoseconds: Int

    init?(of path: FilePath) {
        guard let status = try? FileIO.status(of: path) else { return nil }
        size = status.size
        seconds = Int(status.modified.tv_sec)
        nanoseconds = Int(status.modified.tv_nsec)
    }
}
