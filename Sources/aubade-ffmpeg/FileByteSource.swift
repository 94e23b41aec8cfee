import FFmpegKit
#if canImport(Glibc)
import Glibc
#endif

/// A file the daemon opened and passed over: read with `pread`, owned (closed in `deinit`).
final class FileByteSource: ByteSource {
    private let descriptor: Int32
    private var offset: Int64 = 0
    let size: Int64?
    var isSeekable: Bool { true }
    /// Bytes read so far (the header-only reads of a probe are counted by the benchmark).
    private(set) var bytesRead: Int64 = 0

    /// `randomAccess`: no readahead (a probe reads the header, perhaps at the end of the file).
    init(descriptor: Int32, randomAccess: Bool) {
        self.descriptor = descriptor
        var info = stat()
        size = fstat(descriptor, &info) == 0 ? Int64(info.st_size) : nil
        _ = posix_fadvise(descriptor, 0, 0, randomAccess ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL)
    }

    deinit { close(descriptor) }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        while true {
            let count = pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset))
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            offset += Int64(count)
            bytesRead += Int64(count)
            return count
        }
    }

    func seek(to target: Int64) -> Bool {
        guard target >= 0 else { return false }
        offset = target
        return true
    }
}
