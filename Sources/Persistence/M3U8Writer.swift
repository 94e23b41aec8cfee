import PlayerCore

/// Writing the queue as an extended M3U playlist in UTF-8:
/// ```
/// #EXTM3U
/// #EXTINF:<seconds>,<artist> - <title>
/// /absolute/path.mp3
/// ```
/// Library's `M3UPlaylist` reads it back (it skips `#` lines and takes absolute paths).
///
/// A path that cannot be a plain UTF-8 line — not UTF-8 (a Latin-1 name), a line break in it,
/// a leading "#" or a trailing space — is written as its `file://` URI, whose escapes keep the exact bytes.
enum M3U8Writer {
    static func text(of tracks: [Track]) -> String {
        var text = "#EXTM3U\n"
        for track in tracks {
            // -1 is the format's "unknown length".
            let seconds = track.length.map { ($0 + 500_000) / 1_000_000 } ?? -1
            let artist = track.artists.joined(separator: ", ")
            let label = artist.isEmpty ? track.displayTitle : artist + " - " + track.displayTitle
            text += "#EXTINF:\(seconds),\(oneLine(label))\n"
            switch track.location {
            case .file(let path): text += line(for: path) + "\n"
            // The address as the user gave it: a saved playlist must still reach the station.
            case .stream(let url): text += url.text + "\n"
            }
        }
        return text
    }

    /// The path as it is, or its URI when it would not survive as a line of UTF-8 text.
    static func line(for path: FilePath) -> String {
        guard let text = String(validating: path.bytes, as: UTF8.self),
              !text.contains(where: \.isNewline), !text.hasPrefix("#"),
              // The reader trims spaces at the ends of a line.
              text.last?.isWhitespace != true else { return FileURI.uri(for: path) }
        return text
    }

    /// A tag with a line break would end the #EXTINF line early and turn its rest into a path.
    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
