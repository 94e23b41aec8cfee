/// The kind byte of a frame: what the daemon asks (below 64) and what the helper answers
/// (64 and up). docs/ffmpeg-helper.md describes each with its payload.
public enum WireKind: UInt8, Sendable, CaseIterable {
    // The daemon's requests.
    /// A file to decode; its descriptor travels with the frame (SCM_RIGHTS). Payload: the
    /// demuxer's name ("mov", "aac"; empty: FFmpeg guesses). Answer: `format` or `failure`.
    case openFile = 1
    /// Bytes of a station will follow in `input` frames. Payload: the demuxer's name.
    /// Answer: `needInput` (as often as needed), then `format` or `failure`.
    case openStream = 2
    /// A URL FFmpeg fetches itself (HLS). Payload: url, CA file (may be empty), user agent,
    /// u8 1 to start a live playlist at its newest segment (a reconnect).
    /// Answer: `format`, `failure` or `dropped`.
    case openURL = 3
    /// PCM wanted. Payload: u32 maximum bytes. Answer: any `title`s, then one of `pcm`, `end`,
    /// `failure`, `dropped`, `needInput`.
    case read = 4
    /// Bytes the helper asked for with `needInput`. Payload: the bytes (at least one).
    case input = 5
    /// No more bytes will come (the connection closed): the helper plays what it has.
    case inputEnd = 6
    /// Payload: i64 microseconds from the track's start. Answer: `seeked` or `failure`.
    case seek = 7
    /// Tags of a file; its descriptor travels with the frame. Payload: the demuxer's name.
    /// Answer: `tags` or `failure`.
    case probe = 8
    /// The cover of a file; its descriptor travels with the frame. Payload: the demuxer's name.
    /// Answer: `cover`, `noCover` or `failure`.
    case cover = 9
    /// A cover made small: a JPEG whose longest side is at most the size asked (never
    /// enlarged). The picture's file travels as the frame's descriptor. Payload: u8 source
    /// (0: the embedded picture of an audio file, 1: an image file itself), u32 maximum side.
    /// Answer: `coverArt` ("image/jpeg"), `noCover` or `failure`.
    case thumbnail = 10

    // The helper's answers.
    /// Payload: u32 rate, u32 channels, i64 exact frames (-1: unknown), codec name.
    case format = 64
    /// Payload: `TrackFacts` (see there).
    case tags = 65
    /// Payload: MIME type, the image's bytes.
    case coverArt = 66
    case noCover = 67
    /// Payload: interleaved signed 16-bit native-endian PCM, whole frames.
    case pcm = 68
    /// The track is over: every sample was sent.
    case end = 69
    /// Payload: what went wrong, in words (the request failed; the session is over).
    case failure = 70
    /// The helper needs bytes to go on. Payload: u64 PCM bytes decoded and not yet sent.
    case needInput = 71
    /// A new title, at a point of the PCM. Payload: i64 byte offset in the session's PCM,
    /// the whole announcement, artist (may be empty), title.
    case title = 72
    /// Payload: i64 microseconds where the next PCM starts.
    case seeked = 73
    /// The station's connection failed or stalled (HLS); reconnecting is the daemon's call.
    /// Payload: the reason in words.
    case dropped = 74
}
