import PlayerCore

/// Reading M3U and M3U8 playlists: one entry per line, `#` lines are comments (#EXTM3U,
/// #EXTINF…), blank lines ignored; entries are paths (absolute, or relative to the
/// playlist's folder) or `file://` URIs.
enum M3UPlaylist {
    enum Entry: Equatable {
        /// An absolute local path.
        case path(String)
        /// A line that names nothing we can play, and why.
        case unusable(String, reason: String)
    }

    static let extensions: Set<String> = ["m3u", "m3u8"]

    static func entries(in bytes: [UInt8], playlistDirectory: String) -> [Entry] {
        text(of: bytes)
            .split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
            .compactMap { line in entry(for: trimmed(line), in: playlistDirectory) }
    }

    /// UTF-8 (with or without a byte-order mark); a file that is not valid UTF-8 is an old
    /// Latin-1 .m3u, which every byte decodes as.
    static func text(of bytes: [UInt8]) -> String {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
        if let text = String(validating: body, as: UTF8.self) { return text }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: body.map { Unicode.Scalar($0) })
        return String(scalars)
    }

    private static func entry(for line: Substring, in directory: String) -> Entry? {
        if line.isEmpty || line.hasPrefix("#") { return nil }
        if let scheme = scheme(of: line) {
            guard scheme == "file" else {
                return .unusable(String(line), reason: "unsupported URI scheme \"\(scheme)\" (only local files play)")
            }
            guard let path = FileURI.path(fromFileURI: String(line)) else {
                return .unusable(String(line), reason: "malformed file URI")
            }
            return .path(FileSystem.absolute(path))
        }
        return .path(FileSystem.absolute(String(line), relativeTo: directory))
    }

    /// The lower-cased scheme when `text` starts like a URI ("scheme:" then "//" or "/").
    /// Requiring the slash keeps a relative file name such as "a:b.mp3" a path.
    static func scheme<S: StringProtocol>(of text: S) -> String? {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return nil }
        let name = text[..<colon]
        guard let first = name.first, first.isASCII, first.isLetter,
              name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
              text[text.index(after: colon)...].hasPrefix("/") else { return nil }
        return name.lowercased()
    }

    private static func trimmed(_ line: Substring) -> Substring {
        var line = line
        while let first = line.first, first.isWhitespace { line.removeFirst() }
        while let last = line.last, last.isWhitespace { line.removeLast() }
        return line
    }
}
