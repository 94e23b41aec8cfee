import OpusKit
import PlayerCore

/// Tags, exact length, ReplayGain and cover of an Opus file.
///
/// Reads the headers and the end of the file (opusfile finds the last granule position with a
/// seek), never the audio in between: a few tens of KiB for an ordinary file.
enum OpusTrackReader {
    /// The track: comments of the first link through `VorbisCommentMapping` (several ARTIST →
    /// several artists), the exact length at 48 kHz after pre-skip and end trimming.
    ///
    /// ReplayGain: REPLAYGAIN_* comments when there are any, else Opus's own R128_TRACK_GAIN /
    /// R128_ALBUM_GAIN (RFC 7845). Those are relative to the output of the header's output
    /// gain, which opusfile applies itself, so they need no correction for it.
    ///
    /// Throws "not an Opus file: …" for bytes opusfile refuses, "no audio in it" for a file
    /// with headers and no samples.
    static func read(path: FilePath) throws(DecodingError) -> Track {
        let file = try OggOpusFile.opened(path: path)
        let links = try OpusDecoder.links(of: file, path: path)
        guard links.totalFrames > 0 else { throw DecodingError(path: path, reason: "no audio in it") }
        let comments = OggComments.pairs { file.forEachComment(link: 0, $0) }
        var track = VorbisCommentMapping.track(path: path, comments: comments)
        track.length = links.duration
        // Opus stores no bit depth (float, as Vorbis) and decodes at 48 kHz whatever rate the
        // encoder was fed.
        track.audioFormat = links.links.first.map {
            AudioFormatFacts(sampleRate: OpusStreamInfo.sampleRate, bitsPerSample: nil, channels: $0.format.channels)
        }
        if track.replayGain == nil {
            let gains = R128Gain.replayGain(comments: comments)
            track.replayGain = gains.isEmpty ? nil : gains
        }
        return track
    }

    /// The METADATA_BLOCK_PICTURE of the first link: the front cover, else the first picture.
    static func coverArt(path: FilePath) throws(DecodingError) -> CoverArt? {
        let file = try OggOpusFile.opened(path: path)
        return OggComments.cover { file.forEachComment(link: 0, $0) }
    }
}
