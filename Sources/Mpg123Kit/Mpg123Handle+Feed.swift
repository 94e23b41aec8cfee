internal import CMpg123

/// What one `decodeFed` call produced.
public struct Mpg123FeedResult: Sendable, Equatable {
    public var byteCount: Int
    /// Everything fed so far is decoded: feed more before asking again.
    public var needsMore: Bool
    /// The output format is (newly) known or changed: read `outputFormat()`.
    public var formatChanged: Bool
}

/// Feed mode (`mpg123_open_feed`): the bytes come from us, not from a file — a network stream.
extension Mpg123Handle {
    /// `mpg123_open_feed`: decode what `feed(_:)` hands in (closing any file opened before).
    public func openFeed() throws(Mpg123Error) {
        close()
        let rc = mpg123_open_feed(rawHandle)
        guard rc == MPG123_OK.rawValue else {
            throw Mpg123Error(function: "mpg123_open_feed", code: rc, handle: rawHandle)
        }
    }

    /// `mpg123_feed`: hands libmpg123 compressed bytes (it copies them). Feed only when
    /// `decodeFed` said `needsMore`, so what it holds stays a frame or two.
    public func feed(_ bytes: UnsafeRawBufferPointer) throws(Mpg123Error) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let rc = mpg123_feed(rawHandle, base.assumingMemoryBound(to: UInt8.self), bytes.count)
        guard rc == MPG123_OK.rawValue else {
            throw Mpg123Error(function: "mpg123_feed", code: rc, handle: rawHandle)
        }
    }

    /// `mpg123_set_filesize`: the size of what will be fed (a file over HTTP), so that
    /// `sampleLength()` can say how long it is (exact with a Xing/LAME header).
    public func setFileSize(_ bytes: Int64) throws(Mpg123Error) {
        let rc = mpg123_set_filesize(rawHandle, off_t(clamping: bytes))
        guard rc == MPG123_OK.rawValue else {
            throw Mpg123Error(function: "mpg123_set_filesize", code: rc, handle: rawHandle)
        }
    }

    /// `mpg123_read` in feed mode: decodes what was fed into `buffer`.
    public func decodeFed(into buffer: UnsafeMutableRawBufferPointer) throws(Mpg123Error) -> Mpg123FeedResult {
        guard let base = buffer.baseAddress, buffer.count > 0 else {
            return Mpg123FeedResult(byteCount: 0, needsMore: false, formatChanged: false)
        }
        var done = 0
        let rc = mpg123_read(rawHandle, base, buffer.count, &done)
        switch rc {
        case MPG123_OK.rawValue, MPG123_DONE.rawValue:
            return Mpg123FeedResult(byteCount: done, needsMore: false, formatChanged: false)
        case MPG123_NEED_MORE.rawValue:
            return Mpg123FeedResult(byteCount: done, needsMore: true, formatChanged: false)
        case MPG123_NEW_FORMAT.rawValue:
            return Mpg123FeedResult(byteCount: done, needsMore: false, formatChanged: true)
        default:
            throw Mpg123Error(function: "mpg123_read", code: rc, handle: rawHandle)
        }
    }
}
