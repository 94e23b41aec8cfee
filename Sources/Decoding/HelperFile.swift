import FFmpegClient
import PlayerCore
#if canImport(Glibc)
import Glibc
#endif

/// A file opened by the daemon for the FFmpeg helper: the daemon checks it (so "file not
/// found" and "permission denied" read as for every other format), the helper gets the
/// descriptor and never the path.
struct HelperFile: ~Copyable {
    let descriptor: Int32

    init(path: FilePath) throws(DecodingError) {
        let descriptor = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
        guard descriptor >= 0 else { throw DecodingError(path: path, openErrno: errno) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw DecodingError(path: path, openErrno: code)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw DecodingError(path: path, reason: "not a regular file")
        }
        guard info.st_size > 0 else {
            close(descriptor)
            throw DecodingError(path: path, reason: "empty file")
        }
        // Reads block from here on (the helper's pread must not get EAGAIN on odd file systems).
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}

extension DecodingError {
    /// What the helper said, or what happened to it, as the reason a file does not play.
    init(path: FilePath, helper error: HelperError) {
        self.init(path: path, reason: error.description)
    }
}
