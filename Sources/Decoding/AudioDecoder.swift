import PlayerCore

/// One audio file being decoded to PCM (`PCMFormat`: signed 16-bit, native endian,
/// interleaved), gapless: encoder delay and padding are removed and the sample count is exact,
/// so consecutive tracks of the same format join seamlessly.
///
/// One adapter per format (`MP3Decoder`, `FLACDecoder`, `VorbisDecoder`, `OpusDecoder`), each
/// over its reference library; `AudioDecoders.open` picks one from the file's content.
/// (Not named `Decoder`: that is the standard library's Codable protocol.)
///
/// Threading: used from one thread at a time (the track's decoder queue); adapters are
/// `@unchecked Sendable` only so they can be created on one thread and handed to that queue.
public protocol AudioDecoder: AnyObject, Sendable {
    var path: FilePath { get }
    /// The format of the PCM `read(into:)` delivers. Re-checked after each `read`: in the rare
    /// file whose format changes midway it changes between two reads.
    var format: PCMFormat { get }
    /// Fills `buffer` with whole PCM frames; returns the number of bytes written; 0 = the end.
    /// `buffer` holds at least one frame.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(DecodingError) -> Int
    /// Moves to `position` (clamped to the track); the next `read` starts there.
    func seek(to position: Microseconds) throws(DecodingError)
}

/// Opens the right decoder for a file.
public enum AudioDecoders {
    /// Reads the first bytes of `path` (`AudioFileKind.sniff`) and opens the decoder of that
    /// format; a `.mp3` that is really FLAC plays as FLAC.
    public static func open(path: FilePath) throws(DecodingError) -> any AudioDecoder {
        let kind = try AudioFileKind.sniff(path: path)
        switch kind {
        case .mp3: return try MP3Decoder(path: path)
        case .flac: return try FLACDecoder(path: path)
        case .vorbis: return try VorbisDecoder(path: path)
        case .opus: return try OpusDecoder(path: path)
        case .m4a, .aac: return try FFmpegDecoder(path: path, kind: kind)
        }
    }
}
