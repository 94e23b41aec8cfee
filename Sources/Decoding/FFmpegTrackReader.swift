import FFmpegClient
import FFmpegWire
import PlayerCore

/// Tags, length, ReplayGain and cover of an M4A/MP4 or ADTS file, read by the FFmpeg helper
/// from the file's header only (`ProbeHelper`): the `moov` atom wherever it sits, never the
/// audio. The daemon opens the file and passes the descriptor.
enum FFmpegTrackReader {
    static func read(path: FilePath, kind: AudioFileKind) throws(DecodingError) -> Track {
        let file = try HelperFile(path: path)
        let facts: TrackFacts
        do {
            facts = try ProbeHelper.shared.facts(descriptor: file.descriptor, formatName: kind.ffmpegFormatName)
        } catch {
            throw DecodingError(path: path, helper: error)
        }
        return MP4TagMapping.track(path: path, facts: facts)
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
}
