/// What a stream URL answered with, judged from the status and the Content-Type.
public enum StreamContent: Equatable, Sendable {
    /// MPEG audio (MP3): play it (libmpg123, in the daemon).
    case mpegAudio
    /// AAC/HE-AAC in ADTS frames, Ogg (Vorbis, Opus, FLAC) or native FLAC: played through the
    /// FFmpeg helper; the name is FFmpeg's demuxer ("aac", "ogg", "flac").
    case helperAudio(String)
    /// A playlist naming the real stream(s) (a station's .pls or .m3u): follow it.
    case playlist
    /// Anything else: not retried, the reason says what it was.
    case refused(String)

    public init(status: Int, contentType: String?, url: String) {
        guard (200...299).contains(status) else {
            self = .refused("the server answered HTTP \(status)")
            return
        }
        let type = (contentType ?? "").split(separator: ";", maxSplits: 1).first.map { String($0).trimmingASCIISpaces.lowercased() } ?? ""
        switch type {
        case "", "audio/mpeg", "audio/mp3", "audio/mpeg3", "audio/x-mpeg", "audio/x-mp3", "audio/mpg",
             "application/octet-stream", "binary/octet-stream":
            // Some servers name no type or a generic one; the decoder then checks the bytes.
            self = Self.looksLikePlaylist(url) ? .playlist : .mpegAudio
        case "audio/x-scpls", "application/pls+xml", "audio/scpls",
             "audio/x-mpegurl", "audio/mpegurl", "application/x-mpegurl", "application/vnd.apple.mpegurl":
            self = .playlist
        case "audio/aac", "audio/aacp", "audio/x-aac", "audio/x-aacp", "audio/mp4a-latm":
            self = .helperAudio("aac")
        case "audio/ogg", "application/ogg", "audio/opus", "audio/vorbis", "audio/x-ogg", "audio/ogg; codecs=opus":
            self = .helperAudio("ogg")
        case "audio/flac", "audio/x-flac":
            self = .helperAudio("flac")
        case "audio/mp4", "audio/x-m4a":
            // An M4A over HTTP: playable when its moov atom comes first (fed bytes cannot seek).
            self = .helperAudio("mov")
        case "video/mp2t":
            // MPEG-TS sent as one stream (not as HLS segments): FFmpeg's demuxer takes it.
            self = .helperAudio("mpegts")
        case "text/plain":
            // Old servers send playlists as plain text.
            self = Self.looksLikePlaylist(url) ? .playlist : .refused("not audio (\(type))")
        default:
            self = .refused("not audio (\(type))")
        }
    }

    private static func looksLikePlaylist(_ url: String) -> Bool {
        let path = url.split(separator: "?", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        return path.hasSuffix(".pls") || path.hasSuffix(".m3u") || path.hasSuffix(".m3u8")
    }
}
