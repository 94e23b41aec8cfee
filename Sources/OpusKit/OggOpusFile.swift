internal import COpusFile
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An open Ogg Opus file (opusfile's `OggOpusFile`), decoded to signed 16-bit PCM at 48 kHz.
///
/// opusfile removes the encoder's pre-skip and trims the end to the last granule position, so
/// the sample count is exact; it also applies the header's output gain (its default). A file
/// may be chained: links 0 to `linkCount - 1`, each with its own channel count and tags.
///
/// Opening reads the headers and, because the source is seekable, the end of the file (to find
/// the links and the length) — not the whole file. Use from one thread at a time; `deinit`
/// frees the decoder and closes the file.
public final class OggOpusFile {
    private let file: OpaquePointer
    private let source: OpusFileSource

    /// Opens `path` (without blocking on a FIFO, closed on exec) and reads its headers.
    /// Throws for a file that is missing, not a regular file, or not Opus.
    public init(path: UnsafePointer<CChar>) throws(OpusError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { throw OpusError(systemCall: "open", errno: errno) }
        let source = OpusFileSource(descriptor: descriptor)
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw OpusError(systemCall: "fstat", errno: errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw OpusError(function: "fstat", code: ENODEV, message: "not a regular file")
        }
        var callbacks = OpusFileSource.callbacks
        var error: Int32 = 0
        source.sequentialLimit = Self.headerLimit
        // On failure opusfile frees what it made and does not close the source.
        guard let file = op_open_callbacks(Unmanaged.passUnretained(source).toOpaque(), &callbacks, nil, 0, &error) else {
            if source.exceededLimit {
                throw OpusError(function: "op_open_callbacks", code: OP_EREAD, message: "headers larger than \(Self.headerLimit >> 20) MiB")
            }
            throw OpusError(function: "op_open_callbacks", code: error == 0 ? OP_EFAULT : error)
        }
        // Decoding reads the whole file in one run.
        source.sequentialLimit = nil
        self.file = file
        self.source = source
    }

    deinit {
        op_free(file)
    }

    /// Opening refuses a file whose headers (read in one run, kept in memory by opusfile) are
    /// larger: room for a 16 MiB cover in base64, and no more.
    public static let headerLimit: Int64 = 24 << 20

    /// Bytes read from the file so far.
    public var bytesRead: Int64 { source.bytesRead }

    /// The number of logical streams (1 for an ordinary file).
    public var linkCount: Int { max(0, Int(op_link_count(file))) }

    /// The identification header of `link` (-1: the link being decoded now); nil for no such link.
    public func streamInfo(link: Int = -1) -> OpusStreamInfo? {
        guard let link = Int32(exactly: link), let head = op_head(file, link) else { return nil }
        guard head.pointee.channel_count > 0 else { return nil }
        return OpusStreamInfo(channels: Int(head.pointee.channel_count), preSkip: Int(head.pointee.pre_skip),
                              outputGain: Int(head.pointee.output_gain),
                              inputSampleRate: Int(head.pointee.input_sample_rate))
    }

    /// PCM frames at 48 kHz in `link`, or in the whole file for -1, after pre-skip and end
    /// trimming: exact, from the granule positions.
    public func pcmTotal(link: Int = -1) throws(OpusError) -> Int64 {
        guard let link = Int32(exactly: link) else { throw OpusError(function: "op_pcm_total", code: OP_EINVAL) }
        let total = op_pcm_total(file, link)
        guard total >= 0 else { throw OpusError(function: "op_pcm_total", code: Int32(clamping: total)) }
        return total
    }

    /// The 48 kHz frame the next `read` delivers, counted from the start of the file.
    public var pcmPosition: Int64 { max(0, op_pcm_tell(file)) }

    /// The raw comments of `link` (-1: the current one), each `KEY=value` as it is stored.
    ///
    /// `body` sees every comment's bytes in turn (valid only during the call) and returns
    /// whether to go on; it decides what to copy, so a huge comment costs nothing here.
    public func forEachComment(link: Int = -1, _ body: (UnsafeRawBufferPointer) -> Bool) {
        guard let link = Int32(exactly: link), let tags = op_tags(file, link) else { return }
        let count = Int(tags.pointee.comments)
        guard count > 0, let texts = tags.pointee.user_comments, let lengths = tags.pointee.comment_lengths else { return }
        for index in 0..<count {
            guard let text = texts[index] else { continue }
            let length = max(0, Int(lengths[index]))
            if !body(UnsafeRawBufferPointer(start: text, count: length)) { return }
        }
    }

    /// Frees the tags of every link: a decoder needs none, and a file's comment header may be
    /// megabytes (a huge picture). `forEachComment` sees nothing afterwards.
    public func discardComments() {
        for link in 0..<linkCount {
            guard let tags = op_tags(file, Int32(clamping: link)) else { continue }
            // The tags belong to the file; opus_tags_init leaves them empty, so op_free's own
            // clear later frees nothing twice.
            let owned = UnsafeMutablePointer(mutating: tags)
            opus_tags_clear(owned)
            opus_tags_init(owned)
        }
    }

    /// Decodes into `buffer` as signed 16-bit native-endian interleaved PCM at 48 kHz, whole
    /// frames of the link it came from (`OpusReadResult.link`, its channel count).
    ///
    /// Returns `byteCount` 0 at the end of the file. A hole in the data (`OP_HOLE`) is not an
    /// error: it comes back as `isHole` with no bytes, and the next read goes on after it.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(OpusError) -> OpusReadResult {
        guard let base = buffer.baseAddress, buffer.count >= 2 else { return OpusReadResult(byteCount: 0, link: -1, isHole: false) }
        var link: Int32 = -1
        let values = Int32(clamping: buffer.count / 2)
        let frames = op_read(file, base.assumingMemoryBound(to: opus_int16.self), values, &link)
        if frames == OP_HOLE { return OpusReadResult(byteCount: 0, link: Int(link), isHole: true) }
        guard frames >= 0 else { throw OpusError(function: "op_read", code: frames) }
        let channels = streamInfo(link: Int(link))?.channels ?? 0
        return OpusReadResult(byteCount: Int(frames) * channels * 2, link: Int(link), isHole: false)
    }

    /// Moves to 48 kHz frame `frame` of the whole file (exact).
    public func seek(toFrame frame: Int64) throws(OpusError) {
        let result = op_pcm_seek(file, frame)
        guard result == 0 else { throw OpusError(function: "op_pcm_seek", code: result) }
    }
}
