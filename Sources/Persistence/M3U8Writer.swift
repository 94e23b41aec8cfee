import PlayerCore

/// Writing the queue as an extended M3U playlist in UTF-8:
/// ```
/// #EXTM3U
/// #EXTINF:<seconds>,<artist> - <title>
/// /absolute/path.mp3
/// ```
/// Library's `M3UPlaylist` reads it back (it skips `#` lines and takes absolute paths).
enum M3U8Writer {
    static func text(of tracks: [Track]) -> String {
        var text = "#EXTM3U\n"
        for track in tracks {
            // -1 is the format's "unknown length".
            let seconds = track.length.map { ($0 + 500_000) / 1_000_000 } ?? -1
            let artist = track.artists.joined(separator: ", ")
            let label = artist.isEmpty ? track.displayTitle : artist + " - " + track.displayTitle
            text += "#EXTINF:\(seconds),\(oneLine(label))\n"
            // A path with a line break cannot be a line of its own: the file URI encodes it.
            let path = track.path.contains(where: \.isNewline) || track.path.hasPrefix("#")
                ? FileURI.uri(forPath: track.path) : track.path
            text += path + "\n"
        }
        return text
    }

    /// A tag with a line break would end the #EXTINF line early and turn its rest into a path.
    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
