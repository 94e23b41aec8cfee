import PlayerCore

/// A `SongFilter` made ready to test many songs of any kind (`FilterableSong`: the queue's
/// tracks for `playlistfind`/`playlistsearch`): every regular expression compiled and every
/// needle folded once.
public final class SongMatcher {
    private indirect enum Node {
        case tag(TagSelector, StringMatcher)
        case uri(StringMatcher)
        case base(String)
        case modifiedSince(Int64)
        case audioFormat(AudioFormatPattern)
        case priorityAtLeast(Int)
        case not(Node)
        case and([Node])
    }

    private let root: Node

    /// Throws when a regular expression in `filter` is refused (see `SongFilterError`).
    public init(_ filter: SongFilter) throws(SongFilterError) {
        root = try Self.node(filter)
    }

    private static func node(_ filter: SongFilter) throws(SongFilterError) -> Node {
        switch filter {
        case .tag(let selector, let match): return .tag(selector, try matcher(match))
        case .uri(let match): return .uri(try matcher(match))
        case .base(let base): return .base(base)
        case .modifiedSince(let time): return .modifiedSince(time)
        case .audioFormat(let pattern): return .audioFormat(pattern)
        case .priorityAtLeast(let priority): return .priorityAtLeast(priority)
        case .not(let inner): return .not(try node(inner))
        case .and(let items):
            var nodes: [Node] = []
            for item in items { nodes.append(try node(item)) }
            return .and(nodes)
        }
    }

    static func matcher(_ match: StringMatch) throws(SongFilterError) -> StringMatcher {
        do throws(RegexError) {
            return try StringMatcher(match)
        } catch {
            throw SongFilterError(pattern: match.value, offset: error.offset, reason: error.reason)
        }
    }

    public func matches(_ song: some FilterableSong) -> Bool {
        Self.evaluate(root, song)
    }

    private static func evaluate(_ node: Node, _ song: some FilterableSong) -> Bool {
        switch node {
        case .tag(.any, let matcher):
            for kind in TagKind.allCases {
                for value in song.values(of: kind) where matcher.matchesIgnoringNegation(value) { return !matcher.match.negated }
            }
            return matcher.match.negated
        case .tag(.kind(let kind), let matcher):
            return tagMatches(kind, matcher, song.values(of:))
        case .uri(let matcher):
            return matcher.matchesIgnoringNegation(song.uri) != matcher.match.negated
        case .base(let base):
            return SongFilter.uri(song.uri, isInOrIs: base)
        case .modifiedSince(let time):
            return (song.modificationTime ?? 0) >= time
        case .audioFormat(let pattern):
            return song.format.map(pattern.matches) ?? false
        case .priorityAtLeast(let priority):
            return song.priority >= priority
        case .not(let inner):
            return !evaluate(inner, song)
        case .and(let items):
            return items.allSatisfy { evaluate($0, song) }
        }
    }

    /// TagSongFilter::Match: any value of the kind; failing any, the first fallback kind the
    /// song has; failing that, a missing tag equals "".
    static func tagMatches(_ kind: TagKind, _ matcher: StringMatcher, _ values: (TagKind) -> [String]) -> Bool {
        let negated = matcher.match.negated
        let own = values(kind)
        if !own.isEmpty {
            return own.contains(where: matcher.matchesIgnoringNegation) != negated
        }
        for fallback in kind.fallbacks {
            let standIns = values(fallback)
            if !standIns.isEmpty { return standIns.contains(where: matcher.matchesIgnoringNegation) != negated }
        }
        return matcher.isEmptyValue != negated
    }
}

extension SongFilter {
    /// Whether `song` passes the filter (mpd 0.23's semantics, see `SongFilter`). A filter
    /// whose regular expression is refused matches nothing: call `validate()` first, or build
    /// a `SongMatcher` once to test many songs.
    public func matches(_ song: some FilterableSong) -> Bool {
        (try? SongMatcher(self))?.matches(song) ?? false
    }

    /// Throws the first regular expression in the filter that cannot be run, so the protocol
    /// can answer `ACK [2@0]` before searching.
    public func validate() throws(SongFilterError) {
        _ = try SongMatcher(self)
    }

    /// mpd's uri_is_child_or_same: `uri` is `base` or lies below it ("" is the whole library).
    static func uri(_ uri: String, isInOrIs base: String) -> Bool {
        let (u, b) = (Array(uri.utf8), Array(base.utf8))
        if u == b { return true }
        guard u.starts(with: b), u.count > b.count else { return false }
        return b.isEmpty || b.last == UInt8(ascii: "/") || u[b.count] == UInt8(ascii: "/")
    }
}

extension AudioFormatPattern {
    /// AudioFormat::MatchMask: every part the pattern gives is the song's.
    func matches(_ format: AudioFormatFacts) -> Bool {
        if let rate = sampleRate, rate != format.sampleRate { return false }
        if let bits = bitsPerSample, bits != format.bitsPerSample { return false }
        if let channels, channels != format.channels { return false }
        return true
    }
}
