import PlayerCore
import VorbisKit

/// Tags, exact length, ReplayGain and cover of an Ogg Vorbis file.
///
/// Reads the headers and the end of the file (vorbisfile finds the last granule position with
/// a seek), never the audio in between: a few tens of KiB for an ordinary file.
enum VorbisTrackReader {
    /// The track: Vorbis comments of the first link through `VorbisCommentMapping` (several
    /// ARTIST → several artists, REPLAYGAIN_* → `replayGain`), the exact length of all links,
    /// the first link's format.
    ///
    /// Throws "not an Ogg Vorbis file: …" for bytes vorbisfile refuses, "no audio in it" for
    /// a file with headers and no samples.
    static func read(path: FilePath) throws(DecodingError) -> Track {
        let file = try OggVorbisFile.opened(path: path)
        let links = try VorbisDecoder.links(of: file, path: path)
        guard links.totalFrames > 0 else { throw DecodingError(path: path, reason: "no audio in it") }
        var track = VorbisCommentMapping.track(path: path, comments: OggComments.pairs { file.forEachComment(link: 0, $0) })
        track.length = links.duration
        track.audioFormat = links.links.first.map(\.format).map(Self.audioFormat)
        return track
    }

    /// Vorbis stores no bit depth: its decoder computes floating-point samples (mpd's "f"),
    /// which playback asks vorbisfile to round to 16 bits. The rate and channels are the first
    /// link's (a chained file may change them later).
    static func audioFormat(_ format: PCMFormat) -> AudioFormatFacts {
        AudioFormatFacts(sampleRate: format.sampleRate, bitsPerSample: nil, channels: format.channels)
    }

    /// The METADATA_BLOCK_PICTURE of the first link: the front cover, else the first picture.
    static func coverArt(path: FilePath) throws(DecodingError) -> CoverArt? {
        let file = try OggVorbisFile.opened(path: path)
        return OggComments.cover { file.forEachComment(link: 0, $0) }
    }
}
