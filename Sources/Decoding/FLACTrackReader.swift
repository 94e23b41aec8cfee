import PlayerCore

/// Tags, exact length, ReplayGain and cover of a FLAC file. (Skeleton: filled in by the FLAC adapter.)
enum FLACTrackReader {
    static func read(path: FilePath) throws(DecodingError) -> Track {
        throw DecodingError(path: path, reason: "FLAC is not supported yet")
    }

    static func coverArt(path: FilePath) throws(DecodingError) -> CoverArt? {
        throw DecodingError(path: path, reason: "FLAC is not supported yet")
    }
}
