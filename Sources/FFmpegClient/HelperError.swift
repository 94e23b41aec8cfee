/// Why the FFmpeg helper could not do what was asked, in words a user can act on.
public enum HelperError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `aubade-ffmpeg` is not where it should be.
    case notInstalled(String)
    /// It could not be started (a fork or exec failure).
    case cannotStart(String)
    /// It died: a crash (signal), or an exit (the address-space limit hit inside FFmpeg ends
    /// in an abort too).
    case died(String)
    /// It did not answer in time, or was stopped: it has been killed.
    case hung(String)
    /// It broke the protocol: killed.
    case broken(String)
    /// It answered that the input cannot be played (FFmpeg's words inside).
    case refused(String)
    /// An HLS station's connection failed or stalled: reconnecting may help.
    case dropped(String)
    /// The item was dropped while the helper worked for it: killed.
    case cancelled

    public var description: String {
        switch self {
        case .notInstalled(let why): "the FFmpeg helper is not installed (\(why))"
        case .cannotStart(let why): "the FFmpeg helper could not start (\(why))"
        case .died(let how): "the FFmpeg helper \(how)"
        case .hung(let how): "the FFmpeg helper \(how); stopped it"
        case .broken(let why): "the FFmpeg helper broke the protocol (\(why)); stopped it"
        case .refused(let why): why
        case .dropped(let why): why
        case .cancelled: "cancelled"
        }
    }

    /// The helper itself failed (not the input): the item is skipped and the log says so.
    public var isHelperFault: Bool {
        switch self {
        case .died, .hung, .broken, .cannotStart, .notInstalled: true
        case .refused, .dropped, .cancelled: false
        }
    }
}
