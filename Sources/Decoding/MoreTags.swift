import PlayerCore

/// The tags of a file beyond `Track`'s own fields (`Track.moreTags`: composer, comment, sort
/// names, MusicBrainz ids…), gathered under the caps every format shares.
///
/// Values are outside input: each is cut to `VorbisCommentMapping.valueLimit` characters,
/// its control characters become spaces (as mpd's tag builder does: a comment's line breaks
/// would break a line-based protocol), it is trimmed, and dropped when empty. A kind keeps
/// at most `VorbisCommentMapping.listLimit` values, and a value already there for its kind
/// is not added again (a file with 10,000 identical comments has one).
struct MoreTags {
    private var byKind: [TagKind: [String]] = [:]

    /// Adds `value` as a tag of `kind` if it passes the caps; kinds with a `Track` field of
    /// their own are not kept here.
    mutating func add(_ kind: TagKind, _ value: String) {
        guard !TagKind.trackFields.contains(kind) else { return }
        let values = byKind[kind, default: []]
        guard values.count < VorbisCommentMapping.listLimit, let cleaned = Self.clean(value),
              !values.contains(cleaned) else { return }
        byKind[kind, default: []].append(cleaned)
    }

    /// Whether any value of `kind` was kept.
    func has(_ kind: TagKind) -> Bool {
        byKind[kind] != nil
    }

    /// The values in `TagKind` order, each kind's in the order they were added (the file's).
    var values: [TagValue] {
        TagKind.allCases.flatMap { kind in (byKind[kind] ?? []).map { TagValue(kind, $0) } }
    }

    /// Cut by scalars, not characters: one character may be a megabyte of combining marks.
    static func clean(_ value: String) -> String? {
        var scalars = String.UnicodeScalarView()
        for scalar in value.unicodeScalars.prefix(VorbisCommentMapping.valueLimit) {
            scalars.append(scalar.properties.generalCategory == .control ? " " : scalar)
        }
        var text = Substring(String(scalars))
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return text.isEmpty ? nil : String(text)
    }
}
