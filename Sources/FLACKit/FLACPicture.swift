/// A PICTURE metadata block as libFLAC parsed it: the picture type (ID3v2 APIC numbering,
/// 3 = front cover), the MIME type and the image bytes.
public struct FLACPicture: Sendable, Equatable {
    public var type: UInt32
    public var mimeType: String
    public var data: [UInt8]

    public init(type: UInt32, mimeType: String, data: [UInt8]) {
        self.type = type
        self.mimeType = mimeType
        self.data = data
    }
}
