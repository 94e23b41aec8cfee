import PlayerCore

/// The stream URLs in a station's playlist as a server sends it (`.pls` or `.m3u`), in order:
/// the first is the main stream, the others are mirrors to fall back to.
public enum StationPlaylist {
    /// Larger bodies are not a station's playlist.
    public static let maximumBytes = 64 * 1024
    /// More entries are ignored (a hostile list cannot make us try a thousand hosts).
    public static let maximumEntries = 16

    public enum Problem: Error, Equatable, Sendable {
        case hls
        case empty
    }

    public static func urls(in body: [UInt8]) throws(Problem) -> [String] {
        let text = FilePath.displayString(of: body.prefix(maximumBytes))
        if text.contains("#EXT-X-") { throw .hls }
        var urls: [String] = []
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = String(rawLine).trimmingASCIISpaces
            var candidate = line
            // PLS: File1=http://…
            if line.lowercased().hasPrefix("file"), let equals = line.firstIndex(of: "=") {
                candidate = String(line[line.index(after: equals)...]).trimmingASCIISpaces
            } else if line.hasPrefix("#") || line.hasPrefix("[") {
                continue
            }
            if (try? StreamURL(validating: candidate)) != nil, !urls.contains(candidate) {
                urls.append(candidate)
                if urls.count == maximumEntries { break }
            }
        }
        guard !urls.isEmpty else { throw .empty }
        return urls
    }
}
