internal import CFFmpeg
#if canImport(Glibc)
import Glibc
#endif

/// An `AVIOContext` whose reads and seeks go to a `ByteSource` (FFmpeg's "custom I/O").
///
/// Owns the context, its buffer and a strong reference to the source; frees them in `deinit`.
final class CustomIO {
    let context: UnsafeMutablePointer<AVIOContext>
    private let box: Unmanaged<SourceBox>

    final class SourceBox {
        let source: ByteSource
        init(_ source: ByteSource) { self.source = source }
    }

    /// `bufferSize`: FFmpeg reads through a buffer of this size; small for a stream (so a
    /// title placed between two reads lands close to its audio) and for probing a file's
    /// header (so no more than needed is read).
    init(source: ByteSource, bufferSize: Int) throws(FFmpegError) {
        guard let buffer = av_malloc(bufferSize) else { throw .outOfMemory("av_malloc") }
        box = Unmanaged.passRetained(SourceBox(source))
        let read: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = { opaque, bytes, count in
            guard let opaque, let bytes, count > 0 else { return aubade_AVERROR_EOF }
            let source = Unmanaged<SourceBox>.fromOpaque(opaque).takeUnretainedValue().source
            guard let read = source.read(into: UnsafeMutableRawBufferPointer(start: bytes, count: Int(count))) else {
                return -EIO
            }
            return read == 0 ? aubade_AVERROR_EOF : Int32(read)
        }
        let seek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = { opaque, offset, whence in
            guard let opaque else { return -1 }
            let source = Unmanaged<SourceBox>.fromOpaque(opaque).takeUnretainedValue().source
            if whence & aubade_AVSEEK_SIZE != 0 { return source.size ?? -1 }
            let target: Int64
            switch whence & ~aubade_AVSEEK_FORCE {
            case SEEK_SET: target = offset
            case SEEK_END:
                guard let size = source.size else { return -1 }
                target = size + offset
            default: return -1  // avio tracks the position itself and only asks SEEK_SET/END
            }
            return source.seek(to: target) ? target : -1
        }
        guard let context = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Int32(bufferSize), 0,
                                               box.toOpaque(), read, nil, source.isSeekable ? seek : nil) else {
            av_free(buffer)
            box.release()
            throw .outOfMemory("avio_alloc_context")
        }
        if !source.isSeekable { context.pointee.seekable = 0 }
        self.context = context
    }

    deinit {
        // The context may have replaced its buffer: free the one it holds now.
        av_freep(&context.pointee.buffer)
        var pointer: UnsafeMutablePointer<AVIOContext>? = context
        avio_context_free(&pointer)
        box.release()
    }
}
