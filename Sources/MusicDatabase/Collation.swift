/// The order in which mpd lists a folder's songs and subfolders: ICU's root collation
/// (`ucol_open("")`, mpd's `IcuCollate`), approximated without ICU or Foundation.
///
/// What it reproduces, checked against mpd 0.23 on names of every printable ASCII character
/// and the Latin-1 letters (the fixtures in `CollationTests`):
/// - three levels, compared one after the other over the whole string: letters first
///   ignoring accents and case ("abc" = "ABC" = "äbc" < "abc d"), then accents ("e" < "é"),
///   then case, lower first ("e" < "E");
/// - punctuation and symbols are not ignored (CLDR root is "non-ignorable"): whitespace <
///   punctuation (`_ - , ; : ! ? . ' " ( ) [ ] { } @ * / \ & # % ` ^ + < = > | ~ $`) < digits
///   < letters; digits compare one by one ("10" < "9");
/// - control characters are ignored entirely;
/// - Latin letters with diacritics (by their Unicode names: "LATIN SMALL LETTER E WITH
///   ACUTE") are the base letter plus an accent weight, in DUCET's accent order (acute <
///   grave < breve < circumflex < caron < ring < diaeresis < double acute < tilde …); æ, ð,
///   ł, œ, ŋ, þ are letters of their own after a, d, l, o, n, z; ß is "ss";
/// - letters of other scripts sort after Latin, by code point (ICU orders scripts
///   Greek, Cyrillic…, which is close to code point order; within a script ICU is finer).
/// Equal keys (a name that differs only by ignored characters) are ordered by the caller.
enum Collation {
    /// The sort key of `text`: every primary weight, 0, every secondary, 0, every tertiary.
    /// Keys compare lexicographically; 0 is below every weight, so a prefix sorts first.
    static func key(_ text: some StringProtocol) -> [UInt32] {
        var primaries: [UInt32] = [], secondaries: [UInt32] = [], tertiaries: [UInt32] = []
        primaries.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            for element in elements(of: scalar) {
                if element.primary != 0 { primaries.append(element.primary) }
                if element.secondary != 0 { secondaries.append(element.secondary) }
                if element.tertiary != 0 { tertiaries.append(element.tertiary) }
            }
        }
        return primaries + [0] + secondaries + [0] + tertiaries
    }

    /// Whether `a` sorts before `b` (keys first, then the UTF-8 bytes for a total order).
    static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        let (x, y) = (key(a), key(b))
        if x != y { return x.lexicographicallyPrecedes(y) }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    struct Element: Equatable {
        var primary: UInt32
        var secondary: UInt32
        var tertiary: UInt32
    }

    static let baseSecondary: UInt32 = 5
    static let lowerCase: UInt32 = 5
    static let upperCase: UInt32 = 6
    /// A compatibility variant: a superscript digit, a no-break space.
    static let variant: UInt32 = 7

    static func elements(of scalar: Unicode.Scalar) -> [Element] {
        if scalar.value < UInt32(precomputed.count) { return precomputed[Int(scalar.value)] }
        return computeElements(of: scalar)
    }

    /// U+0000 … U+024F (ASCII, Latin-1, Latin Extended-A and -B), worked out once.
    private static let precomputed: [[Element]] = (0..<0x250).map { value in
        Unicode.Scalar(UInt32(value)).map(computeElements(of:)) ?? []
    }
}
