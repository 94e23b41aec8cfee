/// One `StringMatch` made ready to test many values: the needle folded once, the regular
/// expression compiled once, scratch space for folding values. Not thread-safe: one per query.
final class StringMatcher {
    let match: StringMatch
    /// The needle's bytes, folded when the match folds case.
    private let needle: [UInt8]
    private var regex: RegexMatcher?
    private var scratch: [UInt8] = []

    init(_ match: StringMatch) throws(RegexError) {
        self.match = match
        if match.isRegex {
            regex = RegexMatcher(try RegexProgram(pattern: match.value, caseless: match.foldCase))
            needle = []
        } else {
            needle = Array((match.foldCase ? CaseFolding.fold(match.value) : match.value).utf8)
        }
    }

    /// Whether the match's value is empty (a missing tag then matches `==`: mpd's rule).
    var isEmptyValue: Bool { match.value.isEmpty }

    /// Whether the needle names exactly one stored value: plain `==`/`!=`, case kept. Then a
    /// value matches exactly when its bytes are the needle's.
    var isExact: Bool { !match.isRegex && !match.foldCase && !match.substring }

    var needleBytes: [UInt8] { needle }

    /// StringFilter::MatchWithoutNegation.
    func matchesIgnoringNegation(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        if regex != nil { return regex!.matches(value) }
        if match.foldCase {
            CaseFolding.fold(value, into: &scratch)
            return scratch.withUnsafeBufferPointer { folded in
                needle.withUnsafeBufferPointer { needle in
                    match.substring ? CaseFolding.contains(folded, needle) : folded.elementsEqual(needle)
                }
            }
        }
        return needle.withUnsafeBufferPointer { needle in
            match.substring ? CaseFolding.contains(value, needle) : value.elementsEqual(needle)
        }
    }

    func matchesIgnoringNegation(_ value: String) -> Bool {
        var value = value
        return value.withUTF8 { matchesIgnoringNegation($0) }
    }

    /// StringFilter::Match: with the negation.
    func matches(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        matchesIgnoringNegation(value) != match.negated
    }
}
