/// What one `OggVorbisFile.read(into:)` produced.
public struct VorbisReadResult: Sendable, Equatable {
    /// Bytes of PCM written; 0 with `isHole == false` means the end of the file.
    public var byteCount: Int
    /// The link the PCM belongs to (its format is `streamInfo(link:)`).
    public var link: Int
    /// The data had a gap here (not fatal: read on).
    public var isHole: Bool

    public init(byteCount: Int, link: Int, isHole: Bool) {
        self.byteCount = byteCount
        self.link = link
        self.isHole = isHole
    }

    public var isEndOfFile: Bool { byteCount == 0 && !isHole }
}
