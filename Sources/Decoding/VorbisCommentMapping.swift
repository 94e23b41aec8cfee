import PlayerCore

/// Turns Vorbis comments (FLAC, Ogg Vorbis, Opus: `KEY=value`, keys case-insensitive, any key
/// may repeat) into `Track` fields, `moreTags` and ReplayGain tags.
///
/// Several values of one key are several entries (two ARTIST comments → two xesam:artist).
/// Values are trimmed; empty ones are ignored. A comment is at most `valueLimit` characters
/// and only `commentLimit` are looked at: a file's tags cannot take the daemon's memory.
public enum VorbisCommentMapping {
    public static let commentLimit = 1_024
    public static let valueLimit = 4_096
    /// Entries kept of one list (artists, genres…).
    public static let listLimit = 32

    /// `comments` as `(key, value)` pairs (the adapter splits `KEY=value` at the first "=").
    public static func track(path: FilePath, comments: [(key: String, value: String)]) -> Track {
        var values: [String: [String]] = [:]
        var more = MoreTags()
        for (key, value) in comments.prefix(commentLimit) {
            let name = key.uppercased()
            if let kind = moreTagKinds[name] { more.add(kind, value) }
            let trimmed = trim(String(value.prefix(valueLimit)))
            guard !trimmed.isEmpty else { continue }
            if values[name, default: []].count < listLimit { values[name, default: []].append(trimmed) }
        }
        func first(_ key: String) -> String? { values[key]?.first }
        func list(_ key: String) -> [String] { unique(values[key] ?? []) }
        var track = Track(
            path: path,
            title: first("TITLE"),
            artists: list("ARTIST"),
            album: first("ALBUM"),
            albumArtists: list("ALBUMARTIST").isEmpty ? list("ALBUM ARTIST") : list("ALBUMARTIST"),
            genres: list("GENRE"),
            trackNumber: first("TRACKNUMBER").flatMap(TagMapping.leadingNumber),
            discNumber: first("DISCNUMBER").flatMap(TagMapping.leadingNumber),
            date: first("DATE") ?? first("YEAR"))
        let gains = ReplayGainTags(
            trackGain: first("REPLAYGAIN_TRACK_GAIN").flatMap(ReplayGainTags.gain(parsing:)),
            trackPeak: first("REPLAYGAIN_TRACK_PEAK").flatMap(ReplayGainTags.peak(parsing:)),
            albumGain: first("REPLAYGAIN_ALBUM_GAIN").flatMap(ReplayGainTags.gain(parsing:)),
            albumPeak: first("REPLAYGAIN_ALBUM_PEAK").flatMap(ReplayGainTags.peak(parsing:)))
        track.replayGain = gains.isEmpty ? nil : gains
        track.moreTags = more.values
        return track
    }

    /// Comment keys (upper-case) of the kinds `Track` has no field for, as mpd 0.23 reads them:
    /// each kind's MPD name ("COMPOSER", "ALBUMARTISTSORT", "MUSICBRAINZ_TRACKID"…), and
    /// first the Xiph names it knows (XiphTags.cxx): DESCRIPTION is a comment, MOVEMENTNAME
    /// the movement's name and MOVEMENT its number.
    static let moreTagKinds: [String: TagKind] = {
        var kinds: [String: TagKind] = [:]
        for kind in TagKind.allCases where !TagKind.trackFields.contains(kind) { kinds[kind.rawValue.uppercased()] = kind }
        kinds["DESCRIPTION"] = .comment
        kinds["MOVEMENTNAME"] = .movement
        kinds["MOVEMENT"] = .movementNumber
        return kinds
    }()

    /// Splits one raw `KEY=value` comment; nil without "=" or with an empty key.
    public static func split(_ comment: String) -> (key: String, value: String)? {
        guard let equals = comment.firstIndex(of: "="), equals != comment.startIndex else { return nil }
        return (String(comment[..<equals]), String(comment[comment.index(after: equals)...]))
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen: Set<String> = []
        return values.filter { seen.insert($0).inserted }
    }

    private static func trim(_ value: String) -> String {
        var slice = Substring(value)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }
}
