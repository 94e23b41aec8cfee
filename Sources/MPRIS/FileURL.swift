/// `file://` URIs for local paths, percent-encoded as RFC 3986 asks (xesam:url is a URI).
enum FileURL {
    /// Keeps unreserved characters and "/"; encodes everything else, non-ASCII as UTF-8 bytes.
    static func uri(forPath path: String) -> String {
        var encoded = "file://"
        encoded.reserveCapacity(path.utf8.count + 7)
        for byte in path.utf8 {
            if isUnreserved(byte) || byte == UInt8(ascii: "/") {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%"
                encoded += hexDigit(byte >> 4)
                encoded += hexDigit(byte & 0x0F)
            }
        }
        return encoded
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> String {
        String(UnicodeScalar(nibble < 10 ? nibble + 48 : nibble + 55))
    }
}
