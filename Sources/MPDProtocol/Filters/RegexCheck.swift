/// Checks a `=~`/`!~` pattern as mpd does when it parses the filter (mpd compiles it with PCRE
/// and answers "Error in regex at offset N: …"), so that a bad pattern fails as an argument
/// error rather than when the library runs the query.
///
/// Swift's `Regex` is the compiler here; its syntax is close to PCRE's but not the same, and its
/// messages differ from PCRE's ("Error in regex: expected ')'"). Its parser recurses per nesting
/// level, and nested character classes have no depth limit of their own: "[[[[…" 64 deep
/// overflows a 256 KiB thread stack, and alternations 62 deep do too (measured here). So a
/// pattern with more than `maximumGroups` unescaped `(` and `[` in all is refused before Swift
/// sees it: a count, not a depth, so that no reading of brackets that differs from Swift's
/// parser can hide a nesting from it; 32 levels of either compile on a 256 KiB stack.
enum RegexCheck {
    static let maximumGroups = 32

    static func validate(_ pattern: String, foldCase: Bool) throws(MPDError) {
        guard groupCount(of: pattern) <= maximumGroups else {
            throw MPDError(.argument, "Error in regex: too many groups and classes")
        }
        do {
            _ = try Regex(pattern)
        } catch {
            throw MPDError(.argument, String(cString: "Error in regex: \(error)", truncatedTo: 1023))
        }
    }

    /// How many `(` and `[` the pattern has that a backslash does not escape.
    static func groupCount(of pattern: String) -> Int {
        var count = 0
        var escaped = false
        for byte in pattern.utf8 {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "(") || byte == UInt8(ascii: "[") {
                count += 1
            }
        }
        return count
    }
}
