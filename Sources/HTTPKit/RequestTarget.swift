/// The request line's target (`/a%20b?x=1&y=%C3%A9`) split into a decoded path and query.
///
/// HTTPKit decodes it itself, from the raw target libmicrohttpd hands its URI logger, rather
/// than taking libmicrohttpd's decoded copy: that copy is a C string, so a `%00` would silently
/// cut it, and nothing checks its UTF-8. Here a bad escape, a NUL or bytes that are not UTF-8
/// make the target invalid (400), in the path and in the query alike.
struct RequestTarget: Equatable {
    let path: String
    let query: [String: String]

    init?(_ raw: some Collection<UInt8>) {
        var bytes = Array(raw)
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) { bytes.removeSubrange(hash...) }
        let question = bytes.firstIndex(of: UInt8(ascii: "?"))
        let rawPath = bytes[..<(question ?? bytes.endIndex)]
        guard rawPath.first == UInt8(ascii: "/"), let path = Self.decode(rawPath, plusIsSpace: false) else { return nil }
        var query: [String: String] = [:]
        if let question {
            let rawQuery = bytes[(question + 1)...]
            for pair in rawQuery.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
                let equals = pair.firstIndex(of: UInt8(ascii: "="))
                guard let name = Self.decode(pair[..<(equals ?? pair.endIndex)], plusIsSpace: true),
                      let value = Self.decode(equals.map { pair[($0 + 1)...] } ?? [], plusIsSpace: true)
                else { return nil }
                if query[name] == nil { query[name] = value }
            }
        }
        self.path = path
        self.query = query
    }

    /// Percent-decodes `bytes`; nil for a bad escape, a NUL, or a result that is not UTF-8.
    static func decode(_ bytes: some Collection<UInt8>, plusIsSpace: Bool) -> String? {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            index = bytes.index(after: index)
            switch byte {
            case UInt8(ascii: "%"):
                guard index != bytes.endIndex, let high = hexValue(bytes[index]) else { return nil }
                index = bytes.index(after: index)
                guard index != bytes.endIndex, let low = hexValue(bytes[index]) else { return nil }
                index = bytes.index(after: index)
                decoded.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                decoded.append(UInt8(ascii: " "))
            default:
                decoded.append(byte)
            }
        }
        guard !decoded.contains(0) else { return nil }
        return String(validating: decoded, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
