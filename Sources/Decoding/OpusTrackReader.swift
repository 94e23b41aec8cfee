import PlayerCore

/// Tags, exact length, ReplayGain and cover of a Opus file. (Skeleton: filled in by the Opus adapter.)
enum OpusTrackReader {
    static func read(path: FilePath) throws(DecodingError) -> Track {
        throw DecodingError(path: path, reason: "Opus is not supported yet")
    }

    static func coverArt(path: FilePath) throws(DecodingError) -> CoverArt? {
        throw DecodingError(path: path, reason: "Opus is not supported yet")
    }
}
