import OpusKit
import PlayerCore
import VorbisKit

/// Decodes an Ogg Vorbis file through vorbisfile, with the exact sample count of the granule
/// positions, so consecutive tracks join seamlessly.
public typealias VorbisDecoder = OggDecoder<OggVorbisFile>

/// Decodes an Opus file, always at 48 kHz (Opus's own rate), through opusfile, which removes
/// the encoder's pre-skip and trims the end to the last granule position (the sample count is
/// exact, consecutive tracks join seamlessly) and applies the header's output gain.
public typealias OpusDecoder = OggDecoder<OggOpusFile>

/// Decodes one Ogg file (Vorbis or Opus, see `OggPCMFile`) to PCM (`PCMFormat`: signed
/// 16-bit, native endian, interleaved).
///
/// A chained file whose links differ in rate or channels changes `format` between two reads:
/// the bytes of a read are always whole frames of the `format` seen after it.
///
/// Threading: use from one thread at a time (the decoder thread). `@unchecked Sendable` only so
/// it can be created on one thread and handed to that thread; it has no locks.
public final class OggDecoder<File: OggPCMFile>: AudioDecoder, @unchecked Sendable {
    public let path: FilePath
    public private(set) var format: PCMFormat

    private let file: File
    private let links: OggLinks
    private var carry = PCMCarry()
    private var reachedEnd = false

    /// Holes (lost pages, junk between pages) skipped in one `read` before giving up.
    private static var holeLimit: Int { 1_024 }

    /// Opens `path`: reads the headers and the end of the file (for the exact length).
    public init(path: FilePath) throws(DecodingError) {
        self.path = path
        file = try File.opened(path: path)
        links = try Self.links(of: file, path: path)
        guard let first = links.links.first else { throw DecodingError(path: path, reason: "not an \(File.formatName) file: no stream") }
        format = first.format
        // Tags are the track reader's business; the header may be megabytes, not kept while playing.
        file.discardComments()
        if File.rewindsAfterOpening, links.links.count > 1 { try file.seek(toFrame: 0, path: path) }
    }

    /// The links of `file` with their formats and exact lengths.
    static func links(of file: File, path: FilePath) throws(DecodingError) -> OggLinks {
        var links: [OggLinks.Link] = []
        for link in 0..<min(file.linkCount, OggLinks.linkLimit) {
            guard let format = file.pcmFormat(link: link) else {
                throw DecodingError(path: path, reason: "not an \(File.formatName) file: bad stream header")
            }
            links.append(.init(format: format, frames: try file.frames(link: link, path: path)))
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
            var result = (byteCount: 0, link: -1, isHole: false)
            if direct {
                result = try file.read(into: buffer, path: path)
            } else {
                let (file, path) = (self.file, self.path)
                _ = try carry.fill { (scratch) throws(DecodingError) -> Int in
                    result = try file.read(into: scratch, path: path)
                    return result.byteCount
                }
            }
            if result.isHole { continue }
            if result.byteCount == 0 {
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
        try file.seek(toFrame: frame, path: path)
        reachedEnd = false
        if let current = file.pcmFormat(link: -1) { format = current }
    }

    /// The format of the link the last PCM came from.
    private func adopt(link: Int) throws(DecodingError) {
        guard let linkFormat = file.pcmFormat(link: link) else {
            throw DecodingError(path: path, reason: "decoding failed (a stream without a header)")
        }
        format = linkFormat
    }

    private func drainCarry(into buffer: UnsafeMutableRawBufferPointer) throws(DecodingError) -> Int {
        let count = carry.drain(into: buffer, frameBytes: format.bytesPerFrame)
        guard count > 0 else {
            throw DecodingError(path: path, reason: "decoding failed (the stream changed to \(format.channels) channels midway)")
        }
        return count
    }
}
