import Mpg123Kit
import AudioOutput

/// Decodes MP3 handed in piece by piece (a network stream) with libmpg123's feed mode, to
/// signed 16-bit PCM in the stream's own rate and channels.
///
/// Use from one thread at a time (the track's decoder queue).
final class MP3FeedDecoder {
    private let handle: Mpg123Handle
    /// Known once the first frame header was decoded.
    private(set) var format: PCMFormat?

    init() throws(Mpg123Error) {
        handle = try Mpg123Handle()
        // No gapless trimming: a stream has no LAME header, and a reconnect joins mid-stream.
        try handle.addFlags([.quiet])
        try handle.forceSigned16Output()
        try handle.openFeed()
    }

    func feed(_ bytes: ArraySlice<UInt8>) throws(Mpg123Error) {
        var failure: Mpg123Error?
        bytes.withUnsafeBytes { raw in
            do throws(Mpg123Error) { try handle.feed(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// For a file of known size: lets `length` be known once its first frame is decoded.
    func setFileSize(_ bytes: Int64) throws(Mpg123Error) {
        try handle.setFileSize(bytes)
    }

    /// The PCM frames in the whole file (exact with a Xing/LAME header, else estimated from
    /// the size); nil before the first frame or without a size.
    var lengthInFrames: Int64? { handle.sampleLength() }

    /// Decodes what was fed into `buffer` (whole frames). `needsMore`: feed before asking again.
    func decode(into buffer: UnsafeMutableRawBufferPointer) throws(Mpg123Error) -> (bytes: Int, needsMore: Bool, newFormat: Bool) {
        let frame = format?.bytesPerFrame ?? 4
        let usable = buffer.count - buffer.count % frame
        let result = try handle.decodeFed(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<usable]))
        var newFormat = false
        if result.formatChanged {
            let output = try handle.outputFormat()
            let changed = PCMFormat(sampleRate: output.sampleRate, channels: output.channels)
            newFormat = changed != format
            format = changed
        }
        return (result.byteCount, result.needsMore, newFormat)
    }
}
