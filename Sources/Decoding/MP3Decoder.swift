import Mpg123Kit
import PlayerCore

/// Decodes one MP3 file to PCM (`PCMFormat`: signed 16-bit, native endian, interleaved),
/// gapless: encoder delay and padding are removed, so consecutive tracks join seamlessly.
///
/// Threading: use from one thread at a time (typically the decoder thread that stays ahead
/// of the audio output). It is `@unchecked Sendable` only so it can be created on one thread
/// and handed to that decoder thread; it has no locks, concurrent calls are a bug.
public final class MP3Decoder: AudioDecoder, @unchecked Sendable {
    public let path: FilePath
    /// The format of the PCM `read(into:)` delivers. Re-check it after each `read`: in the
    /// rare file whose format changes midway it changes between two reads.
    public private(set) var format: PCMFormat

    private let handle: Mpg123Handle
    /// PCM frames in the track, from the LAME/Xing header when there is one (exact), else
    /// libmpg123's estimate from the file size; `nil` if unknown.
    private let lengthInFrames: Int64?
    private var reachedEnd = false
    /// libmpg123 announced a new format (`MPG123_NEW_FORMAT`) along with bytes of the old one:
    /// `format` changes at the start of the next `read`, once those bytes are delivered.
    private var formatChangePending = false

    /// Opens `path` for decoding. Fast: reads the tags and first frame header only.
    public init(path: FilePath) throws(DecodingError) {
        self.path = path
        handle = try Mpg123Handle.opened(path: path)
        format = try handle.probedFormat(path: path)
        lengthInFrames = handle.sampleLength()
    }

    /// Fills `buffer` with whole PCM frames; returns the number of bytes written.
    /// 0 means the track has ended. Never writes a partial frame.
    ///
    /// Decodes straight into `buffer` (libmpg123 copies from its frame buffer once); no
    /// allocation. `buffer` must hold at least one frame (4 bytes for stereo).
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(DecodingError) -> Int {
        if reachedEnd { return 0 }
        if formatChangePending {
            formatChangePending = false
            format = try handle.probedFormat(path: path)
        }
        // Zero-byte results without an end happen around a format change or while gapless
        // trimming drops the encoder delay; they are few, but bound them all the same.
        for _ in 0..<1024 {
            let frameBytes = format.bytesPerFrame
            precondition(buffer.count >= frameBytes, "MP3Decoder.read needs room for one PCM frame")
            // A whole number of frames in the request guarantees whole frames in the answer.
            let usable = buffer.count - buffer.count % frameBytes
            let result: Mpg123ReadResult
            do {
                result = try handle.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<usable]))
                // The bytes that come with MPG123_NEW_FORMAT are the last ones of the old format
                // (a mono frame amid stereo ones: whole mono samples, half a stereo frame), and
                // callers read a read's bytes in the format seen after it: switch once they are
                // delivered. (Found by DecoderFuzzTests: 6 bytes "of stereo".)
                if result.formatChanged {
                    if result.byteCount > 0 {
                        formatChangePending = true
                    } else {
                        format = try handle.probedFormat(path: path)
                    }
                }
            } catch let error as Mpg123Error {
                throw DecodingError(path: path, decoding: error)
            } catch let error as DecodingError {
                throw error
            } catch {
                throw DecodingError(path: path, reason: "decoding failed (\(error))")
            }
            if result.isEndOfStream {
                // The last read brings the last bytes along with MPG123_DONE.
                reachedEnd = true
                return result.byteCount
            }
            if result.byteCount > 0 { return result.byteCount }
        }
        throw DecodingError(path: path, reason: "decoding made no progress")
    }

    /// Moves to `position` (clamped to the start and the end of the track); the next `read`
    /// starts with the sample at that time.
    public func seek(to position: Microseconds) throws(DecodingError) {
        var frame = max(0, format.frames(in: position))
        if let lengthInFrames { frame = min(frame, lengthInFrames) }
        do {
            try handle.seek(toSample: frame)
        } catch {
            throw DecodingError(path: path, decoding: error)
        }
        reachedEnd = false
    }

    /// The time of the next sample `read` will deliver.
    public var position: Microseconds {
        // mpg123_tell only fails for a handle without a stream, which ours always has.
        let frame = (try? handle.samplePosition()) ?? 0
        return format.duration(ofFrames: frame)
    }
}
