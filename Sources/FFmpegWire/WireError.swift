/// What went wrong on the helper's socket.
public enum WireError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The peer closed the socket (the helper exited or crashed; the daemon let go).
    case closed
    /// No answer within the time allowed (a hung or stopped helper).
    case timedOut
    /// A frame that breaks the protocol: a wrong length, kind or payload.
    case malformed(String)
    /// A system call failed: its name and errno.
    case system(String, Int32)

    public var description: String {
        switch self {
        case .closed: "the connection closed"
        case .timedOut: "no answer in time"
        case .malformed(let why): "a malformed message (\(why))"
        case .system(let function, let code): "\(function) failed (errno \(code))"
        }
    }
}
