import PlayerCore

/// A `SongFilter` compiled against one snapshot's compact songs. Each string comparison is
/// decided once per distinct string (a value shared by 5,000 songs is folded and compared
/// once), and remembered by its id; a plain `==` compares ids, with no string work at all.
final class SnapshotFilter {
    private indirect enum Node {
        case tag(kind: UInt8?, fallbacks: [UInt8], Comparison)
        case uri(StringMatcher)
        case base(String)
        case modifiedSince(Int64)
        case audioFormat(AudioFormatPattern)
        case never
        case not(Node)
        case and([Node])
    }

    /// One string comparison and what it found so far, per string id.
    private final class Comparison {
        let matcher: StringMatcher
        /// For plain `==`: the id whose bytes are the needle (nil: no stored value is it).
        let exact: UInt32??
        /// 0 not yet known, 1 no, 2 yes — per string id.
        var memo: [UInt8]

        init(_ matcher: StringMatcher, strings: StringTable) {
            self.matcher = matcher
            exact = matcher.isExact ? .some(strings.id(of: matcher.needleBytes)) : .none
            memo = matcher.isExact ? [] : Array(repeating: 0, count: strings.count)
        }

        func matches(_ id: UInt32, _ strings: StringTable) -> Bool {
            if let exact { return exact == id }
            switch memo[Int(id)] {
            case 1: return false
            case 2: return true
            default:
                let result = strings.withBytes(of: id) { matcher.matchesIgnoringNegation($0) }
                memo[Int(id)] = result ? 2 : 1
                return result
            }
        }
    }

    private let root: Node
    private let content: LibraryContent
    /// The folder URI of the last song tested, for URI comparisons (songs come folder by folder).
    private var uriCache: (directory: UInt32, prefix: [UInt8])?
    private var uriScratch: [UInt8] = []

    init(_ filter: SongFilter, content: LibraryContent) throws(SongFilterError) {
        self.content = content
        root = try Self.node(filter, content)
    }

    private static func node(_ filter: SongFilter, _ content: LibraryContent) throws(SongFilterError) -> Node {
        switch filter {
        case .tag(.any, let match):
            return .tag(kind: nil, fallbacks: [], Comparison(try SongMatcher.matcher(match), strings: content.strings))
        case .tag(.kind(let kind), let match):
            return .tag(kind: PackedTag.index(kind), fallbacks: kind.fallbacks.map(PackedTag.index),
                        Comparison(try SongMatcher.matcher(match), strings: content.strings))
        case .uri(let match): return .uri(try SongMatcher.matcher(match))
        case .base(let base): return .base(base)
        case .modifiedSince(let time): return .modifiedSince(time)
        case .audioFormat(let pattern): return .audioFormat(pattern)
        case .priorityAtLeast: return .never
        case .not(let inner): return .not(try node(inner, content))
        case .and(let items):
            var nodes: [Node] = []
            for item in items { nodes.append(try node(item, content)) }
            return .and(nodes)
        }
    }

    func matches(_ index: Int) -> Bool {
        evaluate(root, content.songs[index])
    }

    private func evaluate(_ node: Node, _ song: SongRecord) -> Bool {
        switch node {
        case .tag(let kind, let fallbacks, let comparison):
            return tagMatches(kind, fallbacks, comparison, song)
        case .uri(let matcher):
            return withURI(of: song) { matcher.matches($0) }
        case .base(let base):
            return withURI(of: song) { uri in Self.uri(uri, isInOrIs: base) }
        case .modifiedSince(let time):
            return song.modifiedSeconds >= time
        case .audioFormat(let pattern):
            return content.format(of: song).map(pattern.matches) ?? false
        case .never:
            return false
        case .not(let inner):
            return !evaluate(inner, song)
        case .and(let items):
            for item in items where !evaluate(item, song) { return false }
            return true
        }
    }

    /// TagSongFilter::Match on packed tags (see `SongMatcher.tagMatches`).
    private func tagMatches(_ kind: UInt8?, _ fallbacks: [UInt8], _ comparison: Comparison, _ song: SongRecord) -> Bool {
        let negated = comparison.matcher.match.negated
        let tags = content.tags[content.tagRange(of: song)]
        guard let kind else {
            for tag in tags where comparison.matches(PackedTag.value(tag), content.strings) { return !negated }
            return negated
        }
        var present = false
        for tag in tags where PackedTag.kind(tag) == kind {
            present = true
            if comparison.matches(PackedTag.value(tag), content.strings) { return !negated }
        }
        if present { return negated }
        for fallback in fallbacks {
            var found = false
            for tag in tags where PackedTag.kind(tag) == fallback {
                found = true
                if comparison.matches(PackedTag.value(tag), content.strings) { return !negated }
            }
            if found { return negated }
        }
        return comparison.matcher.isEmptyValue != negated
    }

    private func withURI<R>(of song: SongRecord, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if uriCache?.directory != song.directory {
            uriCache = (song.directory, Array(content.uri(ofDirectory: song.directory).utf8))
        }
        uriScratch.removeAll(keepingCapacity: true)
        if let prefix = uriCache?.prefix, !prefix.isEmpty {
            uriScratch += prefix
            uriScratch.append(UInt8(ascii: "/"))
        }
        content.strings.withBytes(of: song.name) { uriScratch.append(contentsOf: $0) }
        return uriScratch.withUnsafeBufferPointer(body)
    }

    private static func uri(_ uri: UnsafeBufferPointer<UInt8>, isInOrIs base: String) -> Bool {
        let b = Array(base.utf8)
        if uri.elementsEqual(b) { return true }
        guard uri.count > b.count, uri.starts(with: b) else { return false }
        return b.isEmpty || b.last == UInt8(ascii: "/") || uri[b.count] == UInt8(ascii: "/")
    }

    /// The songs a filter can only find below one folder (a `base` at its top level), to scan
    /// only that range: mpd starts its walk there too.
    static func baseURI(of filter: SongFilter) -> String? {
        switch filter {
        case .base(let base): return base
        case .and(let items): return items.lazy.compactMap(baseURI).first
        default: return nil
        }
    }
}
