import Decoding
import PlayerCore

// The tests name their files as text; the API takes bytes (`FilePath`).

extension TrackReader {
    static func read(path: String) throws(DecodingError) -> Track {
        try read(path: FilePath(path)!)
    }

    static func coverArt(path: String) throws(DecodingError) -> CoverArt? {
        try coverArt(path: FilePath(path)!)
    }
}

extension MP3Decoder {
    convenience init(path: String) throws(DecodingError) {
        try self.init(path: FilePath(path)!)
    }
}
