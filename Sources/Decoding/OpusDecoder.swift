import OpusKit
import PlayerCore

/// Decodes one Opus file to PCM (`PCMFormat`: signed 16-bit, native endian, interleaved),
/// always at 48 kHz (Opus's own rate), through opusfile, which removes the encoder's pre-skip
/// and trims the end to the last granule position: the sample count is exact and consecutive
/// tracks join seamlessly. opusfile also applies the header's output gain (its default).
///
/// A chained file whose links differ in channel count changes `format` between two reads:
/// the bytes of a read are always whole frames of the `format` seen after it.
///
/// Threading: use from one thread at a time (the decoder thread). `@unchecked Sendable` only so
/// it can be created on one thread and handed to that thread; it has no locks.
public final class OpusDecoder: AudioDecoder, @unchecked Sendable {
    public let path: FilePath
    public private(set) var format: PCMFormat

    private let file: OggOpusFile
    private let links: OggLinks
    private var carry = PCMCarry()
    private var reachedEnd = false

    /// Holes (lost pages, junk between pages) skipped in one `read` before giving up.
    private static let holeLimit = 1_024

    /// Opens `path`: reads the headers and the end of the file (for the exact length).
    public init(path: FilePath) throws(DecodingError) {
        self.path = path
        file = try OggOpusFile.opened(path: path)
        links = try Self.links(of: file, path: path)
        guard let first = links.links.first else { throw DecodingError(path: path, reason: "not an Opus file: no stream") }
        format = first.format
        // Tags are the track reader's business; the header may be megabytes, not kept while playing.
        file.discardComments()
    }

    /// The links of `file` with their channel counts and exact lengths.
    static func links(of file: OggOpusFile, path: FilePath) throws(DecodingError) -> OggLinks {
        var links: [OggLinks.Link] = []
        for link in 0..<min(file.linkCount, OggLinks.linkLimit) {
            guard let info = file.streamInfo(link: link) else {
                throw DecodingError(path: path, reason: "not an Opus file: bad stream header")
            }
            let frames: Int64
            do {
                frames = try file.pcmTotal(link: link)
            } catch {
                throw DecodingError(path: path, opening: error)
            }
            links.append(.init(format: PCMFormat(sampleRate: OpusStreamInfo.sampleRate, channels: info.channels), frames: frames))
        }
        return OggLinks(links)
    }

    /// Fills `buffer` with whole PCM frames; returns the number of bytes written; 0 = the end.
    /// Decodes straight into `buffer` unless it is smaller than the largest possible frame.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(DecodingError) -> Int {
        if !carry.isEmpty { return try drainCarry(into: buffer) }
        if reachedEnd { return 0 }
        let direct = buffer.count >= PCMCarry.largestFrameBytes
        for _ in 0..<Self.holeLimit {
            var result = OpusReadResult(byteCount: 0, link: -1, isHole: false)
            do {
                if direct {
                    result = try file.read(into: buffer)
                } else {
                    _ = try carry.fill { (scratch) throws(OpusError) -> Int in
                        result = try file.read(into: scratch)
                        return result.byteCount
                    }
                }
            } catch {
                throw DecodingError(path: path, decoding: error)
            }
            if result.isHole { continue }
            if result.isEndOfFile {
                reachedEnd = true
                return 0
            }
            try adopt(link: result.link)
            return direct ? result.byteCount : try drainCarry(into: buffer)
        }
        throw DecodingError(path: path, reason: "decoding made no progress (the data is full of holes)")
    }

    /// Moves to `position` (clamped to the track); the next `read` starts with its sample.
    public func seek(to position: Microseconds) throws(DecodingError) {
        let frame = links.frame(at: position)
        carry = PCMCarry()
        if frame >= links.totalFrames {
            reachedEnd = true
            return
        }
        do {
            try file.seek(toFrame: frame)
        } catch {
            throw DecodingError(path: path, decoding: error)
        }
        reachedEnd = false
        if let info = file.streamInfo(link: -1) { format = PCMFormat(sampleRate: OpusStreamInfo.sampleRate, channels: info.channels) }
    }

    /// The format of the link the last PCM came from.
    private func adopt(link: Int) throws(DecodingError) {
        guard let info = file.streamInfo(link: link) else {
            throw DecodingError(path: path, reason: "decoding failed (a stream without a header)")
        }
        format = PCMFormat(sampleRate: OpusStreamInfo.sampleRate, channels: info.channels)
    }

    private func drainCarry(into buffer: UnsafeMutableRawBufferPointer) throws(DecodingError) -> Int {
        let count = carry.drain(into: buffer, frameBytes: format.bytesPerFrame)
        guard count > 0 else {
            throw DecodingError(path: path, reason: "decoding failed (the stream changed to \(format.channels) channels midway)")
        }
        return count
    }
}
