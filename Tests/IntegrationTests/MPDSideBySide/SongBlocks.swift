/// The songs of an answer: each block from its `file:` line to the line before the next `file:`,
/// `directory:` or `playlist:` line, or the answer's last line (`OK`, `ACK …`) — one song of a
/// listing, with its tags, format, times and (in the queue) position and id.
struct SongBlocks {
    /// The index ranges of the blocks in `lines`.
    static func ranges(in lines: [String]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start: Int?
        for (index, line) in lines.enumerated() {
            let ends = line.hasPrefix("file: ") || line.hasPrefix("directory: ") || line.hasPrefix("playlist: ")
                || line == "OK" || line == "list_OK" || line.hasPrefix("ACK ") || line == "<closed>"
            if ends, let begun = start {
                ranges.append(begun..<index)
                start = nil
            }
            if line.hasPrefix("file: ") { start = index }
        }
        if let begun = start { ranges.append(begun..<lines.count) }
        return ranges
    }

    /// The keys that are no tags: where the song is, its file's facts, its place in the queue.
    static let nonTagKeys: Set<String> = ["file", "Last-Modified", "Format", "Time", "duration", "Pos", "Id", "Prio",
                                          "Range"]

    static func isTag(_ line: String) -> Bool {
        guard let colon = line.range(of: ": ") else { return false }
        return !nonTagKeys.contains(String(line[..<colon.lowerBound]))
    }

    /// Whether the block at `range` is of an MP3 file.
    static func isMP3(_ lines: [String], _ range: Range<Int>) -> Bool {
        lines[range.lowerBound].lowercased().hasSuffix(".mp3")
    }
}
