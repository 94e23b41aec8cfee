/// A set of byte values (256 bits): what one step of a regular expression accepts.
struct ByteSet: Hashable, Sendable {
    private var word0: UInt64 = 0
    private var word1: UInt64 = 0
    private var word2: UInt64 = 0
    private var word3: UInt64 = 0

    static let all: ByteSet = { var set = ByteSet(); set.invert(); return set }()

    init() {}

    init(_ byte: UInt8) {
        insert(byte)
    }

    func contains(_ byte: UInt8) -> Bool {
        let bit = UInt64(1) << UInt64(byte & 63)
        switch byte >> 6 {
        case 0: return word0 & bit != 0
        case 1: return word1 & bit != 0
        case 2: return word2 & bit != 0
        default: return word3 & bit != 0
        }
    }

    mutating func insert(_ byte: UInt8) {
        let bit = UInt64(1) << UInt64(byte & 63)
        switch byte >> 6 {
        case 0: word0 |= bit
        case 1: word1 |= bit
        case 2: word2 |= bit
        default: word3 |= bit
        }
    }

    mutating func insert(_ range: ClosedRange<UInt8>) {
        for byte in range { insert(byte) }
    }

    mutating func formUnion(_ other: ByteSet) {
        word0 |= other.word0
        word1 |= other.word1
        word2 |= other.word2
        word3 |= other.word3
    }

    mutating func invert() {
        word0 = ~word0
        word1 = ~word1
        word2 = ~word2
        word3 = ~word3
    }

    /// With the other case of every ASCII letter in it (PCRE's caseless matching without UTF
    /// folds only ASCII).
    func addingASCIICase() -> ByteSet {
        var result = self
        for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") where contains(byte) || contains(byte | 0x20) {
            result.insert(byte)
            result.insert(byte | 0x20)
        }
        return result
    }

    static let digits: ByteSet = { var set = ByteSet(); set.insert(UInt8(ascii: "0")...UInt8(ascii: "9")); return set }()
    static let word: ByteSet = {
        var set = digits
        set.insert(UInt8(ascii: "a")...UInt8(ascii: "z"))
        set.insert(UInt8(ascii: "A")...UInt8(ascii: "Z"))
        set.insert(UInt8(ascii: "_"))
        return set
    }()
    /// PCRE2's `\s`: space, \t, \n, \v, \f, \r.
    static let space: ByteSet = { var set = ByteSet(); set.insert(9...13); set.insert(32); return set }()
    /// `\h`: horizontal space (space, tab, no-break space 0xA0 in PCRE's Latin-1 tables).
    static let horizontalSpace: ByteSet = { var set = ByteSet(); set.insert(9); set.insert(32); set.insert(0xA0); return set }()
    /// `\v`: vertical space (\n, \v, \f, \r, 0x85).
    static let verticalSpace: ByteSet = { var set = ByteSet(); set.insert(10...13); set.insert(0x85); return set }()

    func inverted() -> ByteSet { var set = self; set.invert(); return set }
}
