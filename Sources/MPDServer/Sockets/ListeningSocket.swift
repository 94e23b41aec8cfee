import CSockets
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One listening socket (a Unix socket or TCP), non-blocking, closed when released.
///
/// Glibc's socket calls behind a small type: each call's result checked next to it and turned
/// into a `SocketError` naming the call. Accepted connections come out as `ConnectedSocket`s.
final class ListeningSocket {
    let descriptor: Int32
    /// Where it listens, for the log ("127.0.0.1:6600", "/run/user/1000/aubade/mpd.socket").
    let address: String
    /// Clients of a Unix socket are on this machine (mpd's "local" clients: absolute paths).
    let isLocal: Bool
    /// The socket file to remove when done (Unix sockets), and which file it is: removed only
    /// while it is still ours (another server may have taken the path since).
    private let path: String?
    private let file: FileIdentity?

    private init(descriptor: Int32, address: String, isLocal: Bool, path: String?) {
        self.descriptor = descriptor
        self.address = address
        self.isLocal = isLocal
        self.path = path
        file = path.flatMap(FileIdentity.init(path:))
    }

    deinit {
        close(descriptor)
        if let path, let file, FileIdentity(path: path) == file { unlink(path) }
    }

    /// A Unix socket at `path`, readable and writable by its owner only (mode 0600: the folder
    /// is $XDG_RUNTIME_DIR/aubade, the user's own). A stale socket file (no one accepts on it)
    /// is replaced; one a running server accepts on is taken (EADDRINUSE), as a TCP port would
    /// be: a second `aubade serve` must not steal the first one's clients. Anything else at the
    /// path is left alone and reported.
    static func unix(path: String) throws(SocketError) -> ListeningSocket {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else { throw SocketError(call: "bind", path, "path longer than \(capacity - 1) bytes") }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: path.utf8)
            buffer[path.utf8.count] = 0
        }
        var info = stat()
        if lstat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFSOCK else {
                throw SocketError(call: "bind", path, "something else than a socket is there")
            }
            if acceptsConnections(&address) { throw SocketError(call: "bind", path, code: EADDRINUSE) }
            unlink(path)
        }
        let descriptor = try open(family: AF_UNIX, path)
        let previous = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        umask(previous)
        guard bound == 0 else {
            let code = errno
            close(descriptor)
            throw SocketError(call: "bind", path, code: code)
        }
        return try listening(descriptor, address: path, isLocal: true, path: path)
    }

    /// TCP on `host` (an IPv4 or IPv6 address; "any" for every address of the machine) and `port`.
    static func tcp(host: String, port: UInt16) throws(SocketError) -> ListeningSocket {
        let shown = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        if host == "any" {
            // IPv6 with IPV6_V6ONLY off takes IPv4 too; a machine without IPv6 gets IPv4 alone.
            if let dual = try? tcp(family: AF_INET6, host: "::", port: port, shown: "any:\(port)", dualStack: true) { return dual }
            return try tcp(family: AF_INET, host: "0.0.0.0", port: port, shown: "any:\(port)", dualStack: false)
        }
        let family = host.contains(":") ? AF_INET6 : AF_INET
        return try tcp(family: family, host: host, port: port, shown: shown, dualStack: false)
    }

    private static func tcp(family: Int32, host: String, port: UInt16, shown: String, dualStack: Bool) throws(SocketError) -> ListeningSocket {
        let descriptor = try open(family: family, shown)
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let bound: Int32
        if family == AF_INET6 {
            var off: Int32 = dualStack ? 0 : 1
            setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &off, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else {
                close(descriptor)
                throw SocketError(call: "inet_pton", shown, "not an IPv6 address")
            }
            bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
                close(descriptor)
                throw SocketError(call: "inet_pton", shown, "not an IPv4 address")
            }
            bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard bound == 0 else {
            let code = errno
            close(descriptor)
            throw SocketError(call: "bind", shown, code: code)
        }
        return try listening(descriptor, address: shown, isLocal: false, path: nil)
    }

    /// Whether a server listens on the Unix socket at `address` (a blocking connect: a live
    /// listener accepts at once into its backlog, a stale file refuses).
    private static func acceptsConnections(_ address: inout sockaddr_un) -> Bool {
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { close(probe) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0
    }

    private static func open(family: Int32, _ shown: String) throws(SocketError) -> Int32 {
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { throw SocketError(call: "socket", shown, code: errno) }
        return descriptor
    }

    private static func listening(_ descriptor: Int32, address: String, isLocal: Bool, path: String?) throws(SocketError) -> ListeningSocket {
        guard listen(descriptor, 64) == 0 else {
            let code = errno
            close(descriptor)
            throw SocketError(call: "listen", address, code: code)
        }
        return ListeningSocket(descriptor: descriptor, address: address, isLocal: isLocal, path: path)
    }

    /// The next waiting connection, non-blocking; nil when none is waiting (or it went away).
    /// Throws when there is no descriptor (or memory) left to take it: it stays in the queue,
    /// and the socket stays readable, so the caller must wait before trying again.
    func accept() throws(SocketError) -> ConnectedSocket? {
        while true {
            let client = aubade_accept4(descriptor, Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue))
            if client >= 0 {
                if !isLocal {
                    // Answers are whole when written: Nagle would only hold the end of a long one
                    // back until the client's delayed ACK (40 ms).
                    var on: Int32 = 1
                    setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
                }
                return ConnectedSocket(descriptor: client)
            }
            let code = errno
            switch code {
            case EINTR: continue
            case EMFILE, ENFILE, ENOBUFS, ENOMEM: throw SocketError(call: "accept4", address, code: code)
            default: return nil  // EAGAIN: none waiting; ECONNABORTED: it went away
            }
        }
    }
}

/// Which file a path names (device and inode), to tell whether it is still the one we made.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    init?(path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

/// Why a socket could not be made: the call, what it was for, and the system's reason.
struct SocketError: Error, CustomStringConvertible {
    var call: String
    var address: String
    var reason: String
    /// The errno, when the system gave one (EADDRINUSE: a port already taken).
    var code: Int32?

    init(call: String, _ address: String, _ reason: String) {
        self.call = call
        self.address = address
        self.reason = reason
    }

    init(call: String, _ address: String, code: Int32) {
        self.call = call
        self.address = address
        self.reason = String(cString: strerror(code))
        self.code = code
    }

    var description: String { "\(address): \(call): \(reason)" }
}
