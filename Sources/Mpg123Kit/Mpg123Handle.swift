internal import CMpg123
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One libmpg123 decoder (`mpg123_handle`) with at most one open file.
///
/// Not thread-safe: libmpg123 keeps all decoding state in the handle, so a handle must be used
/// from one thread at a time. The handle (and the file it opened) is freed in `deinit`.
public final class Mpg123Handle {
    private let raw: OpaquePointer
    var rawHandle: OpaquePointer { raw }
    /// The descriptor `open(path:)` made; we close it ourselves because `mpg123_close`
    /// never closes a descriptor given through `mpg123_open_fd`.
    private var descriptor: Int32 = -1

    /// `mpg123_new` with the library's default (fastest detected) decoder.
    public init() throws(Mpg123Error) {
        try Mpg123Library.ensureInitialized()
        var code: Int32 = 0
        guard let handle = mpg123_new(nil, &code) else {
            throw Mpg123Error(function: "mpg123_new", code: code)
        }
        raw = handle
    }

    deinit {
        // mpg123_delete closes the stream too; it returns nothing to check.
        mpg123_delete(raw)
        closeDescriptor()
    }

    // MARK: Setup (before open)

    /// `mpg123_param2(MPG123_ADD_FLAGS)`: turn on `flags`, keeping the others.
    public func addFlags(_ flags: Mpg123Flags) throws(Mpg123Error) {
        let rc = mpg123_param2(raw, Int32(MPG123_ADD_FLAGS.rawValue), flags.rawValue, 0)
        guard rc == MPG123_OK.rawValue else {
            throw Mpg123Error(function: "mpg123_param2", code: rc, handle: raw)
        }
    }

    /// Accept only signed 16-bit native-endian output, mono or stereo, at every rate.
    ///
    /// The decoder then never hands out float or 32-bit samples, whatever its default; the
    /// rate and channel count stay the file's own (no resampling).
    public func forceSigned16Output() throws(Mpg123Error) {
        var rc = mpg123_format_none(raw)
        guard rc == MPG123_OK.rawValue else {
            throw Mpg123Error(function: "mpg123_format_none", code: rc, handle: raw)
        }
        // mpg123_format2 with rate 0 means "all standard rates" in one call.
        let channels = Int32(MPG123_MONO.rawValue | MPG123_STEREO.rawValue)
        rc = mpg123_format2(raw, 0, channels, Int32(MPG123_ENC_SIGNED_16.rawValue))
        guard rc == MPG123_OK.rawValue else {
            throw Mpg123Error(function: "mpg123_format2", code: rc, handle: raw)
        }
    }

    // MARK: Open / close

