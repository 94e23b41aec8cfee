/// Converting between local paths and `file://` URIs (RFC 8089 / RFC 3986), as MPRIS uses
/// them for `OpenUri` and `xesam:url`.
public enum FileURI {
    /// The local path of a `file:` URI, percent-decoded; `nil` for other schemes, another
    /// host than "localhost", bad escapes, or bytes that are not UTF-8.
    ///
    /// Accepts `file:///a/b`, `file://localhost/a/b` and `file:/a/b`; a query or fragment is
    /// ignored (a "#" or "?" that belongs to the file name must be encoded as %23/%3F).
    public static func path(fromFileURI uri: String) -> String? {
        guard uri.utf8.count > 5, uri.prefix(5).lowercased() == "file:" else { return nil }
        var rest = Substring(uri.dropFirst(5))
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            let host = rest[..<slash].lowercased()
            guard host.isEmpty || host == "localhost" else { return nil }
            rest = rest[slash...]
        }
        if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            rest = rest[..<end]
        }
        guard rest.hasPrefix("/"), let path = percentDecoded(rest) else { return nil }
        return path
    }

    /// The `file://` URI of an absolute `path`: every byte but the unreserved characters
    /// (letters, digits, "-", ".", "_", "~") and "/" is percent-encoded, non-ASCII as its
    /// UTF-8 bytes.
    public static func uri(forPath path: String) -> String {
        var result = "file://"
        result.reserveCapacity(path.utf8.count + 7)
        for byte in path.utf8 {
            if isUnreserved(byte) || byte == UInt8(ascii: "/") {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%"
                result.unicodeScalars.append(hexDigit(byte >> 4))
                result.unicodeScalars.append(hexDigit(byte & 0xf))
            }
        }
        return result
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func hexDigit(_ value: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue),
                      let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        // A NUL would cut the path short in every C call that later receives it.
        guard !bytes.contains(0) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }
}
