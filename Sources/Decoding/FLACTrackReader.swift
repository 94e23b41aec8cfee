import FLACKit
import PlayerCore

/// Tags, exact length, ReplayGain and cover of a FLAC file, from its metadata blocks only
/// (libFLAC's level-1 iterator): queueing a FLAC file reads its STREAMINFO and its
/// VORBIS_COMMENT block, never its audio and never its pictures.
enum FLACTrackReader {
    /// A VORBIS_COMMENT block longer than this is not read (its tags are ignored, the file
    /// still plays): real tags are a few KiB; this is a file trying to take our memory.
    static let commentBlockLimit = 1 << 20
    /// Metadata blocks looked at before giving up on finding the one wanted.
    static let blockLimit = 1_024
    /// PICTURE blocks read while looking for the front cover.
    static let pictureReadLimit = 8

    /// The track, with its exact length from STREAMINFO (`total_samples` at the file's rate)
    /// and its format (rate, bits, channels).
    ///
    /// Throws "not a FLAC file: …" without a valid STREAMINFO, "truncated or damaged
    /// metadata" when the blocks end early, "no audio in it" for a stream of zero samples.
    static func read(path: FilePath) throws(DecodingError) -> Track {
        let file = try open(path)
        let info = try streamInfo(of: file, path: path)
        var comments: [String]?
        // To the last block (headers only, bodies skipped unread): where the audio starts.
        try walk(file, path: path) { file throws(FLACError) in
            // One comment block is all FLAC allows; a second is ignored.
            if file.kind == .vorbisComment, comments == nil {
                comments = file.length <= commentBlockLimit ? try file.comments(limit: VorbisCommentMapping.commentLimit) : []
            }
            return true
        }
        guard file.isLast, file.endOffset < file.fileSize else {
            // Metadata and nothing after it (or more blocks than anyone writes).
            throw DecodingError(path: path, reason: file.isLast ? "no audio in it" : "too many metadata blocks")
        }
        if info.totalSamples == 0 {
            // The encoder did not know the length (a stream piped into flac): the file is
            // music only if a frame decodes.
            try checkHasAudio(path)
        }
        var track = VorbisCommentMapping.track(path: path, comments: (comments ?? []).compactMap(VorbisCommentMapping.split))
        let format = PCMFormat(sampleRate: info.sampleRate, channels: info.channels)
        track.length = info.totalSamples > 0 ? format.duration(ofFrames: Int64(clamping: info.totalSamples)) : nil
        // The stream's own bits (libFLAC decodes to them; 16 is only what playback converts to).
        track.audioFormat = AudioFormatFacts(sampleRate: info.sampleRate, bitsPerSample: info.bitsPerSample, channels: info.channels)
        return track
    }

    /// The front cover (a PICTURE block of type 3), else the first picture; failing PICTURE
    /// blocks, a METADATA_BLOCK_PICTURE comment chosen the same way. nil when there is none.
    static func coverArt(path: FilePath) throws(DecodingError) -> CoverArt? {
        let file = try open(path)
        _ = try streamInfo(of: file, path: path)
        var pictures: [(type: UInt32, picture: CoverArt)] = []
        var commentPictures: [String] = []
        var read = 0
        try walk(file, path: path) { file throws(FLACError) in
            switch file.kind {
            case .picture where file.length <= FLACPictureBlock.sizeLimit + (1 << 16) && read < pictureReadLimit:
                read += 1
                let picture = try file.picture()
                let mime = picture.mimeType.lowercased()
                if !picture.data.isEmpty, mime != "-->" {
                    // Keep the first and, once found, the front cover: at most two in memory.
                    let art = (type: picture.type, picture: CoverArt(mimeType: mime, data: picture.data))
                    if pictures.isEmpty || picture.type == FLACPictureBlock.frontCoverType { pictures.append(art) }
                    if picture.type == FLACPictureBlock.frontCoverType { return false }
                }
            case .vorbisComment:
                commentPictures = try file.comments(limit: VorbisCommentMapping.commentLimit).compactMap { comment in
                    guard let (key, value) = VorbisCommentMapping.split(comment),
                          key.uppercased() == "METADATA_BLOCK_PICTURE" else { return nil }
                    return value
                }
            default:
                break
            }
            return true
        }
        if let chosen = FLACPictureBlock.choose(pictures) { return chosen }
        let parsed = commentPictures.lazy.compactMap { Base64.decode($0) }.compactMap { FLACPictureBlock.parse($0) }
        return FLACPictureBlock.choose(Array(parsed.prefix(pictureReadLimit)))
    }

    private static func open(_ path: FilePath) throws(DecodingError) -> FLACMetadataFile {
        do {
            return try path.withCString { (cPath) throws(FLACError) in try FLACMetadataFile(path: cPath) }
        } catch {
            throw DecodingError(path: path, openingFLAC: error)
        }
    }

    /// The first block, which FLAC requires to be a valid STREAMINFO: the proof it is FLAC.
    private static func streamInfo(of file: FLACMetadataFile, path: FilePath) throws(DecodingError) -> FLACStreamInfo {
        guard file.kind == .streamInfo, let info = try? file.streamInfo(), info.isValid else {
            throw DecodingError(path: path, reason: "not a FLAC file: no valid STREAMINFO block")
        }
        return info
    }

    /// Calls `visit` on each block after STREAMINFO (at most `blockLimit`) until it returns false.
    private static func walk(_ file: FLACMetadataFile, path: FilePath,
                             _ visit: (FLACMetadataFile) throws(FLACError) -> Bool) throws(DecodingError) {
        do {
            for _ in 0..<blockLimit {
                guard try file.next(), try visit(file) else { return }
            }
        } catch {
            throw DecodingError(path: path, reason: "truncated or damaged metadata (\(error))")
        }
    }

    private static func checkHasAudio(_ path: FilePath) throws(DecodingError) {
        let decoder = try FLACDecoder(path: path)
        let bytes = try withUnsafeTemporaryAllocation(byteCount: 64, alignment: 16) { buffer throws(DecodingError) in
            try decoder.read(into: buffer)
        }
        guard bytes > 0 else { throw DecodingError(path: path, reason: "no audio in it") }
    }
}
