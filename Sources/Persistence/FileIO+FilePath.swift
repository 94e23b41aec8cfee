import PlayerCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `FileIO` for paths that are bytes (`FilePath`): track files, playlists and cover folders,
/// whose names need not be UTF-8. Errors name the path as `FilePath.displayString` shows it.
extension FileIO {
    static func status(of path: FilePath) throws(PersistenceError) -> Status {
        var info = stat()
        guard path.withCString({ stat($0, &info) }) == 0 else { throw .system("stat", path.displayString) }
        let type = info.st_mode & S_IFMT
        return Status(isRegularFile: type == S_IFREG, isDirectory: type == S_IFDIR,
                      size: Int64(info.st_size), modified: info.st_mtim, changed: info.st_ctim)
    }

    static func isRegularFile(_ path: FilePath) -> Bool {
        (try? status(of: path))?.isRegularFile ?? false
    }

    static func exists(_ path: FilePath) -> Bool {
        var info = stat()
        return path.withCString { lstat($0, &info) } == 0
    }

    /// See `contents(of: String, limit:)`.
    static func contents(of path: FilePath, limit: Int? = nil) throws(PersistenceError) -> [UInt8] {
        try path.withCString { (cPath) throws(PersistenceError) in
            try contents(ofCPath: cPath, named: path.displayString, limit: limit)
        }
    }

    /// Names in a folder, exactly as `readdir` gives them, without "." and "..".
    static func names(inDirectory path: FilePath) throws(PersistenceError) -> [FilePath] {
        guard let directory = path.withCString({ opendir($0) }) else { throw .system("opendir", path.displayString) }
        defer { closedir(directory) }
        var names: [FilePath] = []
        // Read in place: copying `d_name` (256 bytes) reads past a short last record (ASan).
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 19
        while let entry = readdir(directory) {
            let name = FilePath(cString: (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self))
            if name.bytes != [0x2E] && name.bytes != [0x2E, 0x2E] { names.append(name) }
        }
        return names
    }
}
