/// Why `HTTPServer.start()` failed. `addressInUse` is its own case: another program (or another
/// Aubade) on the port is an expected situation the caller reports in one line and moves on.
public enum HTTPServerError: Error, Equatable, CustomStringConvertible {
    /// Something else already listens on this address and port.
    case addressInUse(address: String, port: Int)
    /// Not an IPv4 or IPv6 literal, nor `any`; or a port outside 0…65535.
    case invalidAddress(String)
    /// The socket could not be opened, bound or listened on for another reason (`errno`).
    case cannotListen(address: String, port: Int, errno: Int32)
    /// libmicrohttpd refused to start (out of memory or threads).
    case cannotStart
    /// `start()` was called on a running server.
    case alreadyStarted

    public var description: String {
        switch self {
        case let .addressInUse(address, port): "\(address) port \(port) is already in use"
        case let .invalidAddress(address): "not an address to listen on: \(address)"
        case let .cannotListen(address, port, errno): "cannot listen on \(address) port \(port) (errno \(errno))"
        case .cannotStart: "libmicrohttpd could not start"
        case .alreadyStarted: "the server is already running"
        }
    }
}
