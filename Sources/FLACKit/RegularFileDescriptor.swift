#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Opens a path for reading only if it is a regular file: opened with O_NONBLOCK first, so a
/// FIFO or device named like music never blocks the caller, then checked with `fstat`.
/// Every descriptor is close-on-exec.
enum RegularFileDescriptor {
    /// A descriptor of the regular file at `path` (a NUL-terminated C string), which the
    /// caller owns, and the file's size.
    static func open(_ path: UnsafePointer<CChar>) throws(FLACError) -> (descriptor: Int32, size: Int64) {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else {
            let code = errno
            throw FLACError(function: "open", message: String(cString: strerror(code)), systemErrno: code)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw FLACError(function: "fstat", message: String(cString: strerror(code)), systemErrno: code)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw FLACError(function: "fstat", message: "not a regular file")
        }
        return (descriptor, Int64(info.st_size))
    }
}
