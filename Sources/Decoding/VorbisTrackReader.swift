import PlayerCore

/// Tags, exact length, ReplayGain and cover of a Vorbis file. (Skeleton: filled in by the Vorbis adapter.)
enum VorbisTrackReader {
    static func read(path: FilePath) throws(DecodingError) -> Track {
        throw DecodingError(path: path, reason: "Vorbis is not supported yet")
    }

    static func coverArt(path: FilePath) throws(DecodingError) -> CoverArt? {
        throw DecodingError(path: path, reason: "Vorbis is not supported yet")
    }
}
