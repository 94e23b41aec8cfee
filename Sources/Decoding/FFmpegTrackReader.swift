import FFmpegClient
import FFmpegWire
import PlayerCore

/// Tags, length, ReplayGain and cover of an M4A/MP4 or ADTS file, read by the FFmpeg helper
/// from the file's header only (`ProbeHelper`): the `moov` atom wherever it sits, never the
/// audio. The daemon opens the file and passes the descriptor.
enum FFmpegTrackReader {
    static func read(path: FilePath, kind: AudioFileKind) throws(DecodingError) -> Track {
        MP4TagMapping.track(path: path, facts: try facts(path: path, kind: kind))
    }

    /// What the helper read from the header, as it said it (with the bytes it read).
    static func facts(path: FilePath, kind: AudioFileKind) throws(DecodingError) -> TrackFacts {
        let file = try HelperFile(path: path)
        do {
            return try ProbeHelper.shared.facts(descriptor: file.descriptor, formatName: kind.ffmpegFormatName)
        } catch {
            throw DecodingError(path: path, helper: error)
        }
    }

    static func coverArt(path: FilePath, kind: AudioFileKind) throws(DecodingError) -> CoverArt? {
        let file = try HelperFile(path: path)
        do {
            return try ProbeHelper.shared.cover(descriptor: file.descriptor, formatName: kind.ffmpegFormatName)
                .map { CoverArt(mimeType: $0.mimeType, data: $0.data) }
        } catch {
            throw DecodingError(path: path, helper: error)
        }
    }

    /// The exact length of a file whose header only estimated it (raw ADTS): its samples,
    /// counted by decoding it through a helper of its own.
    static func measureLength(path: FilePath, kind: AudioFileKind) throws(DecodingError) -> Microseconds? {
        let decoder = try FFmpegDecoder(path: path, kind: kind)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 128 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        var frames: Int64 = 0
        while true {
            let count = try decoder.read(into: buffer)
            if count == 0 { break }
            frames += Int64(count / decoder.format.bytesPerFrame)
        }
        return frames > 0 ? decoder.format.duration(ofFrames: frames) : nil
    }
}
