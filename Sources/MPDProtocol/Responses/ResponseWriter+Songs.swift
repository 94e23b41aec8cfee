public import PlayerCore

/// Songs, folders, playlists and tag rows, as mpd writes them (`SongPrint.cxx`, `TagPrint.cxx`,
/// `QueuePrint.cxx`).
extension ResponseWriter {
    /// Every tag kind: a client that never sent `tagtypes`.
    public static let allTags = Set(TagKind.allCases)

    /// `file:`, `Range:`, `Last-Modified:`, `Format:`, the tags this client receives (`tagtypes`),
    /// `Time:` (whole seconds, rounded) and `duration:` (milliseconds).
    public mutating func song(_ song: SongInfo, tags: Set<TagKind> = allTags) {
        line("file", Self.withoutCredentials(song.uri))
        if let range = song.range { playRange(range) }
        if let modified = song.lastModified, let text = timestamp(modified) {
            line("Last-Modified", text)
        }
        if let format = song.audioFormat { line("Format", format.description) }
        // The library's songs come in TagKind order already: sorted (stably) only when not.
        let inOrder = zip(song.tags, song.tags.dropFirst()).allSatisfy { !($1.kind < $0.kind) }
        let ordered = inOrder ? song.tags : song.tags.enumerated().sorted {
            $0.element.kind != $1.element.kind ? $0.element.kind < $1.element.kind : $0.offset < $1.offset
        }.map(\.element)
        for tag in ordered where tags.contains(tag.kind) {
            line(tag.kind.rawValue, tag.value)
        }
        if let duration = song.duration, duration >= 0 {
            let milliseconds = duration / 1000
            line("Time", (milliseconds + 500) / 1000)
            line("duration", Self.seconds(milliseconds: milliseconds))
        }
    }

    /// A queue entry: the song, then `Pos:`, `Id:` and, when not 0, `Prio:`.
    public mutating func queueEntry(_ song: SongInfo, at slot: QueueSlot, tags: Set<TagKind> = allTags) {
        self.song(song, tags: tags)
        line("Pos", slot.position)
        line("Id", slot.id)
        if slot.priority != 0 { line("Prio", slot.priority) }
    }

    /// `playlist`'s line for one entry: `3:file: A/b.mp3`.
    public mutating func queueURI(position: Int, uri: String) {
        raw("\(position):")
        line("file", Self.withoutCredentials(uri))
    }

    /// `plchangesposid`'s lines for one entry.
    public mutating func changedPosition(_ position: Int, id: Int) {
        line("cpos", position)
        line("Id", id)
    }

    /// The last time stamp written, kept: the songs of a folder mostly share one.
    private mutating func timestamp(_ seconds: Int64) -> String? {
        if let last = lastTimestamp, last.seconds == seconds { return last.text }
        let text = UTCTimestamp.iso8601(seconds)
        if let text { lastTimestamp = (seconds, text) }
        return text
    }

    /// `directory:` and its `Last-Modified:` (`lsinfo`, `listallinfo`).
    public mutating func directory(_ path: String, lastModified: Int64?) {
        line("directory", path)
        if let modified = lastModified, let text = UTCTimestamp.iso8601(modified) { line("Last-Modified", text) }
    }

    /// `playlist:` and its `Last-Modified:` (`listplaylists`, `lsinfo` of the root).
    public mutating func playlist(_ name: String, lastModified: Int64?) {
        line("playlist", name)
        if let modified = lastModified, let text = UTCTimestamp.iso8601(modified) { line("Last-Modified", text) }
    }

    /// One tag line (`Album: L`): the rows of `list`, nested by the server for `group`.
    public mutating func tag(_ kind: TagKind, _ value: String) {
        line(kind.rawValue, value)
    }

    private mutating func playRange(_ range: PlayRange) {
        let start = max(range.start, 0) / 1000
        let end = max(range.end ?? 0, 0) / 1000
        if end > 0 {
            line("Range", "\(Self.seconds(milliseconds: start))-\(Self.seconds(milliseconds: end))")
        } else if start > 0 {
            line("Range", "\(Self.seconds(milliseconds: start))-")
        }
    }

    /// `12.345`: mpd's `{:1.3f}` of whole milliseconds, written without floating point.
    static func seconds(milliseconds: Int64) -> String {
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    /// mpd's `uri_remove_auth`: `http://user:secret@host/x` is written `http://host/x`.
    static func withoutCredentials(_ uri: String) -> String {
        let bytes = Array(uri.utf8)
        for scheme in ["http://", "https://", "ftp://", "smb://"] {
            let length = scheme.utf8.count
            guard bytes.count >= length,
                  ASCII.equalsIgnoringCase(String(decoding: bytes[..<length], as: UTF8.self), scheme) else { continue }
            let slash = bytes[length...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.count
            guard let at = bytes[length..<slash].firstIndex(of: UInt8(ascii: "@")) else { return uri }
            return String(decoding: bytes[..<length] + bytes[(at + 1)...], as: UTF8.self)
        }
        return uri
    }
}
