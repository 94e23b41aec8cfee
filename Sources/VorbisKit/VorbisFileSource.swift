internal import CVorbisFile
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The descriptor vorbisfile reads through its callbacks, and the count of bytes it read.
///
/// Owns the descriptor: vorbisfile is given no close callback, so the descriptor is closed
/// here (in `deinit`) whether `ov_open_callbacks` succeeded or not.
final class VorbisFileSource {
    let descriptor: Int32
    /// Bytes handed to LIB so far (for the "≤ 256 KiB read to queue a file" budget).
    private(set) var bytesRead: Int64 = 0
    /// While set, a run of reads without a seek in between may not pass this many bytes: the
    /// headers (a comment packet holding a cover) are read in one run while opening, and the
    /// library keeps all of it in memory — a hostile file could make that gigabytes.
    var sequentialLimit: Int64?
    /// A read was refused because of `sequentialLimit`.
    private(set) var exceededLimit = false
    private var sinceSeek: Int64 = 0

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// The callbacks, with the source passed as the `datasource` pointer.
    static let callbacks = ov_callbacks(read_func: readCallback, seek_func: seekCallback,
                                        close_func: nil, tell_func: tellCallback)

    fileprivate func read(into pointer: UnsafeMutableRawPointer, count: Int) -> Int {
        if let sequentialLimit, sinceSeek.saturatingAdd(count) > sequentialLimit {
            exceededLimit = true
            // vorbisfile tells an error from the end by errno.
            errno = EFBIG
            return 0
        }
        while true {
            let result = Glibc.read(descriptor, pointer, count)
            if result >= 0 {
                bytesRead += Int64(result)
                sinceSeek += Int64(result)
                // vorbisfile tells the end from an error by errno: 0 means the end.
                if result == 0 { errno = 0 }
                return result
            }
            if errno != EINTR { return 0 }
        }
    }

    fileprivate func seek(to offset: Int64, whence: Int32) -> Int32 {
        guard lseek(descriptor, off_t(offset), whence) >= 0 else { return -1 }
        sinceSeek = 0
        return 0
    }

    fileprivate func tell() -> Int {
        Int(lseek(descriptor, 0, SEEK_CUR))
    }

    fileprivate static func source(_ pointer: UnsafeMutableRawPointer?) -> VorbisFileSource? {
        pointer.map { Unmanaged<VorbisFileSource>.fromOpaque($0).takeUnretainedValue() }
    }
}

private func readCallback(_ buffer: UnsafeMutableRawPointer?, _ size: Int, _ count: Int,
                          _ datasource: UnsafeMutableRawPointer?) -> Int {
    guard let buffer, let source = VorbisFileSource.source(datasource), size > 0 else { return 0 }
    let (total, overflow) = size.multipliedReportingOverflow(by: count)
    guard !overflow else { return 0 }
    return source.read(into: buffer, count: total) / size
}

private func seekCallback(_ datasource: UnsafeMutableRawPointer?, _ offset: ogg_int64_t, _ whence: Int32) -> Int32 {
    VorbisFileSource.source(datasource)?.seek(to: offset, whence: whence) ?? -1
}

private func tellCallback(_ datasource: UnsafeMutableRawPointer?) -> Int {
    VorbisFileSource.source(datasource)?.tell() ?? -1
}

extension Int64 {
    fileprivate func saturatingAdd(_ count: Int) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(Int64(count))
        return overflow ? .max : sum
    }
}
