public import MusicDatabase
import PlayerCore

/// mpd 0.23's song filter parser (`src/song/Filter.cxx`) → `SongFilter`: filter expressions
/// `(Artist == 'x')` and the old `TAG VALUE` pairs, mixed as mpd allows, with mpd's messages.
///
/// Every failure is `ACK [2@…]` (mpd wraps the parser's errors as argument errors). Two limits
/// mpd does not have, because this parser runs in the daemon on any thread's stack:
/// expressions nest at most `maximumDepth` parentheses deep (mpd recurses as deep as the line
/// allows, thousands of levels), and regular expressions are checked before Swift compiles them
/// (see `RegexCheck`).
public enum FilterParser {
    /// How deep `((((…` may go. Real clients send two or three levels.
    public static let maximumDepth = 64

    /// The filter of `find`, `search`, `count`, `list`, `playlistfind`… from its arguments.
    /// `foldCase`: the `search` family — case-insensitive, and old-style pairs match substrings.
    public static func parse(_ arguments: some Collection<String>, foldCase: Bool) throws(MPDError) -> SongFilter {
        guard !arguments.isEmpty else { throw MPDError(.argument, "Incorrect number of filter arguments") }
        var items = [SongFilter]()
        var index = arguments.startIndex
        while index != arguments.endIndex {
            let argument = arguments[index]
            if argument.utf8.first == UInt8(ascii: "(") {
                var expression = ExpressionScanner(Array(argument.utf8), foldCase: foldCase)
                let filter = try expression.parseExpression(depth: 1)
                guard expression.isAtEnd else { throw MPDError(.argument, "Unparsed garbage after expression") }
                items.append(filter)
                index = arguments.index(after: index)
                continue
            }
            let valueIndex = arguments.index(after: index)
            guard valueIndex != arguments.endIndex else {
                throw MPDError(.argument, "Incorrect number of filter arguments")
            }
            items.append(try pair(argument, arguments[valueIndex], foldCase: foldCase))
            index = arguments.index(after: valueIndex)
        }
        return items.count == 1 ? items[0] : .and(items)
    }

    /// A filter nothing matches: mpd's audio formats Aubade never has (DSD), and the old-style
    /// pair `AudioFormat VALUE` (mpd then compares a tag type that does not exist).
    public static let matchesNothing: SongFilter = .not(.and([]))

    /// An old-style `TAG VALUE` pair (mpd's `SongFilter::Parse(tag, value, fold_case)`).
    static func pair(_ name: String, _ value: String, foldCase: Bool) throws(MPDError) -> SongFilter {
        // For compatibility with mpd 0.20, folding case also means matching substrings here.
        let match = StringMatch(value, foldCase: foldCase, substring: foldCase)
        switch FilterType(name) {
        case nil:
            throw MPDError(.argument, "Unknown filter type")
        case .base:
            guard LocalURI.isSafe(value) else { throw MPDError(.argument, "Bad URI") }
            return .base(value)
        case .modifiedSince:
            return .modifiedSince(try TimestampParser.parse(value))
        case .file:
            return .uri(match)
        case .any:
            return .tag(.any, match)
        case .tag(let kind):
            return .tag(.kind(kind), match)
        case .audioFormat:
            return matchesNothing
        }
    }
}

/// What a filter compares (mpd's `locate_parse_type`).
enum FilterType: Equatable {
    case file, any, base, modifiedSince, audioFormat
    case tag(TagKind)

    /// `file`/`filename`, `any` and `AudioFormat` in any case; `base` and `modified-since`
    /// exactly; tag names in any case (ASCII).
    init?(_ name: String) {
        if ASCII.equalsIgnoringCase(name, "file") || ASCII.equalsIgnoringCase(name, "filename") {
            self = .file
        } else if ASCII.equalsIgnoringCase(name, "any") {
            self = .any
        } else if name == "base" {
            self = .base
        } else if name == "modified-since" {
            self = .modifiedSince
        } else if ASCII.equalsIgnoringCase(name, "AudioFormat") {
            self = .audioFormat
        } else if let kind = TagKind(mpdName: name) {
            self = .tag(kind)
        } else {
            return nil
        }
    }
}
