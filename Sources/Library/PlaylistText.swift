/// What a playlist file's bytes are, before it is split into lines: UTF-8 (a byte-order mark
/// skipped), UTF-16 with a byte-order mark (as Windows' Notepad saves "Unicode"; transcoded
/// to UTF-8), or an old 8-bit encoding (Latin-1…), kept as bytes — or not text at all.
///
/// Text never holds NUL or the other C0 control characters but tab, line feed, vertical tab,
/// form feed and carriage return (and a DOS end-of-file mark, ^Z, at the very end). A file
/// that does is binary data named like a playlist: it is refused as a whole, with one
/// problem, instead of being read as thousands of junk lines — any of which could name "/"
/// or "." and send the loader through the whole disk.
public enum PlaylistText {
    /// Why a file is not a text playlist, e.g. "not a text playlist (byte 0x00 at offset 17)".
    public struct NotText: Error, Sendable, Equatable {
        public var reason: String
    }

    public static func body(of bytes: [UInt8]) -> Result<ArraySlice<UInt8>, NotText> {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            return utf16(bytes[2...], bigEndian: bytes[0] == 0xFE)
        }
        var body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
        if body.last == 0x1A { body = body.dropLast() }
        if let offset = body.firstIndex(where: isControl) {
            let hex = String(body[offset], radix: 16, uppercase: true)
            return .failure(NotText(reason: "not a text playlist (byte 0x\(hex.count < 2 ? "0" : "")\(hex) at offset \(offset))"))
        }
        return .success(body)
    }

    private static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && !(0x09...0x0D).contains(byte)) || byte == 0x7F
    }

    private static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> Result<ArraySlice<UInt8>, NotText> {
        guard bytes.count % 2 == 0 else { return .failure(NotText(reason: "not a text playlist (odd length for UTF-16)")) }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let (first, second) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }
        guard let text = String(validating: units, as: UTF16.self) else {
            return .failure(NotText(reason: "not a text playlist (invalid UTF-16)"))
        }
        // The same rule for control characters, once transcoded.
        return body(of: Array(text.utf8))
    }
}
