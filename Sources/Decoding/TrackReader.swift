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
        let kind = try AudioFileKind.sniff(path: path)
        switch kind {
        case .mp3: return try readMP3(path: path)
        case .flac: return try FLACTrackReader.read(path: path)
        case .vorbis: return try VorbisTrackReader.read(path: path)
        case .opus: return try OpusTrackReader.read(path: path)
        case .m4a, .aac: return try FFmpegTrackReader.read(path: path, kind: kind)
        }
    }

    /// The cover picture embedded in the file, whatever its format; nil when there is none.
    public static func coverArt(path: FilePath) throws(DecodingError) -> CoverArt? {
        let kind = try AudioFileKind.sniff(path: path)
        switch kind {
        case .mp3: return try mp3CoverArt(path: path)
        case .flac: return try FLACTrackReader.coverArt(path: path)
        case .vorbis: return try VorbisTrackReader.coverArt(path: path)
        case .opus: return try OpusTrackReader.coverArt(path: path)
        case .m4a, .aac: return try FFmpegTrackReader.coverArt(path: path, kind: kind)
        }
    }

    /// Opens the file, checks it really is MP3 audio (at least one frame decodes), reads its
    /// tags into a `Track`, its length, its ReplayGain (TXXX frames, else the LAME tag) and
    /// the format it decodes to.
    ///
    /// Empty files, tag-only files, random bytes, a WAV named .mp3, missing and unreadable
    /// files, FIFOs and device nodes all throw, with reasons such as "file not found",
    /// "permission denied", "empty file", "not a regular file", "not an MP3 file: no audio
    /// frames", "not an MP3 file (…)".
    ///
    /// Reads only the start of the file (ID3v2, the first frames) and its last 128 bytes
    /// (ID3v1): the length is exact when a Xing/Info or VBRI frame counts the frames, else an
    /// estimate from the size and bit rate (`lengthIsEstimate`; `measureLength` makes it exact).
    static func readMP3(path: FilePath) throws(DecodingError) -> Track {
        // The raw tag: for its UFID frame (the MusicBrainz recording id), which libmpg123 skips.
        let handle = try Mpg123Handle.opened(path: path, flags: .rawID3, randomAccess: true)
        let format = try probe(handle, path: path)
        let tags: ID3Tags
        do {
            tags = try handle.tags()
        } catch {
            throw DecodingError(path: path, decoding: error)
        }
        let head = try FileHead.read(path: path, count: MP3InfoHeader.searchLength, skippingID3v2: true)
        let info = MP3InfoHeader.parse(head.bytes)
        var track = TagMapping.track(path: path, tags: tags)
        // What the decoder hands on: libmpg123 set to signed 16-bit at the file's rate.
        track.audioFormat = AudioFormatFacts(sampleRate: format.sampleRate, bitsPerSample: PCMFormat.bytesPerSample * 8,
                                             channels: format.channels)
        let present = head.fileSize - head.offset
        var samples: Int64?
        var counted = false
        if let info, info.framesFit(in: present) {
            counted = true
            // libmpg123 counts the Xing frames itself (trimming with the LAME tag, exactly as
            // it will decode); it knows nothing of VBRI, whose count we use.
            samples = info.kind == .xing ? handle.sampleLength() ?? info.sampleCount : info.sampleCount
        } else if let info, info.frameCount != nil {
            // An information frame counting more frames than the file can hold: libmpg123
            // would believe it; the size and the first frame's bit rate give an estimate.
            let seconds: Double = Double(max(present, 0)) * 8 / Double(info.bitRate)
            samples = Int64(seconds * Double(info.sampleRate))
            track.lengthIsEstimate = true
        } else if let (_, frame) = MP3InfoHeader.firstFrame(in: head.bytes) {
            // No frame count: the audio's bytes at the first frame's bit rate (right for a
            // constant one, as mpd estimates). libmpg123's own estimate counts the ID3v2 tag's
            // bytes as audio: a 12 KB cover made a 20.4 s song 23.9 s.
            let seconds = Double(max(present, 0)) * 8 / Double(frame.bitRate)
            samples = Int64(seconds * Double(frame.sampleRate))
            track.lengthIsEstimate = true
        } else {
            samples = handle.sampleLength()
            track.lengthIsEstimate = samples != nil
        }
        // A file cut short (a broken download) holds fewer bytes than its header counted:
        // its share of the counted length is an estimate, measured when it plays.
        if counted, let bytes = info?.byteCount, present < bytes - MP3InfoHeader.truncationSlack, let whole = samples {
            samples = Int64(Double(whole) * Double(max(present, 0)) / Double(bytes))
            track.lengthIsEstimate = true
        }
        track.length = samples.map { format.duration(ofFrames: $0) }
        track.replayGain = TagMapping.replayGain(tags: tags, lame: info?.replayGain)
        return track
    }

    /// The exact length of an MP3 whose length was an estimate: one pass over every frame
    /// header (`mpg123_scan`, no decoding). Meant for the loading queue, on a handle of its own.
    public static func measureLength(path: FilePath) throws(DecodingError) -> Microseconds? {
        let kind = try AudioFileKind.sniff(path: path)
        // Raw ADTS (its length estimated from the size): counted by decoding it in the helper.
        if kind.usesFFmpegHelper { return try FFmpegTrackReader.measureLength(path: path, kind: kind) }
        let handle = try Mpg123Handle.opened(path: path)
        let format = try handle.probedFormat(path: path)
        do {
            try handle.scan()
        } catch {
            throw DecodingError(path: path, decoding: error)
        }
        return handle.sampleLength().map { format.duration(ofFrames: $0) }
    }

    /// The cover picture embedded in the file: the "front cover" APIC if there is one,
    /// else the first picture (lame writes type 0, "other"); `nil` when there is none.
    static func mp3CoverArt(path: FilePath) throws(DecodingError) -> CoverArt? {
        let handle = try Mpg123Handle.opened(path: path, flags: .picture, randomAccess: true)
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
