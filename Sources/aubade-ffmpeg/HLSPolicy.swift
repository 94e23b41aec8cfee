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
}
