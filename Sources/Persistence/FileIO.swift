#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The file-system calls of this module, straight on libc: each checked next to the call and
/// turned into a `PersistenceError` naming the file and the call.
enum FileIO {
    /// What `stat` says about a path (following symlinks).
    struct Status {
        var isRegularFile: Bool
        var isDirectory: Bool
        var size: Int64
        /// Modification time, seconds and nanoseconds since the epoch.
        var modified: timespec
        /// Inode change time: the closest thing to a birth time plain `stat` offers.
        var changed: timespec
    }

    static func status(of path: String) throws(PersistenceError) -> Status {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .system("stat", path) }
        let type = info.st_mode & S_IFMT
        return Status(isRegularFile: type == S_IFREG, isDirectory: type == S_IFDIR,
                      size: Int64(info.st_size), modified: info.st_mtim, changed: info.st_ctim)
    }

    static func isRegularFile(_ path: String) -> Bool {
        (try? status(of: path))?.isRegularFile ?? false
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// The whole file. State files and pictures are read whole anyway.
    ///
    /// Only a regular file is read: the open is non-blocking and checked with `fstat`, so a
    /// FIFO put where a file should be cannot hang the caller, nor `/dev/zero` fill memory.
    /// With `limit`, a longer file fails ("larger than …") without being read.
    /// Files read whole by default are small (playlists in PLS, `user-dirs.dirs`): beyond this
    /// they are refused rather than read into memory.
    static let defaultReadLimit = 16 << 20

    static func contents(of path: String, limit: Int? = defaultReadLimit) throws(PersistenceError) -> [UInt8] {
        // String.withCString rethrows untyped errors: carry the typed one out in a Result.
        let result = path.withCString { cPath in
            Result { () throws(PersistenceError) in try contents(ofCPath: cPath, named: path, limit: limit) }
        }
        return try result.get()
    }

    static func contents(ofCPath cPath: UnsafePointer<CChar>, named path: String, limit: Int?) throws(PersistenceError) -> [UInt8] {
        let fd = open(cPath, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .system("open", path) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .system("fstat", path) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            let what = info.st_mode & S_IFMT == S_IFDIR ? "is a directory, not a file" : "not a regular file"
            throw PersistenceError(path: path, call: "open", reason: what, code: info.st_mode & S_IFMT == S_IFDIR ? EISDIR : ENODEV)
        }
        let tooLarge = PersistenceError(path: path, call: "read", reason: "larger than \(limit.map(describe(bytes:)) ?? ""), not read", code: EFBIG)
        if let limit, info.st_size > limit { throw tooLarge }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system("read", path)
            }
            if count == 0 { return bytes }
            // The file may grow while it is read.
            if let limit, bytes.count + count > limit { throw tooLarge }
            bytes += chunk[..<count]
        }
    }

    /// "16 MiB", "512 KiB", "100 bytes".
    static func describeSize(_ bytes: Int) -> String { describe(bytes: bytes) }

    static func describe(bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    /// Replaces `path` with `bytes` so that a crash at any moment leaves either the old file or
    /// the new one, never a mixture: a temporary file in the same folder (a rename only is
    /// atomic within one file system), written and fsynced, renamed over `path`, then the folder
    /// fsynced so the rename itself is durable.
    ///
    /// On any failure before the rename the temporary file is removed and `path` is untouched.
    /// `beforeRename` lets tests inject a failure at the last moment.
    static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644,
                                beforeRename: () throws(PersistenceError) -> Void = {}) throws(PersistenceError) {
        let (fd, temporary) = try createTemporaryFile(beside: path, mode: mode)
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        do throws(PersistenceError) {
            try writeAll(bytes, to: fd, path: temporary)
            guard fsync(fd) == 0 else { throw PersistenceError.system("fsync", temporary) }
        } catch {
            close(fd)
            throw error
        }
        // close can report a delayed write error (NFS); a file we cannot vouch for is not renamed.
        guard close(fd) == 0 else { throw .system("close", temporary) }
        try beforeRename()
        guard rename(temporary, path) == 0 else { throw .system("rename", path) }
        renamed = true
        try syncDirectory(parent(of: path))
    }

    /// A new file `.<name>.tmp-<pid>-<random>` beside `path`, opened exclusively: a leftover
    /// from a crash is never reused, and two writers never share one.
    private static func createTemporaryFile(beside path: String, mode: mode_t) throws(PersistenceError) -> (Int32, String) {
        let prefix = parent(of: path) + "/." + name(of: path) + ".tmp-\(getpid())-"
        var attempts = 0
        while true {
            let candidate = prefix + String(UInt32.random(in: .min ... .max), radix: 16)
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            if fd >= 0 { return (fd, candidate) }
            let code = errno
            attempts += 1
            guard (code == EEXIST || code == EINTR) && attempts < 100 else {
                throw .system("open", candidate, code: code)
            }
        }
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(PersistenceError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                write(fd, raw.baseAddress! + offset, raw.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw .system("write", path)
            }
            offset += written
        }
    }

    static func syncDirectory(_ directory: String) throws(PersistenceError) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .system("open", directory) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw .system("fsync", directory) }
    }

    /// `mkdir -p`: creates the missing folders of `path` with `mode`.
    static func createDirectories(_ path: String, mode: mode_t = 0o755) throws(PersistenceError) {
        var current = ""
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            current += "/" + part
            if mkdir(current, mode) != 0 {
                let code = errno
                guard code == EEXIST, (try? status(of: current))?.isDirectory == true else {
                    throw .system("mkdir", current, code: code == EEXIST ? ENOTDIR : code)
                }
            }
        }
    }

    /// Renames `path` to `path + suffix`, adding "-2", "-3"… while that name is taken: the
    /// file is never overwritten and never deleted. Returns the new path.
    static func renameAside(_ path: String, suffix: String) throws(PersistenceError) -> String {
        var candidate = path + suffix
        var number = 1
        while exists(candidate) {
            number += 1
            candidate = path + suffix + "-\(number)"
        }
        guard rename(path, candidate) == 0 else { throw .system("rename", path) }
        try? syncDirectory(parent(of: path))
        return candidate
    }

    /// Names in a folder, without "." and "..", in no particular order.
    static func names(inDirectory path: String) throws(PersistenceError) -> [String] {
        guard let directory = opendir(path) else { throw .system("opendir", path) }
        defer { closedir(directory) }
        var names: [String] = []
        // Read in place: copying `d_name` (256 bytes) reads past a short last record (ASan).
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 19
        while let entry = readdir(directory) {
            let name = String(cString: (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self))
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Sets the modification time to now (the cover cache's "recently used" mark).
    static func touch(_ path: String) {
        _ = utimensat(AT_FDCWD, path, nil, 0)
    }

    static func remove(_ path: String) throws(PersistenceError) {
        guard unlink(path) == 0 else { throw .system("unlink", path) }
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func name(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The lower-cased extension of a file name ("Mix.M3U8" → "m3u8"); "" for none or a
    /// hidden file's leading dot.
    static func fileExtension(of name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }

    /// The file name without its extension.
    static func stem(of name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}