    /// Opens the file at `path` for decoding (closing any file opened before).
    ///
    /// `path` is a C string because file names are bytes, not always UTF-8: a Swift `String`
    /// would have replaced a Latin-1 byte by U+FFFD and named another (missing) file.
    ///
    /// The file is opened here with `open(2)` and handed over with `mpg123_open_fd`, so a
    /// missing or unreadable file fails with `function == "open"` and `code` = the `errno`
    /// (`ENOENT`, `EACCES`, `EISDIR`…), which callers can turn into a precise message. Only
    /// regular files are accepted: a FIFO, a device or a socket fails with `ENODEV` (see
    /// `isNotARegularFile`). The open itself is non-blocking, so a FIFO without a writer
    /// cannot hang it; reads are blocking again afterwards.
    ///
    /// `randomAccess` tells the kernel not to read ahead (`posix_fadvise(POSIX_FADV_RANDOM)`):
    /// for reading only the headers and tags, where readahead would fetch hundreds of KiB from
    /// the disk per file that nobody reads.
    public func open(path: UnsafePointer<CChar>, randomAccess: Bool = false) throws(Mpg123Error) {
        close()
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw Mpg123Error.system("open", errno) }
        if randomAccess {
            // Only advice: a file system that ignores it (or refuses, EINVAL) just reads ahead.
            _ = posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let saved = errno
            _ = Glibc.close(fd)
            throw Mpg123Error.system("fstat", saved)
        }
        // open(2) succeeds on a directory; reading it would fail later with a vaguer message.
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            break
        case S_IFDIR:
            _ = Glibc.close(fd)
            throw Mpg123Error.system("open", EISDIR)
        default:
            // /dev/zero would be searched for a frame forever, a FIFO may never deliver.
            _ = Glibc.close(fd)
            throw Mpg123Error(function: "open", code: ENODEV, message: "not a regular file")
        }
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 else {
            let saved = errno
            _ = Glibc.close(fd)
            throw Mpg123Error.system("fcntl", saved)
        }
        let rc = mpg123_open_fd(raw, fd)
        guard rc == MPG123_OK.rawValue else {
            _ = Glibc.close(fd)
            throw Mpg123Error(function: "mpg123_open_fd", code: rc, handle: raw)
        }
        descriptor = fd
    }

    /// `mpg123_close`, then closes our descriptor. Safe to call when nothing is open.
    public func close() {
        // mpg123_close only fails for a null handle, which ours never is.
        _ = mpg123_close(raw)
        closeDescriptor()
    }

    private func closeDescriptor() {
        if descriptor >= 0 {
            // Nothing useful to do if close(2) fails on a read-only descriptor.
            _ = Glibc.close(descriptor)
            descriptor = -1
        }
    }

    // MARK: Decoding

    /// `mpg123_getformat`: the format of the PCM to come (parses the first frame if needed).
    public func outputFormat() throws(Mpg123Error) -> Mpg123OutputFormat {
        var rate = 0
        var channels: Int32 = 0
        var encoding: Int32 = 0
        let rc = mpg123_getformat(raw, &rate, &channels, &encoding)
        guard rc == MPG123_OK.rawValue else {
            throw Mpg123Error(function: "mpg123_getformat", code: rc, handle: raw)
        }
        let size = mpg123_encsize(encoding)
        guard size > 0 else {
            throw Mpg123Error(function: "mpg123_encsize", code: encoding,
                              message: "unknown output encoding \(encoding)")
        }
        return Mpg123OutputFormat(sampleRate: rate, channels: Int(channels), bytesPerSample: Int(size))
    }

    /// `mpg123_read`: decodes into `buffer`, straight from libmpg123's output, no copy of ours.
    ///
    /// The call that reports the end (`isEndOfStream`) may also carry the last bytes.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Mpg123Error) -> Mpg123ReadResult {
        guard let base = buffer.baseAddress, buffer.count > 0 else {
            return Mpg123ReadResult(byteCount: 0, isEndOfStream: false, formatChanged: false)
        }
        var done = 0
        let rc = mpg123_read(raw, base, buffer.count, &done)
        switch rc {
        case MPG123_OK.rawValue:
            return Mpg123ReadResult(byteCount: done, isEndOfStream: false, formatChanged: false)
        case MPG123_DONE.rawValue:
            return Mpg123ReadResult(byteCount: done, isEndOfStream: true, formatChanged: false)
        case MPG123_NEW_FORMAT.rawValue:
            return Mpg123ReadResult(byteCount: done, isEndOfStream: false, formatChanged: true)
        default:
            throw Mpg123Error(function: "mpg123_read", code: rc, handle: raw)
        }
    }

    // MARK: Position and length

    /// `mpg123_seek(…, SEEK_SET)` to PCM frame `sample` (gapless-aware); returns where it landed.
    @discardableResult
    public func seek(toSample sample: Int64) throws(Mpg123Error) -> Int64 {
        let result = mpg123_seek(raw, off_t(sample), SEEK_SET)
        guard result >= 0 else {
            throw Mpg123Error(function: "mpg123_seek", code: Int32(truncatingIfNeeded: result), handle: raw)
        }
        return Int64(result)
    }

    /// `mpg123_tell`: the PCM frame offset of the next sample `read` will deliver.
    public func samplePosition() throws(Mpg123Error) -> Int64 {
        let result = mpg123_tell(raw)
        guard result >= 0 else {
            throw Mpg123Error(function: "mpg123_tell", code: Int32(truncatingIfNeeded: result), handle: raw)
        }
        return Int64(result)
    }

    /// `mpg123_scan`: parses every frame so that `sampleLength()` is exact and ID3v1 is seen.
    /// Costs one pass over the file (no decoding); the read position is restored.
    public func scan() throws(Mpg123Error) {
        let rc = mpg123_scan(raw)
        guard rc == MPG123_OK.rawValue else {
            throw Mpg123Error(function: "mpg123_scan", code: rc, handle: raw)
        }
    }

    /// `mpg123_length`: PCM frames in the stream (after gapless trimming), or `nil` when the
    /// library cannot tell (it returns `MPG123_ERR`). Exact after `scan()`, or when the file
    /// carries a Xing/LAME header; otherwise an estimate from the file size.
    public func sampleLength() -> Int64? {
        let result = mpg123_length(raw)
        return result >= 0 ? Int64(result) : nil
    }

    // MARK: Tags

    /// The file's ID3v1 and ID3v2 tags as parsed so far (`mpg123_meta_check` + `mpg123_id3`).
    ///
    /// ID3v2 is seen once the first frame was parsed (e.g. after `outputFormat()`), ID3v1
    /// after `scan()`. Pictures are only present with `Mpg123Flags.picture`, UFID frames with
    /// `Mpg123Flags.rawID3`.
    public func tags() throws(Mpg123Error) -> ID3Tags {
        guard mpg123_meta_check(raw) & MPG123_ID3 != 0 else { return ID3Tags() }
        var v1: UnsafeMutablePointer<mpg123_id3v1>? = nil
        var v2: UnsafeMutablePointer<mpg123_id3v2>? = nil
        let rc = mpg123_id3(raw, &v1, &v2)
        guard rc == MPG123_OK.rawValue else {
            throw Mpg123Error(function: "mpg123_id3", code: rc, handle: raw)
        }
        var tags = ID3Tags(v1: v1?.pointee, v2: v2?.pointee)
        tags.uniqueFileIDs = try rawUniqueFileIDs()
        return tags
    }
}

extension Mpg123Error {
    /// `open(path:)` refused a FIFO, device node or socket.
    public var isNotARegularFile: Bool { function == "open" && code == ENODEV && message == "not a regular file" }

    /// A failed system call, carrying its `errno`.
    static func system(_ function: String, _ code: Int32) -> Mpg123Error {
        let text = strerror(code).map { String(cString: $0) } ?? "error \(code)"
        return Mpg123Error(function: function, code: code, message: text)
    }
}
