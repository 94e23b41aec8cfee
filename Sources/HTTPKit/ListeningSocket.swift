import Glibc

/// The server's listening socket, opened by HTTPKit rather than by libmicrohttpd: so that a
/// port already taken is told apart (EADDRINUSE from bind itself, where libmicrohttpd would
/// only return NULL and log), and the socket is close-on-exec (the daemon starts helpers).
/// libmicrohttpd adopts it and closes it when the daemon stops.
struct ListeningSocket {
    let descriptor: Int32
    let port: Int

    /// Binds and listens on `address` (a literal or `any`) and `port` (0: the system picks).
    static func open(address: String, port: Int, backlog: Int32) throws(HTTPServerError) -> ListeningSocket {
        guard (0...65_535).contains(port) else { throw .invalidAddress("\(address) port \(port)") }
        if address == "any" {
            // One IPv6 socket taking IPv4 too; an IPv4 socket where IPv6 is switched off.
            do throws(HTTPServerError) {
                return try open(family: AF_INET6, literal: "::", address: address, port: port, backlog: backlog)
            } catch {
                guard case .cannotListen(_, _, EAFNOSUPPORT) = error else { throw error }
                return try open(family: AF_INET, literal: "0.0.0.0", address: address, port: port, backlog: backlog)
            }
        }
        let unbracketed = address.hasPrefix("[") && address.hasSuffix("]") ? String(address.dropFirst().dropLast()) : address
        let family = unbracketed.contains(":") ? AF_INET6 : AF_INET
        return try open(family: family, literal: unbracketed, address: address, port: port, backlog: backlog)
    }

    private static func open(family: Int32, literal: String, address: String, port: Int,
                             backlog: Int32) throws(HTTPServerError) -> ListeningSocket {
        var storage = sockaddr_storage()
        let length: socklen_t
        switch family {
        case AF_INET:
            var ipv4 = sockaddr_in()
            ipv4.sin_family = sa_family_t(AF_INET)
            ipv4.sin_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET, literal, &ipv4.sin_addr) == 1 else { throw .invalidAddress(address) }
            withUnsafeMutableBytes(of: &storage) { target in withUnsafeBytes(of: ipv4) { target.copyMemory(from: $0) } }
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
        default:
            var ipv6 = sockaddr_in6()
            ipv6.sin6_family = sa_family_t(AF_INET6)
            ipv6.sin6_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET6, literal, &ipv6.sin6_addr) == 1 else { throw .invalidAddress(address) }
            withUnsafeMutableBytes(of: &storage) { target in withUnsafeBytes(of: ipv6) { target.copyMemory(from: $0) } }
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        }

        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { throw .cannotListen(address: address, port: port, errno: errno) }
        var yes: Int32 = 1
        var no: Int32 = 0
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        if family == AF_INET6 && literal == "::" {
            setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &no, socklen_t(MemoryLayout<Int32>.size))
        }
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0, listen(descriptor, backlog) == 0 else {
            let failure = errno
            close(descriptor)
            if failure == EADDRINUSE { throw .addressInUse(address: address, port: port) }
            throw .cannotListen(address: address, port: port, errno: failure)
        }
        return ListeningSocket(descriptor: descriptor, port: boundPort(of: descriptor) ?? port)
    }

    private static func boundPort(of descriptor: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { return nil }
        return withUnsafeBytes(of: storage) { raw in
            switch Int32(storage.ss_family) {
            case AF_INET: Int(UInt16(bigEndian: raw.loadUnaligned(as: sockaddr_in.self).sin_port))
            case AF_INET6: Int(UInt16(bigEndian: raw.loadUnaligned(as: sockaddr_in6.self).sin6_port))
            default: nil
            }
        }
    }
}
