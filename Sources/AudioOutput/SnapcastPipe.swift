import Glibc

/// The write end of a snapserver's `pipe://` source (a FIFO), owned: closed when released.
///
/// Why these calls (checked on Linux, fifo(7), pipe(7)):
/// - A FIFO without a reader cannot be opened for writing non-blocking (ENXIO), and snapserver
///   keeps its reader open only while a writer exists (without one it reads EOF, closes, and
///   tries again 100 ms later). So `open` first opens the FIFO for reading itself (never
///   blocks), then for writing, then closes its own reader: a live snapserver has its reader
///   back within ~100 ms and keeps it, since a writer now exists.
/// - `poll` reports POLLERR on a write end with no reader: the server's going away is seen in
///   the kernel, whether or not we write (`hasReader`).
/// - FIONREAD on the write end counts the bytes the server has not read yet (`unread`): what is
///   queued is measured, never guessed.
/// - The unread bytes can be taken back by a reader of our own (`takeBackUnread`), so a pause
///   or a seek does not leave old audio for the server to play.
///
/// Writes are non-blocking; SIGPIPE must be ignored (a write with no reader fails with EPIPE).
final class SnapcastPipe {
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// No FIFO at the path yet (snapserver, mode=create, makes it when it starts).
        case missing(String)
        /// Something else is there: Aubade writes only into a FIFO (never fills a file or a disk).
        case notAFIFO(String)
        /// open/fstat failed otherwise: the function and errno.
        case system(String, Int32)

        var description: String {
            switch self {
            case .missing(let path): "no FIFO at \(path) (snapserver makes it when it starts)"
            case .notAFIFO(let path): "\(path) is not a FIFO: refusing to write into it"
            case .system(let function, let code): "\(function): \(String(cString: strerror(code)))"
            }
        }
    }

    enum WriteResult: Equatable {
        case written(Int)
        /// The pipe is full (EAGAIN): the server has not read for a while.
        case full
        /// No reader (EPIPE): the server is gone or between two opens.
        case noReader
        case failed(Int32)
    }

    let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    static func open(path: String) throws(Failure) -> SnapcastPipe {
        let reader = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard reader >= 0 else {
            let code = errno
            throw code == ENOENT ? .missing(path) : .system("open(\(path), O_RDONLY)", code)
        }
        defer { close(reader) }
        var info = stat()
        guard fstat(reader, &info) == 0 else { throw .system("fstat", errno) }
        guard info.st_mode & S_IFMT == S_IFIFO else { throw .notAFIFO(path) }
        let writer = Glibc.open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard writer >= 0 else { throw .system("open(\(path), O_WRONLY)", errno) }
        return SnapcastPipe(path: path, descriptor: writer)
    }

    /// Someone (the snapserver) has the FIFO open for reading.
    var hasReader: Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        guard poll(&entry, 1, 0) >= 0 else { return true }  // EINTR: ask again next time
        return entry.revents & Int16(POLLERR) == 0
    }

    /// Bytes written and not read yet.
    var unread: Int {
        var count: Int32 = 0
        guard ioctl(descriptor, UInt(FIONREAD), &count) == 0 else { return 0 }
        return Int(max(count, 0))
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> WriteResult {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return .written(0) }
        while true {
            let count = Glibc.write(descriptor, base, bytes.count)
            if count >= 0 { return .written(count) }
            switch errno {
            case EINTR: continue
            case EAGAIN: return .full
            case EPIPE: return .noReader
            case let code: return .failed(code)
            }
        }
    }

    /// Reads out (and drops) what the server has not read yet; returns how many bytes. The
    /// server may read some of it meanwhile: those it plays, as it would have anyway.
    @discardableResult
    func takeBackUnread() -> Int {
        let reader = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard reader >= 0 else { return 0 }
        defer { close(reader) }
        var taken = 0
        var scratch = [UInt8](repeating: 0, count: 16_384)
        while unread > 0 {
            let count = scratch.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
            if count > 0 {
                taken += count
            } else if count < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        return taken
    }
}
