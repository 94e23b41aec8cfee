#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reading and replacing the tag index file: bounded reads, atomic replacement (a temporary
/// file beside it, fsync, rename, fsync of the folder — as the state file is written), so a
/// kill -9 at any moment leaves the old index or the new one, never a torn one.
package enum TagIndexFile {
    package struct Failure: Error, Equatable {
        package var reason: String
    }

    /// The whole file, or nil when there is none; throws when it cannot be read or is larger
    /// than `limit` (then it is not read at all).
    package static func contents(of path: String, limit: Int) throws(Failure) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw Failure(reason: "cannot open: \(describe(errno))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(reason: "cannot stat: \(describe(errno))") }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw Failure(reason: "not a regular file") }
        guard info.st_size <= off_t(limit) else { throw Failure(reason: "\(info.st_size) bytes, over the \(limit)-byte limit") }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let result = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if result < 0 {
                if errno == EINTR { continue }
                throw Failure(reason: "cannot read: \(describe(errno))")
            }
            if result == 0 { break }
            filled += result
        }
        return Array(bytes.prefix(filled))
    }

    /// Replaces `path` with `bytes` atomically, making its folder (mode 0700) if needed.
    package static func replace(_ path: String, with bytes: [UInt8]) throws(Failure) {
        let folder = parent(of: path)
        try makeFolders(folder)
        let temporary = folder + "/." + name(of: path) + ".tmp-\(getpid())-" + String(UInt32.random(in: .min ... .max), radix: 16)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(reason: "cannot create \(temporary): \(describe(errno))") }
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(fd)
                throw Failure(reason: "cannot write: \(describe(code))")
            }
            offset += written
        }
        guard fsync(fd) == 0 else {
            let code = errno
            close(fd)
            throw Failure(reason: "fsync: \(describe(code))")
        }
        guard close(fd) == 0 else { throw Failure(reason: "close: \(describe(errno))") }
        guard rename(temporary, path) == 0 else { throw Failure(reason: "rename: \(describe(errno))") }
        renamed = true
        let folderFD = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderFD >= 0 {
            // The rename is done; a folder that cannot be synced only weakens durability.
            _ = fsync(folderFD)
            close(folderFD)
        }
    }

    private static func makeFolders(_ folder: String) throws(Failure) {
        var built = folder.hasPrefix("/") ? "" : "."
        for part in folder.split(separator: "/") {
            built += "/" + part
            if mkdir(built, 0o700) != 0 && errno != EEXIST {
                throw Failure(reason: "cannot make \(built): \(describe(errno))")
            }
        }
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func name(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    private static func describe(_ code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}
