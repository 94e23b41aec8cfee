/// Reading PLS playlists (the Winamp/Shoutcast INI format):
/// ```
/// [playlist]
/// File1=relative/or/absolute.mp3
/// Title1=…
/// Length1=…
/// NumberOfEntries=1
/// Version=2
/// ```
/// Only the `FileN=` entries matter, in order of N (files list them in any order); keys are
/// case-insensitive. Resolving the entries is left to `PlaylistFolder` (through Library's
/// `QueueLoader`, with the same rules as M3U lines).
///
/// Values are bytes, as they are in the file: UTF-8 or Latin-1 text, naming files whose names
/// may be either.
import Library

enum PLSPlaylist {
    static let fileExtension = "pls"

    /// The `FileN=` values in order of N (a repeated N keeps file order), trimmed of ASCII
    /// whitespace; empty values left out. Binary data is refused (see Library's `PlaylistText`).
    static func entries(in bytes: [UInt8]) -> Result<[[UInt8]], PlaylistText.NotText> {
        PlaylistText.body(of: bytes).map(entries(inText:))
    }

    private static func entries(inText body: ArraySlice<UInt8>) -> [[UInt8]] {
        var numbered: [(number: Int, order: Int, value: [UInt8])] = []
        for line in body.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }) {
            guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let key = String(decoding: trimmed(line[..<equals]), as: UTF8.self).lowercased()
            // The number must be plain digits; Int() would also take "+1" or "-1".
            let digits = key.dropFirst(4)
            guard key.hasPrefix("file"), !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let number = Int(digits) else { continue }
            let value = trimmed(line[line.index(after: equals)...])
            if !value.isEmpty { numbered.append((number, numbered.count, Array(value))) }
        }
        numbered.sort { ($0.number, $0.order) < ($1.number, $1.order) }
        return numbered.map(\.value)
    }

    private static func trimmed(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        guard let first = text.firstIndex(where: { !isSpace($0) }),
              let last = text.lastIndex(where: { !isSpace($0) }) else { return [] }
        return text[first...last]
    }
}
