#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The few file-system calls the loader needs, straight on libc: FoundationEssentials'
/// FileManager would do too, but costs memory the daemon does not need to spend.
enum FileSystem {
    /// What a path names, following symlinks.
    enum Kind {
        /// A directory, identified by device and inode (to notice symlink loops).
        case directory(DirectoryID)
        case regularFile
        case other
    }

    struct DirectoryID: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// A failed system call's `errno`, described in the words a user expects.
    struct Failure: Error {
        var code: Int32

        var reason: String {
            switch code {
            case ENOENT, ENOTDIR: return "file not found"
            case EACCES, EPERM: return "permission denied"
            case ELOOP: return "too many levels of symbolic links"
            default: return strerror(code).map { String(cString: $0) } ?? "error \(code)"
            }
        }
    }

    static func kind(of path: String) throws(Failure) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { throw Failure(code: errno) }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .directory(DirectoryID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
        case S_IFREG: return .regularFile
        default: return .other
        }
    }

    /// Names in a directory, without "." and "..", in no particular order.
    static func contents(ofDirectory path: String) throws(Failure) -> [String] {
        guard let directory = opendir(path) else { throw Failure(code: errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The whole file; playlists are small.
    static func contents(ofFile path: String) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(code: errno) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(code: errno)
            }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }

    static func currentDirectory() -> String {
        guard let cwd = getcwd(nil, 0) else { return "/" }
        defer { free(cwd) }
        return String(cString: cwd)
    }

    /// `path` made absolute (against `base`, or the working directory) and cleaned up
    /// lexically: no "//", "." or "..". Symlinks are kept, so paths read as the user wrote them.
    static func absolute(_ path: String, relativeTo base: String? = nil) -> String {
        let full = path.hasPrefix("/") ? path : (base ?? currentDirectory()) + "/" + path
        var parts: [Substring] = []
        for part in full.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func name(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    static func hasExtension(_ path: String, in extensions: Set<String>) -> Bool {
        let name = name(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return extensions.contains(name[name.index(after: dot)...].lowercased())
    }
}
