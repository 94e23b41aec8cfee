internal import CMpg123

/// Decoder flags (`MPG123_FLAGS` bits) that Aubade uses; set them before opening a file.
public struct Mpg123Flags: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `MPG123_GAPLESS`: drop encoder delay and padding, so lengths and sample positions are exact.
    public static let gapless = Mpg123Flags(rawValue: Int(MPG123_GAPLESS.rawValue))
    /// `MPG123_PICTURE`: keep APIC pictures from ID3v2 tags (costs memory; off unless needed).
    public static let picture = Mpg123Flags(rawValue: Int(MPG123_PICTURE.rawValue))
    /// `MPG123_QUIET`: no printouts on stderr; a daemon reports errors itself.
    public static let quiet = Mpg123Flags(rawValue: Int(MPG123_QUIET.rawValue))
    /// `MPG123_STORE_RAW_ID3`: keep the ID3v2 tag's bytes as read, for the frames libmpg123
    /// does not parse (UFID). The handle holds the whole tag, pictures included, until it is
    /// closed; libmpg123 reads all of it into memory anyway, so this costs time held, not more.
    public static let rawID3 = Mpg123Flags(rawValue: Int(MPG123_STORE_RAW_ID3.rawValue))
}
