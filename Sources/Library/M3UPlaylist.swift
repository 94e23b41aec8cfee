import PlayerCore

/// Reading M3U and M3U8 playlists: one entry per line, `#` lines are comments (#EXTM3U,
/// #EXTINF…), blank lines ignored; entries are paths (absolute, or relative to the
/// playlist's folder) or `file://` URIs (see `PlaylistEntry`).
///
/// Lines are bytes: an M3U8 is UTF-8, an old `.m3u` often Latin-1, and either may name files
/// whose names are not UTF-8. Each line is kept as it is and resolved by `PlaylistEntry`.
enum M3UPlaylist {
    static let extensions: Set<String> = ["m3u", "m3u8"]

    /// The entry lines of a text playlist (see `PlaylistText`): split at CR, LF or CRLF,
    /// trimmed of ASCII whitespace, blank lines and `#` lines left out.
    static func lines(in bytes: [UInt8]) -> Result<[ArraySlice<UInt8>], PlaylistText.NotText> {
        PlaylistText.body(of: bytes).map { body in
            body.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D })
                .map(trimmed)
                .filter { !$0.isEmpty && $0.first != UInt8(ascii: "#") }
        }
    }

    static func entries(in bytes: [UInt8], playlistDirectory: FilePath) -> Result<[PlaylistEntry], PlaylistText.NotText> {
        lines(in: bytes).map { $0.map { PlaylistEntry($0, in: playlistDirectory) } }
    }

    /// Without leading and trailing ASCII whitespace (space, tab, vertical tab, form feed).
    static func trimmed(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        guard let first = line.firstIndex(where: { !isSpace($0) }),
              let last = line.lastIndex(where: { !isSpace($0) }) else { return [] }
        return line[first...last]
    }
}
