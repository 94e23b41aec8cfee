import PlayerCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What identifies one version of a file for the tag index: its path (bytes), size,
/// modification time (ns) and inode. Any of them different means the file may have changed
/// (retagged, replaced, moved over): the entry is not used and the file is read again.
struct TagIndexKey: Hashable, Sendable {
    var path: [UInt8]
    var size: UInt64
    var modificationNanoseconds: Int64
    var inode: UInt64

    /// The key of the regular file at `path` now (`stat`, following symlinks: the file is
    /// what is read); nil when it cannot be stat'ed or is no regular file (the reader then
    /// says why).
    static func current(of path: FilePath) -> TagIndexKey? {
        var info = stat()
        guard path.withCString({ stat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size >= 0 else {
            return nil
        }
        let (seconds, overflow) = Int64(info.st_mtim.tv_sec).multipliedReportingOverflow(by: 1_000_000_000)
        return TagIndexKey(path: path.bytes, size: UInt64(info.st_size),
                           modificationNanoseconds: overflow ? Int64.max : seconds &+ Int64(info.st_mtim.tv_nsec),
                           inode: UInt64(info.st_ino))
    }
}
