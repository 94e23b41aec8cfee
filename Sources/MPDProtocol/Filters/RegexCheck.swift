internal import MusicDatabase

/// Checks a `=~`/`!~` pattern as mpd does when it parses the filter (mpd compiles it with PCRE
/// and answers `Error in regex at offset N: …`), so that a bad pattern fails as an argument
/// error before anything is searched.
///
/// The compiler is the library's own (MusicDatabase's linear-time matcher, the one that will run
/// the query): a pattern is accepted here exactly when it can run there. It refuses what cannot
/// be matched in linear time (backreferences, lookaround) and patterns too long or too nested,
/// so no client can make a query take exponential time or recurse without bound.
enum RegexCheck {
    static func validate(_ pattern: String, foldCase: Bool) throws(MPDError) {
        do throws(SongFilterError) {
            try SongFilter.tag(.any, StringMatch(pattern, foldCase: foldCase, isRegex: true)).validate()
        } catch {
            throw MPDError(.argument, String(cString: error.description, truncatedTo: 1023))
        }
    }
}
