internal import COpusFile
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The descriptor opusfile reads through its callbacks, and the count of bytes it read.
///
/// Owns the descriptor: opusfile is given no close callback, so the descriptor is closed
/// here (in `deinit`) whether `op_open_callbacks` succeeded or not.
final class OpusFileSource {
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

    /// The callbacks, with the source passed as the stream pointer.
    static var callbacks: OpusFileCallbacks {
        OpusFileCallbacks(read: readCallback, seek: seekCallback, tell: tellCallback, close: nil)
    }

    fileprivate func read(into pointer: UnsafeMutableRawPointer, count: Int) -> Int32 {
        if let sequentialLimit, sinceSeek.saturatingAdd(count) > sequentialLimit {
            exceededLimit = true
            return -1
        }
        while true {
            let result = Glibc.read(descriptor, pointer, count)
            if result >= 0 {
                bytesRead += Int64(result)
                sinceSeek += Int64(result)
                return Int32(result)
            }
            if errno != EINTR { return -1 }
        }
    }

    fileprivate func seek(to offset: Int64, whence: Int32) -> Int32 {
        guard lseek(descriptor, off_t(offset), whence) >= 0 else { return -1 }
        sinceSeek = 0
        return 0
    }

    fileprivate func tell() -> Int64 {
        Int64(lseek(descriptor, 0, SEEK_CUR))
    }

    fileprivate static func source(_ pointer: UnsafeMutableRawPointer?) -> OpusFileSource? {
        pointer.map { Unmanaged<OpusFileSource>.fromOpaque($0).takeUnretainedValue() }
    }
}

private func readCallback(_ stream: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ count: Int32) -> Int32 {
    guard let buffer, let source = OpusFileSource.source(stream), count > 0 else { return 0 }
    return source.read(into: buffer, count: Int(count))
}

private func seekCallback(_ stream: UnsafeMutableRawPointer?, _ offset: opus_int64, _ whence: Int32) -> Int32 {
    OpusFileSource.source(stream)?.seek(to: offset, whence: whence) ?? -1
}

private func tellCallback(_ stream: UnsafeMutableRawPointer?) -> opus_int64 {
    OpusFileSource.source(stream)?.tell() ?? -1
}

extension Int64 {
    fileprivate func saturatingAdd(_ count: Int) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(Int64(count))
        return overflow ? .max : sum
    }
}
