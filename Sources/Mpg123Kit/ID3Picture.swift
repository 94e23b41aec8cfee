/// An embedded picture from an ID3v2 APIC frame (cover art).
public struct ID3Picture: Sendable, Equatable {
    /// The ID3v2 picture type: 3 is "front cover", 0 "other" (what `lame --ti` writes).
    public var type: Int
    /// e.g. "image/jpeg"; ID3v2.2 files may carry a bare "JPG".
    public var mimeType: String
    public var description: String
    /// The image file's bytes.
    public var data: [UInt8]

    public init(type: Int, mimeType: String, description: String, data: [UInt8]) {
        self.type = type
        self.mimeType = mimeType
        self.description = description
        self.data = data
    }

    /// ID3v2 picture type "Cover (front)".
    public static let frontCoverType = 3
}
