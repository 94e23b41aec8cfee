import Glibc

/// A connection's peer (`struct sockaddr`) as text, and whether it is this machine.
struct PeerAddress: Equatable {
    let text: String
    let isLoopback: Bool

    static let unknown = PeerAddress(text: "unknown", isLoopback: false)

    init(text: String, isLoopback: Bool) {
        self.text = text
        self.isLoopback = isLoopback
    }

    init(_ address: UnsafePointer<sockaddr>?) {
        guard let address else { self = .unknown; return }
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let ipv4 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self)
            self = Self.ipv4(ipv4.sin_addr)
        case AF_INET6:
            let ipv6 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self)
            let bytes = withUnsafeBytes(of: ipv6.sin6_addr) { Array($0) }
            // An IPv4 peer of a dual-stack socket arrives as ::ffff:a.b.c.d.
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
                var ipv4 = in_addr()
                withUnsafeMutableBytes(of: &ipv4) { $0.copyBytes(from: bytes[12..<16]) }
                self = Self.ipv4(ipv4)
            } else {
                let loopback = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
                self = PeerAddress(text: Self.text(family: AF_INET6, bytes: bytes), isLoopback: loopback)
            }
        default:
            self = .unknown
        }
    }

    private static func ipv4(_ address: in_addr) -> PeerAddress {
        let bytes = withUnsafeBytes(of: address) { Array($0) }
        return PeerAddress(text: text(family: AF_INET, bytes: bytes), isLoopback: bytes[0] == 127)
    }

    /// `bytes`: the address in network order (4 or 16 bytes).
    private static func text(family: Int32, bytes: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let written = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
        guard written != nil else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
