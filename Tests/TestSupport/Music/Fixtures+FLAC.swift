import Foundation

/// FLAC test files, made with sox (the tone) and flac/metaflac (encoding, tags, pictures).
extension Fixtures {
    /// A FLAC file of a `seconds`-long 440 Hz sine at half amplitude, `bits` per sample
    /// (8, 16, 24 or 32), tagged with `tags` ("KEY=value", repeatable keys allowed).
    public static func makeFLAC(at path: String, seconds: Double = 1.5, rate: Int = 44100, channels: Int = 2,
                                bits: Int = 16, tags: [String] = [], frequency: Int = 440) throws {
        let key = ["flac", "\(seconds)", "\(rate)", "\(channels)", "\(bits)", "\(frequency)"] + tags
        try FixtureCache.file(at: path, key: key) { path in
            let wav = path + ".source.wav"
            try makeToneWAV(at: wav, seconds: seconds, rate: rate, channels: channels, bits: bits, frequency: frequency)
            defer { try? FileManager.default.removeItem(atPath: wav) }
            try encodeFLAC(wav, to: path, tags: tags)
        }
    }

    /// The WAV `makeFLAC` encodes: a sine at half amplitude (no clipping, clearly not silence).
    public static func makeToneWAV(at path: String, seconds: Double, rate: Int = 44100, channels: Int = 2,
                                   bits: Int = 16, frequency: Int = 440) throws {
        try FixtureCache.file(at: path, key: ["tone", "\(seconds)", "\(rate)", "\(channels)", "\(bits)", "\(frequency)"]) { path in
            // -R: dither seeded the same every run, so a fixture is the same bytes each time
            // (DecoderFuzzTests derives its mutants from them).
            try run("sox", ["-R", "-n", "-r", "\(rate)", "-c", "\(channels)", "-b", "\(bits)", path,
                            "synth", "\(seconds)", "sine", "\(frequency)", "vol", "0.5"])
        }
    }

    /// Encodes `wav` to FLAC at `path` with `tags` (`flac -T`).
    public static func encodeFLAC(_ wav: String, to path: String, tags: [String] = []) throws {
        try run("flac", ["--silent", "-f"] + tags.flatMap { ["-T", $0] } + ["-o", path, wav])
    }

    /// Embeds `image` (a file) as a PICTURE block of `type` (3 = front cover).
    public static func addFLACPicture(_ image: String, type: Int = 3, mimeType: String = "image/png", to path: String) throws {
        try run("metaflac", ["--import-picture-from=\(type)|\(mimeType)|||\(image)", path])
    }

    /// A 2×2 RGB PNG (built by hand: signature, IHDR, one stored-deflate IDAT, IEND).
    public static let tinyPNG: [UInt8] = {
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            return bigEndian32(UInt32(body.count)) + typed + bigEndian32(crc32(typed))
        }
        let rows: [UInt8] = [0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]
        let length = UInt16(rows.count)
        let deflate: [UInt8] = [0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8),
                                UInt8(~length & 0xFF), UInt8(~length >> 8)] + rows + bigEndian32(adler32(rows))
        let header = bigEndian32(2) + bigEndian32(2) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", header) + chunk("IDAT", deflate) + chunk("IEND", [])
    }()

    /// A FLAC metadata block: header (last flag, type, 24-bit length) and body.
    public static func flacMetadataBlock(type: UInt8, body: [UInt8], isLast: Bool) -> [UInt8] {
        let length = body.count
        return [(isLast ? 0x80 : 0) | type, UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)] + body
    }

    /// A VORBIS_COMMENT block body (little-endian lengths): vendor string, then the comments.
    public static func vorbisCommentBody(_ comments: [String], vendor: String = "aubade tests") -> [UInt8] {
        func le(_ n: Int) -> [UInt8] { [UInt8(n & 0xFF), UInt8((n >> 8) & 0xFF), UInt8((n >> 16) & 0xFF), UInt8((n >> 24) & 0xFF)] }
        var body = le(vendor.utf8.count) + Array(vendor.utf8) + le(comments.count)
        for comment in comments { body += le(comment.utf8.count) + Array(comment.utf8) }
        return body
    }

    public static func bigEndian32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}

extension Fixtures {
    /// The blocks of a FLAC file's metadata: (type, body) each, and where the audio starts.
    public static func flacBlocks(_ bytes: [UInt8]) -> (blocks: [(type: UInt8, body: [UInt8])], audioStart: Int)? {
        guard bytes.starts(with: Array("fLaC".utf8)) else { return nil }
        var offset = 4
        var blocks: [(type: UInt8, body: [UInt8])] = []
        while offset + 4 <= bytes.count {
            let header = bytes[offset]
            let length = Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard offset + 4 + length <= bytes.count else { return nil }
            blocks.append((header & 0x7F, Array(bytes[(offset + 4)..<(offset + 4 + length)])))
            offset += 4 + length
            if header & 0x80 != 0 { return (blocks, offset) }
        }
        return nil
    }

    /// Rewrites the FLAC file at `path` with STREAMINFO, then `blocks` (type, body) as its only
    /// other metadata, then its audio.
    public static func replaceFLACMetadata(at path: String, with blocks: [(type: UInt8, body: [UInt8])]) throws {
        let bytes = try contents(of: path)
        guard let (old, audioStart) = flacBlocks(bytes), let info = old.first, info.type == 0 else {
            throw ToolFailed(description: "\(path) is not a FLAC file")
        }
        let all = [info] + blocks
        var output = Array("fLaC".utf8)
        for (index, block) in all.enumerated() {
            output += flacMetadataBlock(type: block.type, body: block.body, isLast: index == all.count - 1)
        }
        output += bytes[audioStart...]
        try write(output, to: path)
    }

    /// The 16-bit samples of a WAV file, converted by sox (no dither) to raw signed 16-bit.
    public static func rawSamples(ofWAV wav: String) throws -> [Int16] {
        let raw = wav + ".raw"
        try run("sox", [wav, "-D", "-t", "raw", "-e", "signed", "-b", "16", "-L", raw])
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let bytes = try contents(of: raw)
        return stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
    }
}
