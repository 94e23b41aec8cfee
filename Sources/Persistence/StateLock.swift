#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The right to read and write the state in one folder: an exclusive `flock` on `<folder>/lock`,
/// held for the life of the process (the kernel drops it when the process ends, however it ends).
///
/// Why: a second `aubade serve` (the MPRIS name taken, so it serves `…aubade.instance<pid>`), or
/// an Aubade of another login session of the same user (its own session bus, so the bus name
/// does not tell), would otherwise restore the first one's queue and then overwrite the user's
/// saved queue with its own. Whoever holds the lock owns the state; any other instance
/// neither restores nor saves it.
///
/// The file holds the owner's pid, for the other instance's log line. It is never removed:
/// removing a lock file races with the next process opening it.
public final class StateLock: Sendable {
    /// What `acquire` found.
    public enum Outcome: Sendable {
        /// This process now owns the state.
        case acquired(StateLock)
        /// Another process holds the lock; `owner` is the pid it wrote, when readable.
        case heldByAnother(owner: Int32?)
    }

    public let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Takes the lock of `directory` (created, mode 700, if missing) without waiting. Throws
    /// when the lock file cannot be opened at all (a read-only or unreachable folder): the
    /// caller then cannot save there either, and says so.
    public static func acquire(in directory: String) throws(PersistenceError) -> Outcome {
        try FileIO.createDirectories(directory, mode: 0o700)
        let path = directory + "/lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .system("open", path) }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            defer { close(fd) }
            guard code == EWOULDBLOCK else { throw .system("flock", path, code: code) }
            return .heldByAnother(owner: readOwner(fd))
        }
        // Best effort: the pid is for a log line, not for the locking.
        let text = Array("\(getpid())\n".utf8)
        if ftruncate(fd, 0) == 0 {
            _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        }
        return .acquired(StateLock(path: path, descriptor: fd))
    }

    private static func readOwner(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[..<count], as: UTF8.self).prefix { $0.isNumber }
        return Int32(text)
    }
}
