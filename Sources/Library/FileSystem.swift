import PlayerCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The few file-system calls the loader needs, straight on libc: FoundationEssentials'
/// FileManager would do too, but costs memory the daemon does not need to spend — and it
/// speaks `String`, while file names are bytes (`FilePath`), not always UTF-8.
package enum FileSystem {
    /// What a path names, following symlinks.
    package enum Kind: Sendable {
        /// A directory, identified by device and inode (to notice symlink loops).
        case directory(FileID)
        /// A regular file, identified the same way (to notice a playlist reached twice
        /// through different names).
        case regularFile(FileID)
        /// A FIFO, device node or socket: never opened (a FIFO could block the loader).
        case other
    }

    package struct FileID: Hashable, Sendable {
        package var device: UInt64
        package var inode: UInt64
    }

    /// A failed system call's `errno`, described in the words a user expects.
    package struct Failure: Error {
        package var code: Int32
        /// Set for failures that are not an `errno`, e.g. a file over the size limit.
        package var explanation: String? = nil

        package var reason: String {
            if let explanation { return explanation }
            switch code {
            case ENOENT, ENOTDIR: return "file not found"
            case EACCES, EPERM: return "permission denied"
            case ELOOP: return "too many levels of symbolic links"
            case ENAMETOOLONG: return "file name too long"
            default: return strerror(code).map { String(cString: $0) } ?? "error \(code)"
            }
        }
    }

    package static func kind(of path: FilePath) throws(Failure) -> Kind {
        var info = stat()
        guard path.withCString({ stat($0, &info) }) == 0 else { throw Failure(code: errno) }
        let id = FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .directory(id)
        case S_IFREG: return .regularFile(id)
        default: return .other
        }
    }

    /// What `stat` says of a path, for a walk that must notice a changed file without reading
    /// it (the music database): its kind, identity, size and modification time.
    package struct Status: Sendable {
        package var kind: Kind
        package var size: UInt64
        /// Modification time in nanoseconds since 1970 (saturated).
        package var modified: Int64
    }

    /// `stat(2)` of `path`, following symlinks.
    package static func status(of path: FilePath) throws(Failure) -> Status {
        var info = stat()
        guard path.withCString({ stat($0, &info) }) == 0 else { throw Failure(code: errno) }
        let id = FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        let kind: Kind
        switch info.st_mode & S_IFMT {
        case S_IFDIR: kind = .directory(id)
        case S_IFREG: kind = .regularFile(id)
        default: kind = .other
        }
        let (seconds, overflow) = Int64(info.st_mtim.tv_sec).multipliedReportingOverflow(by: 1_000_000_000)
        let modified = overflow ? (info.st_mtim.tv_sec < 0 ? Int64.min : Int64.max) : seconds &+ Int64(info.st_mtim.tv_nsec)
        return Status(kind: kind, size: UInt64(max(0, info.st_size)), modified: modified)
    }

    /// Whether `path` is on one of the kernel's own file systems (/proc, /sys, cgroups,
    /// debugfs…): they hold no music, and walking /proc means millions of entries that change
    /// while they are read. `statfs` magic numbers from linux/magic.h.
    ///
    /// Swift's Glibc module does not import `statfs(2)` (sys/vfs.h), so it is looked up once
    /// with `dlsym`; only `f_type`, the first field of `struct statfs` (a C `long` on every
    /// Linux ABI Swift runs on), is read from a buffer larger than the struct (120 bytes).
    package static func isKernelFileSystem(_ path: FilePath) -> Bool {
        guard let statfs = statfsFunction else { return false }
        return withUnsafeTemporaryAllocation(byteCount: 512, alignment: 16) { buffer in
            guard let base = buffer.baseAddress, path.withCString({ statfs($0, base) }) == 0 else { return false }
            return kernelFileSystemTypes.contains(Int64(base.load(as: Int.self)))
        }
    }

    private typealias StatFS = @convention(c) (UnsafePointer<CChar>, UnsafeMutableRawPointer) -> Int32

    private static let statfsFunction: StatFS? = {
        guard let symbol = dlsym(nil, "statfs") else { return nil }
        return unsafeBitCast(symbol, to: StatFS.self)
    }()

    private static let kernelFileSystemTypes: Set<Int64> = [
        0x9FA0,       // proc
        0x6265_6572,  // sysfs
        0x0027_E0EB,  // cgroup
        0x6367_7270,  // cgroup2
        0x6462_6720,  // debugfs
        0x7472_6163,  // tracefs
        0x7363_6673,  // securityfs
        0x6165_676C,  // pstore
        0xCAFE_4A11,  // bpf
        0x6265_6570,  // configfs
        0x1CD1,       // devpts
        0x4249_4E4D,  // binfmt_misc
        0xDE5E_81E4,  // efivarfs
    ]

    /// Names in a directory, without "." and "..", in no particular order; exactly the bytes
    /// `readdir` gives.
    package static func contents(ofDirectory path: FilePath) throws(Failure) -> [FilePath] {
        guard let directory = path.withCString({ opendir($0) }) else { throw Failure(code: errno) }
        defer { closedir(directory) }
        var names: [FilePath] = []
        // The name is read in place: a dirent record is only as long as its name, so copying
        // `d_name` (a 256-byte array in the struct) reads past the end of the last record in
        // the buffer (AddressSanitizer caught it).
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 19
        while let entry = readdir(directory) {
            let name = FilePath(cString: (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self))
            if name.bytes != [0x2E] && name.bytes != [0x2E, 0x2E] { names.append(name) }
        }
        return names
    }

    /// The whole of a regular file of at most `limit` bytes. A FIFO, device or socket is
    /// refused without reading (opened non-blocking, so even a FIFO without a writer does
    /// not block); a longer file is refused with "larger than …".
    package static func contents(ofFile path: FilePath, limit: Int) throws(Failure) -> [UInt8] {
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { throw Failure(code: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(code: errno) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw Failure(code: EISDIR, explanation: "is a directory, not a file")
        default: throw Failure(code: ENODEV, explanation: "not a regular file")
        }
        let tooLarge = Failure(code: EFBIG, explanation: "larger than \(Self.describe(bytes: limit)), not read")
        guard info.st_size <= limit else { throw tooLarge }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(code: errno)
            }
            if count == 0 { return bytes }
            // The file may grow while it is read.
            guard bytes.count + count <= limit else { throw tooLarge }
            bytes += chunk[..<count]
        }
    }

    /// "16 MiB", "512 KiB", "100 bytes".
    package static func describe(bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    static func currentDirectory() -> FilePath {
        guard let cwd = getcwd(nil, 0) else { return "/" }
        defer { free(cwd) }
        return FilePath(cString: cwd)
    }

    /// `path` made absolute (against `base`, or the working directory) and cleaned up
    /// lexically: no "//", "." or "..". Symlinks are kept, so paths read as the user wrote them.
    static func absolute(_ path: FilePath, relativeTo base: FilePath? = nil) -> FilePath {
        path.resolved(against: path.isAbsolute ? "/" : (base ?? currentDirectory()))
    }
}
