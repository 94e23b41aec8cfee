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
}
