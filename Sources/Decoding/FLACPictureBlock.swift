/// A FLAC PICTURE metadata block's content, the form Vorbis comments also carry it in
/// (`METADATA_BLOCK_PICTURE`, base64): type, MIME type, description, size, the image bytes.
/// All integers are big-endian 32-bit; every length is checked against what is there.
public enum FLACPictureBlock {
    /// The front cover's picture type (ID3v2 APIC's numbering).
    public static let frontCoverType: UInt32 = 3
    /// Pictures bigger than this are ignored (no real cover comes near).
    public static let sizeLimit = 16 << 20

    /// The picture in `bytes`, or nil when the block is malformed or its data empty.
    public static func parse(_ bytes: some Collection<UInt8>) -> (type: UInt32, picture: CoverArt)? {
        var reader = BigEndianReader(Array(bytes))
        guard let type = reader.uint32(),
              let mimeLength = reader.uint32(), mimeLength <= 256, let mime = reader.bytes(Int(mimeLength)),
              let descriptionLength = reader.uint32(), descriptionLength <= 1 << 16, reader.bytes(Int(descriptionLength)) != nil,
              reader.bytes(16) != nil,  // width, height, depth, colours
              let dataLength = reader.uint32(), dataLength > 0, dataLength <= sizeLimit,
              let data = reader.bytes(Int(dataLength)) else { return nil }
        let mimeType = String(decoding: mime, as: UTF8.self).lowercased()
        // "-->" means the data is a URL to the picture, not the picture: not followed.
        guard mimeType != "-->" else { return nil }
        return (type, CoverArt(mimeType: mimeType, data: data))
    }

    /// The front cover among `blocks` if there is one, else the first picture.
    public static func choose(_ pictures: [(type: UInt32, picture: CoverArt)]) -> CoverArt? {
        (pictures.first { $0.type == frontCoverType } ?? pictures.first)?.picture
    }
}

/// Reads big-endian integers and byte runs, returning nil past the end (never trapping).
struct BigEndianReader {
    private let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func uint32() -> UInt32? {
        guard let run = bytes(4) else { return nil }
        return run.reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func bytes(_ count: Int) -> [UInt8]? {
        guard count >= 0, count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }
}

/// Standard base64 (RFC 4648), as METADATA_BLOCK_PICTURE uses; nil for anything malformed.
public enum Base64 {
    public static func decode(_ text: some StringProtocol, limit: Int = 24 << 20) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(min(text.utf8.count * 3 / 4, limit))
        var accumulator: UInt32 = 0
        var bits = 0
        var padding = 0
        for byte in text.utf8 {
            let value: UInt8
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0") + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            case UInt8(ascii: "="): padding += 1; continue
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: " "): continue
            default: return nil
            }
            guard padding == 0 else { return nil }  // data after padding
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                guard output.count <= limit else { return nil }
            }
        }
        return padding <= 2 ? output : nil
    }
}
