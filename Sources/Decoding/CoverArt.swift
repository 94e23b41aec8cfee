/// A picture embedded in a track (ID3v2 APIC), for the cover cache and `mpris:artUrl`.
public struct CoverArt: Sendable, Equatable {
    /// e.g. "image/jpeg" or "image/png", as tagged.
    public var mimeType: String
    /// The image file's bytes.
    public var data: [UInt8]

    public init(mimeType: String, data: [UInt8]) {
        self.mimeType = mimeType
        self.data = data
    }
}
