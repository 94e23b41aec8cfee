/// Why a front-end's request failed, in words any front-end can pass on (MPRIS as a D-Bus
/// error, MPD as an ACK). The message may quote what the client sent: front-ends cap it.
public enum FrontEndError: Error, Sendable, Equatable {
    /// The request itself is wrong: a bad URI, a name that is not allowed.
    case invalidArgument(String)
    /// The thing asked for does not exist (no such playlist).
    case notFound(String)
    /// The request was fine but could not be carried out (a file system error).
    case failed(String)

    public var message: String {
        switch self {
        case .invalidArgument(let text), .notFound(let text), .failed(let text): return text
        }
    }
}
