import Decoding
import MPDProtocol
import MusicDatabase
import PlayerCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Covers (`albumart`: the cover file beside a song; `readpicture`: the picture inside it) and
/// `listfiles`, each read on the files queue and sent in chunks of the client's binary limit.
/// Pictures are hostile input like any file: their size is capped, and embedded ones are read
/// by the same readers the player uses (M4A's through the FFmpeg helper).
extension MPDServer {
    /// mpd's names, in mpd's order.
    static let coverNames = ["cover.png", "cover.jpg", "cover.webp"]
    /// A larger picture is not served (no cover is that big; a 100 MB "cover" is an attack).
    static let pictureLimit = 16 << 20

    func runPicture(_ command: MPDCommand, for client: MPDClient, reply: @escaping Reply) {
        let limit = client.binaryLimit
        let box = UncheckedBox(reply)
        switch command {
        case .albumArt(let uri, let offset):
            guard let folder = realFolder(of: uri, for: client) else { return reply(.failure(MPDError(.noExist, "No file exists"))) }
            files.async { [queue] in
                let outcome = Self.coverFile(in: folder, offset: offset, limit: limit)
                let sendable = UncheckedBox(outcome)
                queue.async { box.value(sendable.value) }
            }
        case .readPicture(let uri, let offset):
            guard let path = realFile(of: uri, for: client) else { return reply(.failure(.noSuchSong)) }
            let cache = pictures
            files.async { [queue] in
                let outcome = Self.embeddedPicture(of: path, offset: offset, limit: limit, cache: cache)
                let sendable = UncheckedBox(outcome)
                queue.async { box.value(sendable.value) }
            }
        default:
            reply(.failure(MPDError(.unknown, "unknown command")))
        }
    }

    /// The file of a song URI: in the library, or (local clients only) an absolute path.
    func realFile(of uri: String, for client: MPDClient) -> FilePath? {
        if uri.hasPrefix("/") || uri.lowercased().hasPrefix("file://") {
            guard client.isLocal else { return nil }
            return uri.hasPrefix("/") ? FilePath(uri)?.lexicallyNormalized : FileURI.path(fromFileURI: uri)
        }
        return library?.snapshot.filePath(forURI: uri)
    }

    /// The folder a song URI is in, as mpd finds its cover: the URI's folder, in the library.
    func realFolder(of uri: String, for client: MPDClient) -> FilePath? {
        if let file = realFile(of: uri, for: client) { return file.parent }
        let parent = uri.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return library?.snapshot.filePath(forURI: parent)
    }

    private static func coverFile(in folder: FilePath, offset: Int, limit: Int) -> CommandOutcome {
        for name in coverNames {
            let path = folder.appending(FilePath(stringLiteral: name))
            let descriptor = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            var info = stat()
            guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            let size = Int(info.st_size)
            guard size <= pictureLimit else { return .failure(MPDError(.noExist, "No file exists")) }
            guard offset <= size else { return .failure(MPDError(.argument, "Offset too large")) }
            let length = min(size - offset, limit)
            var chunk = [UInt8](repeating: 0, count: length)
            let read = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, length, off_t(offset)) }
            guard read >= 0 else { return .failure(MPDError(.system, "Cannot read the cover")) }
            var writer = ResponseWriter()
            writer.line("size", size)
            writer.binary(chunk.prefix(read))
            return .answer(writer)
        }
        return .failure(MPDError(.noExist, "No file exists"))
    }

    private static func embeddedPicture(of path: FilePath, offset: Int, limit: Int, cache: PictureCache) -> CommandOutcome {
        guard let version = FileSystemCheck.regularFileVersion(path) else { return .failure(.noSuchSong) }
        let picture: CoverArt?
        if let cached = cache.picture(of: path, version: version) {
            picture = cached
        } else {
            let read = (try? TrackReader.coverArt(path: path)) ?? nil
            picture = read.flatMap { $0.data.count <= pictureLimit ? $0 : nil }
            cache.remember(picture, of: path, version: version)
        }
        // No picture: an empty answer, as mpd gives.
        guard let picture else { return .answer(ResponseWriter()) }
        // mpd's words differ from albumart's here.
        guard offset <= picture.data.count else { return .failure(MPDError(.argument, "Bad file offset")) }
        var writer = ResponseWriter()
        writer.line("size", picture.data.count)
        if !picture.mimeType.isEmpty { writer.line("type", picture.mimeType) }
        writer.binary(picture.data[offset..<min(picture.data.count, offset + limit)])
        return .answer(writer)
    }

    /// `listfiles`: the files and folders in a folder of the library, as the disk has them
    /// (music or not), with sizes and dates. The root of several music folders lists them.
    func listFiles(_ uri: String, snapshot: LibrarySnapshot?, reply: @escaping Reply) {
        guard let snapshot, let folder = snapshot.filePath(forURI: uri) else {
            if let snapshot, uri.isEmpty {
                // Several music folders: the root is no folder on disk; list the library's own.
                let entries = snapshot.contents(of: snapshot.directory(uri: "")!)
                return reply(answer { writer in
                    for case .directory(let name, let modified) in entries { writer.directory(name, lastModified: modified) }
                })
            }
            return reply(.failure(.noSuchDirectory))
        }
        let box = UncheckedBox(reply)
        files.async { [queue] in
            let outcome = Self.listing(of: folder)
            let sendable = UncheckedBox(outcome)
            queue.async { box.value(sendable.value) }
        }
    }

    static func listing(of folder: FilePath) -> CommandOutcome {
        guard let directory = folder.withCString({ opendir($0) }) else { return .failure(.noSuchDirectory) }
        defer { closedir(directory) }
        var rows: [(name: String, isFolder: Bool, size: Int64, modified: Int64)] = []
        // A folder of a million names is not listed whole.
        while rows.count < 100_000, let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            guard let first = name.first, first != UInt8(ascii: "."),
                  let component = FilePath(bytes: name) else { continue }
            var info = stat()
            guard folder.appending(component).withCString({ stat($0, &info) }) == 0 else { continue }
            let kind = info.st_mode & S_IFMT
            guard kind == S_IFREG || kind == S_IFDIR else { continue }
            rows.append((component.displayString, kind == S_IFDIR, Int64(info.st_size), Int64(info.st_mtim.tv_sec)))
        }
        rows.sort { $0.name < $1.name }
        var writer = ResponseWriter()
        for row in rows {
            if row.isFolder {
                writer.directory(row.name, lastModified: row.modified)
            } else {
                writer.line("file", row.name)
                writer.line("size", row.size)
                if let text = UTCTimestamp.iso8601(row.modified) { writer.line("Last-Modified", text) }
            }
        }
        return .answer(writer)
    }
}

/// Only a regular file's picture is read (a FIFO would block the files queue for ever).
enum FileSystemCheck {
    /// A number that changes when the regular file at `path` does (size, modification time);
    /// nil when it is no regular file.
    static func regularFileVersion(_ path: FilePath) -> Int64? {
        var info = stat()
        guard path.withCString({ stat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size) &* 1_000_003 &+ Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
    }
}
