import FFmpegKit
#if canImport(Glibc)
import Glibc
#endif

/// What an HLS station may fetch through FFmpeg: http(s) only, the daemon's CA file and
/// certificate checks on every playlist and segment (FFmpeg's nested requests do not inherit
/// them), time limits, and a bound on requests that deliver no audio (a playlist that names
/// itself would otherwise be fetched for ever).
final class HLSPolicy: NetworkPolicy {
    private let caFile: String?
    private let userAgent: String
    /// Requests since audio last came out.
    private var requestsWithoutAudio = 0
    private var refusal = ""
    /// Set by the session when it stops waiting (the daemon went away).
    var interrupted = false

    /// Requests allowed before any audio (master, media playlist, a few segments that fail).
    static let requestsWithoutAudioLimit = 48
    /// A request that takes this long to answer or deliver counts as failed (µs, FFmpeg's unit).
    static let readTimeout = "10000000"

    /// The HLS demuxer's own options: a live playlist that has not grown after this many
    /// reloads (half a target duration apart once it is at the edge: about three target
    /// durations) ends the input, which the helper reports as a dropped connection.
    /// No persistent connections: FFmpeg would send the next requests on them without asking
    /// `io_open` (this policy), and a playlist that names itself would be fetched for ever.
    static let formatOptions: [(String, String)] = [("m3u8_hold_counters", "6"), ("http_persistent", "0")]

    init(caFile: String?, userAgent: String) {
        self.caFile = caFile
        self.userAgent = userAgent
    }

    override var lastRefusal: String { refusal }

    func audioArrived() { requestsWithoutAudio = 0 }

    override func options(for url: String) -> [(String, String)]? {
        let lower = url.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            refusal = "only http(s) URLs are fetched"
            return nil
        }
        requestsWithoutAudio += 1
        guard requestsWithoutAudio <= Self.requestsWithoutAudioLimit else {
            refusal = "\(Self.requestsWithoutAudioLimit) requests without audio (a playlist that names itself?)"
            return nil
        }
        var options: [(String, String)] = [
            ("protocol_whitelist", "http,https,tls,tcp,crypto"),
            ("tls_verify", "1"),
            ("rw_timeout", Self.readTimeout),
            ("user_agent", userAgent),
        ]
        if let caFile { options.append(("ca_file", caFile)) }
        return options
    }

    override func shouldInterrupt() -> Bool { interrupted }

    // MARK: Packed audio's titles

    /// Every fetch but a playlist's: a packed-audio segment starts with an ID3 tag (its
    /// timestamp and, from stations that send titles, the title), which FFmpeg 5.1 reports for
    /// the first segment only. (A segment of another kind shows its first bytes and is let be.)
    override func wantsLeadingTag(of url: String) -> Bool {
        let path = url.split(separator: "?", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        return !path.hasSuffix(".m3u8") && !path.hasSuffix(".m3u")
    }

    override func leadingTag(_ tag: [UInt8], url: String) {
        let tags = TimedID3.tags(in: tag)
        guard !tags.isEmpty else { return }
        segmentTags.append(SegmentTag(seconds: TimedID3.transportStreamSeconds(in: tags), tags: tags))
        if segmentTags.count > TitleTracker.pendingLimit { segmentTags.removeFirst(segmentTags.count - TitleTracker.pendingLimit) }
    }

    /// The segments' leading tags since the last call, oldest first.
    func takeSegmentTags() -> [SegmentTag] {
        defer { segmentTags = [] }
        return segmentTags
    }
    private var segmentTags: [SegmentTag] = []
}

/// A packed-audio segment's leading ID3 tag: its tags, and where the segment starts on the
/// stream's clock (its `transportStreamTimestamp`), when it says.
struct SegmentTag {
    var seconds: Double?
    var tags: MetadataPairs
}
