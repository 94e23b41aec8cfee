/// A regular expression as parsed: the subset of PCRE that MPD clients send, on bytes.
///
/// mpd 0.23 compiles filter patterns with PCRE2 without its UTF option (`PCRE2_DOTALL |
/// PCRE2_NO_AUTO_CAPTURE`, plus `PCRE2_CASELESS` for `search`): a pattern and a value are
/// bytes, `.` is any one byte (a newline too), classes hold bytes, and caseless matching folds
/// ASCII letters only. This parser reads patterns the same way, so a pattern means here what it
/// means to mpd; what it cannot match in linear time (backreferences, lookaround, atomic groups,
/// possessive quantifiers, recursion) is refused with an error, as a bad pattern is by mpd.
indirect enum RegexNode: Equatable {
    case bytes(ByteSet)
    case concatenation([RegexNode])
    case alternation([RegexNode])
    /// `max` nil: no upper bound.
    case repetition(RegexNode, min: Int, max: Int?)
    case assertion(RegexAssertion)
}

enum RegexAssertion: Equatable {
    /// `^`, `\A`: the start of the value.
    case start
    /// `$`, `\Z`: the end of the value, or just before a newline that ends it.
    case endOrFinalNewline
    /// `\z`: the very end.
    case end
    case wordBoundary
    case notWordBoundary
}

/// Why a pattern was refused, and where (a byte offset, as PCRE reports it).
struct RegexError: Error, Equatable {
    var offset: Int
    var reason: String
}

/// Limits that keep a hostile pattern cheap: its length, a counted repetition, the compiled
/// program (every step of a match costs at most one visit of each instruction).
enum RegexLimits {
    static let patternBytes = 1024
    static let repeatCount = 1000
    static let instructions = 2000
    /// Groups nested deeper than this are refused (the parser recurses once per level).
    static let nesting = 64
}
