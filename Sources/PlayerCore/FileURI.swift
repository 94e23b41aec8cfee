/// Converting between local paths and `file://` URIs (RFC 8089 / RFC 3986), as MPRIS uses
/// them for `OpenUri` and `xesam:url`.
///
/// A URI's percent escapes stand for the path's BYTES, whatever they are: `caf%E9.mp3` is the
/// Latin-1 name `caf\xE9.mp3`, `caf%C3%A9.mp3` the UTF-8 one. Both directions work on bytes,
/// so every path round-trips exactly (`FilePath`), UTF-8 or not.
public enum FileURI {
    /// The local path of a `file:` URI, percent-decoded to bytes; `nil` for other schemes,
    /// another host than "localhost", bad escapes, or an encoded NUL.
    ///
    /// Accepts `file:///a/b`, `file://localhost/a/b` and `file:/a/b`; a query or fragment is
    /// ignored (a "#" or "?" that belongs to the file name must be encoded as %23/%3F).
    public static func path(fromFileURI uri: String) -> FilePath? {
        path(fromFileURIBytes: uri.utf8)
    }

    /// The same for a URI given as bytes (a playlist line, which may hold raw non-ASCII
    /// bytes where a strict URI would have escapes: they are taken as they are).
    public static func path(fromFileURIBytes uri: some Collection<UInt8>) -> FilePath? {
        let uri = Array(uri)
        guard uri.count > 5, uri[..<5].map(lowercasedASCII).elementsEqual("file:".utf8) else { return nil }
        var rest = uri[5...]
        if rest.starts(with: [slash, slash]) {
            rest = rest.dropFirst(2)
            let hostEnd = rest.firstIndex(of: slash) ?? rest.endIndex
            let host = rest[..<hostEnd].map(lowercasedASCII)
            guard host.isEmpty || host.elementsEqual("localhost".utf8) else { return nil }
            rest = rest[hostEnd...]
        }
        if let end = rest.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            rest = rest[..<end]
        }
        guard rest.first == slash, let bytes = percentDecoded(rest) else { return nil }
        return FilePath(bytes: bytes)
    }

    /// The `file://` URI of an absolute `path`: every byte but the unreserved characters
    /// (letters, digits, "-", ".", "_", "~") and "/" is percent-encoded — non-ASCII UTF-8 as
    /// its bytes, a Latin-1 0xE9 as `%E9`.
    public static func uri(for path: FilePath) -> String {
        uri(forBytes: path.bytes)
    }

    /// `uri(for:)` of a path known as text (its UTF-8 bytes).
    public static func uri(forPath path: String) -> String {
        uri(forBytes: Array(path.utf8))
    }

    private static func uri(forBytes bytes: [UInt8]) -> String {
        var result = "file://"
        result.reserveCapacity(bytes.count + 7)
        for byte in bytes {
            if isUnreserved(byte) || byte == slash {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%"
                result.unicodeScalars.append(hexDigit(byte >> 4))
                result.unicodeScalars.append(hexDigit(byte & 0xf))
            }
        }
        return result
    }

    private static let slash = UInt8(ascii: "/")

    private static func lowercasedASCII(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
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

    /// The bytes with every `%XX` replaced by the byte it stands for; `nil` for a broken
    /// escape or a NUL (which would cut the path short in every C call that receives it).
    private static func percentDecoded(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var iterator = text.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue),
                      let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        guard !bytes.contains(0) else { return nil }
        return bytes
    }
}
