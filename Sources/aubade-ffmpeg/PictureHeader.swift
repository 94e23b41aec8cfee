/// A picture's size read from its first bytes, before any decoder sees them: a PNG's IHDR, a
/// JPEG's frame header (SOF), a GIF's screen. A 30000 × 30000 PNG is refused from 24 bytes.
struct PictureHeader: Equatable {
    var width: Int
    var height: Int
    /// Bytes a decoded pixel takes (a 16-bit RGBA PNG: 8); 4 when not known.
    var bytesPerPixel: Int
    var isJPEG = false

    /// nil when the bytes are none of these formats or say no size (FFmpeg's `max_pixels`
    /// still bounds what its decoder allocates).
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        if let png = Self.png(bytes) { self = png } else if let jpeg = Self.jpeg(bytes) { self = jpeg } else if let gif = Self.gif(bytes) { self = gif } else { return nil }
    }

    init(width: Int, height: Int, bytesPerPixel: Int, isJPEG: Bool = false) {
        self.width = width
        self.height = height
        self.bytesPerPixel = bytesPerPixel
        self.isJPEG = isJPEG
    }

    private static func png(_ bytes: UnsafeBufferPointer<UInt8>) -> PictureHeader? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 26, bytes.prefix(8).elementsEqual(signature),
              bytes[12...15].elementsEqual(Array("IHDR".utf8)) else { return nil }
        let width = bigEndian(bytes, 16, 4)
        let height = bigEndian(bytes, 20, 4)
        let depth = Int(bytes[24])
        let channels: Int
        switch bytes[25] {
        case 0, 3: channels = 1  // grey; a palette decodes to one byte a pixel
        case 2: channels = 3
        case 4: channels = 2
        default: channels = 4
        }
        return PictureHeader(width: width, height: height, bytesPerPixel: channels * (depth == 16 ? 2 : 1))
    }

    /// The first SOF segment before the first scan (SOS).
    private static func jpeg(_ bytes: UnsafeBufferPointer<UInt8>) -> PictureHeader? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var at = 2
        while at + 4 <= bytes.count {
            guard bytes[at] == 0xFF else { return nil }
            let marker = bytes[at + 1]
            if marker == 0xFF { at += 1; continue }  // fill byte
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { at += 2; continue }  // no length
            if marker == 0xDA || marker == 0xD9 { return nil }  // a scan or the end before any frame header
            let length = bigEndian(bytes, at + 2, 2)
            guard length >= 2 else { return nil }
            let isFrameHeader = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isFrameHeader {
                guard at + 10 <= bytes.count else { return nil }
                let height = bigEndian(bytes, at + 5, 2)
                let width = bigEndian(bytes, at + 7, 2)
                let components = Int(bytes[at + 9])
                // A height of 0 is given later (DNL): no size known here.
                guard height > 0, width > 0 else { return nil }
                return PictureHeader(width: width, height: height, bytesPerPixel: max(1, min(components, 4)), isJPEG: true)
            }
            at += 2 + length
        }
        return nil
    }

    private static func gif(_ bytes: UnsafeBufferPointer<UInt8>) -> PictureHeader? {
        guard bytes.count >= 10, bytes.prefix(6).elementsEqual(Array("GIF87a".utf8)) || bytes.prefix(6).elementsEqual(Array("GIF89a".utf8)) else { return nil }
        return PictureHeader(width: Int(bytes[6]) | Int(bytes[7]) << 8, height: Int(bytes[8]) | Int(bytes[9]) << 8, bytesPerPixel: 4)
    }

    private static func bigEndian(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int, _ count: Int) -> Int {
        (at..<at + count).reduce(0) { $0 << 8 | Int(bytes[$1]) }
    }
}
