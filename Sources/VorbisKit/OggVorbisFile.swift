internal import CVorbisFile
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An open Ogg Vorbis file (vorbisfile's `OggVorbis_File`), decoded to signed 16-bit PCM.
///
/// A file may be *chained*: several logical streams ("links") one after the other, each with
/// its own rate, channel count and comments. Link numbers run from 0 to `linkCount - 1`.
///
/// Opening reads the headers and, because the source is seekable, the end of the file (to find
/// the links and the exact length from the last granule position) — not the whole file.
/// Use from one thread at a time; `deinit` frees the decoder and closes the file.
public final class OggVorbisFile {
    private let file: UnsafeMutablePointer<OggVorbis_File>
    private let source: VorbisFileSource
    /// The first failure of `ov_read` or `ov_pcm_seek`; every later `read` and `seek` throws it
    /// without calling vorbisfile again. After a failed decoder setup (a setup header whose
    /// codebooks parse but do not make a Huffman tree: `OV_EBADLINK`) libvorbis 1.3.7 keeps
    /// half-built codebooks, and the next read or seek divides by a zero dimension in
    /// `res2_inverse` (SIGFPE: xiph/vorbis issue 124). Found by DecoderFuzzTests.
    private var failure: VorbisError?

    /// Opens `path` (without blocking on a FIFO, closed on exec) and reads its headers.
    /// Throws for a file that is missing, not a regular file, or not Ogg Vorbis.
    public init(path: UnsafePointer<CChar>) throws(VorbisError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { throw VorbisError(systemCall: "open", errno: errno) }
        let source = VorbisFileSource(descriptor: descriptor)
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw VorbisError(systemCall: "fstat", errno: errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw VorbisError(function: "fstat", code: ENODEV, message: "not a regular file")
        }
        let file = UnsafeMutablePointer<OggVorbis_File>.allocate(capacity: 1)
        source.sequentialLimit = Self.headerLimit
        let result = ov_open_callbacks(Unmanaged.passUnretained(source).toOpaque(), file, nil, 0,
                                       VorbisFileSource.callbacks)
        guard result == 0 else {
            // On failure vorbisfile has already cleared the struct (and never closes the source).
            file.deallocate()
            if source.exceededLimit {
                throw VorbisError(function: "ov_open_callbacks", code: OV_EREAD, message: "headers larger than \(Self.headerLimit >> 20) MiB")
            }
            throw VorbisError(function: "ov_open_callbacks", code: result)
        }
        // Decoding reads the whole file in one run.
        source.sequentialLimit = nil
        self.file = file
        self.source = source
    }

    deinit {
        ov_clear(file)
        file.deallocate()
    }

    /// Opening refuses a file whose headers (read in one run, kept in memory by vorbisfile) are
    /// larger: room for a 16 MiB cover in base64, and no more.
    public static let headerLimit: Int64 = 24 << 20

    /// Bytes read from the file so far.
    public var bytesRead: Int64 { source.bytesRead }

    /// The number of logical streams (1 for an ordinary file).
    public var linkCount: Int { max(0, ov_streams(file)) }

    /// The rate and channels of `link` (-1: the link being decoded now); nil for no such link.
    public func streamInfo(link: Int = -1) -> VorbisStreamInfo? {
        guard let link = Int32(exactly: link), let info = ov_info(file, link) else { return nil }
        guard info.pointee.rate > 0, info.pointee.channels > 0 else { return nil }
        return VorbisStreamInfo(sampleRate: info.pointee.rate, channels: Int(info.pointee.channels))
    }

    /// PCM frames in `link`, or in the whole file for -1: exact, from the granule positions.
    public func pcmTotal(link: Int = -1) throws(VorbisError) -> Int64 {
        guard let link = Int32(exactly: link) else { throw VorbisError(function: "ov_pcm_total", code: OV_EINVAL) }
        let total = ov_pcm_total(file, link)
        guard total >= 0 else { throw VorbisError(function: "ov_pcm_total", code: Int32(clamping: total)) }
        return total
    }

    /// The PCM frame the next `read` delivers, counted from the start of the file.
    public var pcmPosition: Int64 { max(0, ov_pcm_tell(file)) }

    /// The raw comments of `link` (-1: the current one), each `KEY=value` as it is stored.
    ///
    /// `body` sees every comment's bytes in turn (valid only during the call) and returns
    /// whether to go on; it decides what to copy, so a huge comment costs nothing here.
    public func forEachComment(link: Int = -1, _ body: (UnsafeRawBufferPointer) -> Bool) {
        guard let link = Int32(exactly: link), let comment = ov_comment(file, link) else { return }
        let count = Int(comment.pointee.comments)
        guard count > 0, let texts = comment.pointee.user_comments, let lengths = comment.pointee.comment_lengths else { return }
        for index in 0..<count {
            guard let text = texts[index] else { continue }
            let length = max(0, Int(lengths[index]))
            if !body(UnsafeRawBufferPointer(start: text, count: length)) { return }
        }
    }

    /// Frees the comments of every link: a decoder needs none, and a file's comment header may
    /// be megabytes (a huge picture). `forEachComment` sees nothing afterwards.
    public func discardComments() {
        for link in 0..<linkCount {
            // vorbis_comment_clear leaves the struct empty and reusable, so ov_clear's own clear
            // later is harmless.
            if let comment = ov_comment(file, Int32(clamping: link)) { vorbis_comment_clear(comment) }
        }
    }

    /// Decodes into `buffer` as signed 16-bit native-endian interleaved PCM, whole frames of
    /// the link it came from (`VorbisReadResult.link`).
    ///
    /// Returns `byteCount` 0 at the end of the file. A hole in the data (`OV_HOLE`: a lost
    /// page, garbage between pages) is not an error: it comes back as `isHole` with no bytes,
    /// and the next read goes on after it. Any other failure is final: later reads and seeks
    /// throw it again (see `failure`).
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(VorbisError) -> VorbisReadResult {
        if let failure { throw failure }
        guard let base = buffer.baseAddress, buffer.count > 0 else { return VorbisReadResult(byteCount: 0, link: -1, isHole: false) }
        var link: Int32 = -1
        let length = Int32(clamping: buffer.count)
        let bigEndian: Int32 = 1.bigEndian == 1 ? 1 : 0
        let result = ov_read(file, base.assumingMemoryBound(to: CChar.self), length, bigEndian, 2, 1, &link)
        if result == Int(OV_HOLE) { return VorbisReadResult(byteCount: 0, link: Int(link), isHole: true) }
        guard result >= 0 else { throw failed(VorbisError(function: "ov_read", code: Int32(clamping: result))) }
        return VorbisReadResult(byteCount: result, link: Int(link), isHole: false)
    }

    /// Moves to PCM frame `frame` of the whole file (exact, not page-granular).
    /// Throws the first failure of an earlier `read` or `seek` again (see `failure`).
    public func seek(toFrame frame: Int64) throws(VorbisError) {
        if let failure { throw failure }
        let result = ov_pcm_seek(file, frame)
        guard result == 0 else { throw failed(VorbisError(function: "ov_pcm_seek", code: result)) }
    }

    /// Remembers `error` as the end of decoding this file, and returns it.
    private func failed(_ error: VorbisError) -> VorbisError {
        failure = error
        return error
    }
}
