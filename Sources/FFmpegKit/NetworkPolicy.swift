/// Decides what a `MediaInput` opened from a URL may fetch, and how: asked before the URL
/// itself and before every playlist and segment the demuxer opens after it (FFmpeg's
/// `io_open`), and polled while FFmpeg waits (its interrupt callback).
///
/// The helper's rules live in its own subclass; this base allows everything.
open class NetworkPolicy {
    public init() {}

    /// The options for opening `url` (protocol options such as `ca_file`), or nil to refuse it.
    open func options(for url: String) -> [(String, String)]? { [] }

    /// Why the last refusal was made, for the error.
    open var lastRefusal: String { "" }

    /// True stops whatever FFmpeg is waiting for (it then fails with "interrupted").
    open func shouldInterrupt() -> Bool { false }

    /// Whether the ID3 tag in front of `url`'s bytes is wanted (`leadingTag`): an HLS packed-audio
    /// segment's, whose tags FFmpeg 5.1 reports for the first segment only.
    open func wantsLeadingTag(of url: String) -> Bool { false }

    /// The ID3 tag (header included, at most `leadingTagLimit` bytes) in front of `url`'s bytes,
    /// called as the demuxer reads past it.
    open func leadingTag(_ tag: [UInt8], url: String) {}

    /// A larger leading tag is not kept (nor looked at).
    public static let leadingTagLimit = 64 * 1024
}
