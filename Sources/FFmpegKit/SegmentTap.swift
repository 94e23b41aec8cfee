internal import CFFmpeg

/// A fetched file (an HLS segment) whose first bytes are shown to the `NetworkPolicy` on their
/// way to the demuxer (`AVIOContext` over an `AVIOContext`): FFmpeg 5.1's HLS demuxer reads the
/// ID3 tag in front of every packed-audio segment but reports only the first one's tags, so the
/// helper reads each itself. The bytes pass through unchanged; only the leading ID3 tag (at most
/// `NetworkPolicy.leadingTagLimit` bytes) is kept, once, then nothing more is looked at.
final class SegmentTap {
    let context: UnsafeMutablePointer<AVIOContext>
    private var inner: UnsafeMutablePointer<AVIOContext>?
    private let url: String
    private let policy: NetworkPolicy
    private var prefix: [UInt8] = []
    private var done = false

    /// The largest leading tag FFmpeg 5.1's HLS demuxer reads past (its ID3 buffer limit).
    static let largestTagFFmpegSkips = 1 << 20

    init?(inner: UnsafeMutablePointer<AVIOContext>, url: String, policy: NetworkPolicy) {
        let size = 32 * 1024
        guard let buffer = av_malloc(size) else { return nil }
        guard let context = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Int32(size), 0, nil, { opaque, bytes, count in
            guard let opaque, let bytes, count > 0 else { return aubade_AVERROR_EOF }
            return Unmanaged<SegmentTap>.fromOpaque(opaque).takeUnretainedValue().read(bytes, Int(count))
        }, nil, { opaque, offset, whence in
            guard let opaque else { return -1 }
            return Unmanaged<SegmentTap>.fromOpaque(opaque).takeUnretainedValue().seek(offset, whence)
        }) else {
            av_free(buffer)
            return nil
        }
        self.context = context
        self.inner = inner
        self.url = url
        self.policy = policy
        // Unretained: the input's registry of taps holds this until FFmpeg closes the context.
        context.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
        context.pointee.seekable = inner.pointee.seekable
    }

    private func read(_ bytes: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int32 {
        guard let inner else { return aubade_AVERROR_EOF }
        // What the fetch has now (at least a byte), as FFmpeg would read it without the tap;
        // but the first read waits for the tag's whole 10-byte header: whether its name is
        // blotted out (see `look`) must be decided before any of it goes on to FFmpeg.
        let header = prefix.isEmpty && !done && count >= 10
        let got = header ? avio_read(inner, bytes, 10) : avio_read_partial(inner, bytes, Int32(count))
        if got > 0, !done { look(at: UnsafeMutableBufferPointer(start: bytes, count: Int(got))) }
        if got == 0 { return aubade_AVERROR_EOF }
        if got < 0, !done { finish(found: false) }
        return got
    }

    private func seek(_ offset: Int64, _ whence: Int32) -> Int64 {
        guard let inner else { return -1 }
        if whence & aubade_AVSEEK_SIZE != 0 { return avio_size(inner) }
        // A seek before the tag is whole (a byte range) ends the looking.
        if !done { finish(found: false) }
        return avio_seek(inner, offset, whence & ~aubade_AVSEEK_FORCE)
    }

    /// Keeps bytes until the tag is whole (its size is in its 10-byte header).
    private func look(at bytes: UnsafeMutableBufferPointer<UInt8>) {
        let before = prefix.count
        prefix += bytes.prefix(NetworkPolicy.leadingTagLimit + 10 - prefix.count)
        if prefix.count >= 3, !prefix.starts(with: [0x49, 0x44, 0x33]) { return finish(found: false) }
        guard prefix.count >= 10 else { return }
        let sizeBytes = prefix[6..<10]
        guard sizeBytes.allSatisfy({ $0 < 0x80 }) else { return finish(found: false) }
        let size = sizeBytes.reduce(0) { $0 << 7 | Int($1) } + 10 + (prefix[5] & 0x10 != 0 ? 10 : 0)
        if size > Self.largestTagFFmpegSkips, before == 0 {
            // FFmpeg 5.1's HLS demuxer refuses such a tag ("Too large HLS ID3 tag") and then
            // delivers no more audio from any segment: the tag's name is blotted out, so the
            // segment is read as one without a tag (the ADTS demuxer finds its first frame).
            bytes.baseAddress!.update(repeating: 0, count: 3)
            return finish(found: false)
        }
        guard size <= NetworkPolicy.leadingTagLimit else { return finish(found: false) }
        if prefix.count >= size {
            prefix.removeLast(prefix.count - size)
            finish()
        }
    }

    private func finish(found: Bool = true) {
        done = true
        let tag = prefix
        prefix = []
        if found, tag.count >= 10, tag.starts(with: [0x49, 0x44, 0x33]) { policy.leadingTag(tag, url: url) }
    }

    /// Closes the fetch under it and frees this context.
    func close() -> Int32 {
        var result: Int32 = 0
        if inner != nil { result = avio_closep(&inner) }
        av_freep(&context.pointee.buffer)
        var pointer: UnsafeMutablePointer<AVIOContext>? = context
        avio_context_free(&pointer)
        return result
    }
}
