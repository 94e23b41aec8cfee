import OpusKit
import PlayerCore
import VorbisKit

/// What `OggDecoder` needs of an Ogg codec library's file handle (vorbisfile's, opusfile's),
/// with every failure already in a user's words. The two libraries' APIs are alike (links of a
/// chained file, granule-exact totals, reads that may report a hole); their differences are
/// the rate (Opus is always 48 kHz), the format's name, and vorbisfile's position after open.
public protocol OggPCMFile: AnyObject {
    /// As users know it: "Ogg Vorbis", "Opus".
    static var formatName: String { get }
    /// vorbisfile (libvorbis 1.3.7) leaves a chained file positioned in its last link after
    /// finding the links: the decoder seeks back to the first sample.
    static var rewindsAfterOpening: Bool { get }

    static func opened(path: FilePath) throws(DecodingError) -> Self
    var linkCount: Int { get }
    /// The PCM format of `link` (-1: the current one); nil when it has no valid header.
    func pcmFormat(link: Int) -> PCMFormat?
    /// Frames in `link`, exact (from the granule positions).
    func frames(link: Int, path: FilePath) throws(DecodingError) -> Int64
    func read(into buffer: UnsafeMutableRawBufferPointer, path: FilePath) throws(DecodingError) -> (byteCount: Int, link: Int, isHole: Bool)
    func seek(toFrame frame: Int64, path: FilePath) throws(DecodingError)
    /// Frees the comment header (megabytes, perhaps) once the tags are no longer needed.
    func discardComments()
}

extension OggVorbisFile: OggPCMFile {
    public static var formatName: String { "Ogg Vorbis" }
    public static var rewindsAfterOpening: Bool { true }

    public func pcmFormat(link: Int) -> PCMFormat? {
        streamInfo(link: link).map { PCMFormat(sampleRate: $0.sampleRate, channels: $0.channels) }
    }

    public func frames(link: Int, path: FilePath) throws(DecodingError) -> Int64 {
        do { return try pcmTotal(link: link) } catch { throw DecodingError(path: path, opening: error) }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer, path: FilePath) throws(DecodingError) -> (byteCount: Int, link: Int, isHole: Bool) {
        do {
            let result = try read(into: buffer)
            return (result.byteCount, result.link, result.isHole)
        } catch {
            throw DecodingError(path: path, decoding: error)
        }
    }

    public func seek(toFrame frame: Int64, path: FilePath) throws(DecodingError) {
        do { try seek(toFrame: frame) } catch { throw DecodingError(path: path, decoding: error) }
    }
}

extension OggOpusFile: OggPCMFile {
    public static var formatName: String { "Opus" }
    public static var rewindsAfterOpening: Bool { false }

    public func pcmFormat(link: Int) -> PCMFormat? {
        streamInfo(link: link).map { PCMFormat(sampleRate: OpusStreamInfo.sampleRate, channels: $0.channels) }
    }

    public func frames(link: Int, path: FilePath) throws(DecodingError) -> Int64 {
        do { return try pcmTotal(link: link) } catch { throw DecodingError(path: path, opening: error) }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer, path: FilePath) throws(DecodingError) -> (byteCount: Int, link: Int, isHole: Bool) {
        do {
            let result = try read(into: buffer)
            return (result.byteCount, result.link, result.isHole)
        } catch {
            throw DecodingError(path: path, decoding: error)
        }
    }

    public func seek(toFrame frame: Int64, path: FilePath) throws(DecodingError) {
        do { try seek(toFrame: frame) } catch { throw DecodingError(path: path, decoding: error) }
    }
}
