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
/// case-insensitive. Resolving the entries is left to `PlaylistFolder`.
enum PLSPlaylist {
    static let fileExtension = "pls"

    /// The `FileN=` values in order of N (a repeated N keeps file order), trimmed.
    static func entries(in bytes: [UInt8]) -> [String] {
        var numbered: [(number: Int, order: Int, value: String)] = []
        for line in text(of: bytes).split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = trimmed(line[..<equals]).lowercased()
            guard key.hasPrefix("file"), let number = Int(key.dropFirst(4)) else { continue }
            let value = trimmed(line[line.index(after: equals)...])
            if !value.isEmpty { numbered.append((number, numbered.count, String(value))) }
        }
        numbered.sort { ($0.number, $0.order) < ($1.number, $1.order) }
        return numbered.map(\.value)
    }

    /// UTF-8 (a byte-order mark is skipped); bytes that are not UTF-8 are read as Latin-1,
    /// as old players wrote them.
    static func text(of bytes: [UInt8]) -> String {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
        if let text = String(validating: body, as: UTF8.self) { return text }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: body.map { Unicode.Scalar($0) })
        return String(scalars)
    }

    private static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }
}
