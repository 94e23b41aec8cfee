import Mpg123Kit
import PlayerCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads what is known about an audio file without playing it: tags, length, ReplayGain.
/// The format is told by the file's content (`AudioFileKind`), not its name.
public enum TrackReader {
    /// The track in the file at `path`, whatever its format.
    public static func read(path: FilePath) throws(DecodingError) -> Track {
        switch try AudioFileKind.sniff(path: path) {
        case .mp3: return try readMP3(path: path)
        case .flac: return try FLACTrackReader.read(path: path)
        case .vorbis: return try VorbisTrackReader.read(path: path)
        case .opus: return try OpusTrackReader.read(path: path)
        }
    }

    /// The cover picture embedded in the file, whatever its format; nil when there is none.
    public static func coverArt(path: FilePath) throws(DecodingError) -> CoverArt? {
        switch try AudioFileKind.sniff(path: path) {
        case .mp3: return try mp3CoverArt(path: path)
        case .flac: return try FLACTrackReader.coverArt(path: path)
        case .vorbis: return try VorbisTrackReader.coverArt(path: path)
        case .opus: return try OpusTrackReader.coverArt(path: path)
        }
    }

    /// Opens the file, checks it really is MP3 audio (at least one frame decodes), reads its
    /// tags into a `Track`, and its exact gapless length (`mpg123_scan`, then `mpg123_length`).
    ///
    /// Empty files, tag-only files, random bytes, a WAV named .mp3, missing and unreadable
    /// files, FIFOs and device nodes all throw, with reasons such as "file not found",
    /// "permission denied", "empty file", "not a regular file", "not an MP3 file: no audio
    /// frames", "not an MP3 file (…)".
    ///
    /// Costs one pass over the file (frame headers only, no full decode).
    static func readMP3(path: FilePath) throws(DecodingError) -> Track {
        let handle = try Mpg123Handle.opened(path: path)
        let format = try probe(handle, path: path)
        let tags: ID3Tags
        let samples: Int64?
        do {
            // The scan makes the length exact (even for VBR files without a Xing header)
            // and reaches the ID3v1 tag at the end of the file.
            try handle.scan()
            samples = handle.sampleLength()
            tags = try handle.tags()
        } catch {
            throw DecodingError(path: path, decoding: error)
        }
        var track = TagMapping.track(path: path, tags: tags)
        track.length = samples.map { format.duration(ofFrames: $0) }
        return track
    }

    /// The cover picture embedded in the file: the "front cover" APIC if there is one,
    /// else the first picture (lame writes type 0, "other"); `nil` when there is none.
    static func mp3CoverArt(path: FilePath) throws(DecodingError) -> CoverArt? {
        let handle = try Mpg123Handle.opened(path: path, flags: .picture)
        // ID3v2 sits before the first frame: parsing the first header has read it.
        _ = try handle.probedFormat(path: path)
        let pictures: [ID3Picture]
        do {
            pictures = try handle.tags().pictures
        } catch {
            throw DecodingError(path: path, decoding: error)
        }
        let chosen = pictures.first { $0.type == ID3Picture.frontCoverType } ?? pictures.first
        return chosen.map { CoverArt(mimeType: $0.mimeType, data: $0.data) }
    }

    /// Decodes until the first PCM arrives: proof that the file holds MPEG audio.
    ///
    /// libmpg123 opens empty and tag-only files without complaint and just decodes nothing,
    /// so "zero frames decoded" has to be caught here.
    private static func probe(_ handle: Mpg123Handle, path: FilePath) throws(DecodingError) -> PCMFormat {
        let format: PCMFormat
        do {
            format = try handle.probedFormat(path: path)
        } catch {
            if isEmptyFile(path) { throw DecodingError(path: path, reason: "empty file") }
            throw error
        }
        // One MPEG frame is at most 1152 samples per channel; gapless trimming can swallow
        // the first frame or two, so a few reads may be needed.
        let decoded: Bool
        do {
            decoded = try withUnsafeTemporaryAllocation(byteCount: 1152 * 2 * 2, alignment: 16) { buffer throws(Mpg123Error) -> Bool in
                for _ in 0..<64 {
                    let result = try handle.read(into: buffer)
                    if result.byteCount > 0 { return true }
                    if result.isEndOfStream { return false }
                }
                return false
            }
        } catch {
            throw DecodingError(path: path, opening: error)
        }
        guard decoded else {
            throw DecodingError(path: path, reason: isEmptyFile(path) ? "empty file" : "not an MP3 file: no audio frames")
        }
        return format
    }

    private static func isEmptyFile(_ path: FilePath) -> Bool {
        var info = stat()
        return path.withCString { stat($0, &info) } == 0 && info.st_size == 0
    }
}
