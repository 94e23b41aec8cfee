import FFmpegKit

/// The tags in an ID3v2 tag carried as timed metadata (an HLS stream's `timed_id3` packets, a
/// packed-audio segment's leading tag), read by FFmpeg itself: the bytes are opened as an ADTS
/// input, whose header reading takes the ID3 tag in front (FFmpeg's own ID3 parser, as for any
/// file).
enum TimedID3 {
    /// The largest tag read (a station's is well under 1 KiB; a cover in it is not wanted).
    static let sizeLimit = 256 * 1024

    /// An ADTS frame header (AAC-LC, 44.1 kHz, stereo, 7 bytes) put behind the tag: FFmpeg's ADTS
    /// demuxer looks for a frame after the tag and fails its header without one, tags and all.
    private static let adtsFrameHeader: [UInt8] = [0xFF, 0xF1, 0x50, 0x80, 0x01, 0x1F, 0xFC]

    static func tags(in bytes: [UInt8]) -> MetadataPairs {
        guard let tag = restored(bytes) else { return [] }
        let source = MemoryByteSource(tag + adtsFrameHeader)
        guard let input = try? MediaInput(source: source, formatName: "aac", bufferSize: 4096) else { return [] }
        return input.metadata
    }

    /// Where a packed-audio segment starts on the stream's clock, in seconds: its tag's
    /// `PRIV com.apple.streaming.transportStreamTimestamp`, a 33-bit count of 90 kHz ticks in 8
    /// bytes. FFmpeg gives a PRIV frame's bytes as text, each byte outside printable ASCII (and
    /// the backslash) as `\xNN`.
    static func transportStreamSeconds(in tags: MetadataPairs) -> Double? {
        guard let text = tags.first(where: { $0.key == "id3v2_priv.com.apple.streaming.transportStreamTimestamp" })?.value else { return nil }
        var bytes: [UInt8] = []
        var rest = Substring(text)
        while let first = rest.first, bytes.count <= 8 {
            if rest.hasPrefix("\\x"), rest.count >= 4, let byte = UInt8(rest.dropFirst(2).prefix(2), radix: 16) {
                bytes.append(byte)
                rest = rest.dropFirst(4)
            } else {
                guard let ascii = first.asciiValue else { return nil }
                bytes.append(ascii)
                rest = rest.dropFirst()
            }
        }
        guard bytes.count == 8, rest.isEmpty else { return nil }
        let ticks = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } & ((1 << 33) - 1)
        return Double(ticks) / 90_000
    }

    /// The tag as the station sent it. FFmpeg 5.1's MPEG-TS demuxer takes the first 5 bytes of
    /// every stream-type-0x15 PES payload for a metadata access unit header and drops them: a
    /// station's bare tag ("ID3", version, revision, flags, size…) comes out as flags, size, frames.
    /// Those 5 bytes are put back (version 4: the frames' sizes are read as syncsafe, which a
    /// version-3 tag's small frames are too) when what is left is a tag's flags and size.
    static func restored(_ bytes: [UInt8]) -> [UInt8]? {
        if bytes.starts(with: Array("ID3".utf8)) {
            return bytes.count >= 10 && bytes.count <= sizeLimit ? bytes : nil
        }
        guard bytes.count >= 5, bytes.count + 5 <= sizeLimit, bytes[0] & 0x0F == 0,
              bytes[1...4].allSatisfy({ $0 < 0x80 }) else { return nil }
        let size = bytes[1...4].reduce(0) { $0 << 7 | Int($1) }
        guard size > 0, size <= bytes.count - 5 else { return nil }
        return Array("ID3".utf8) + [4, 0] + bytes
    }
}

/// Bytes in memory as a `ByteSource`.
final class MemoryByteSource: ByteSource {
    private let bytes: [UInt8]
    private var offset = 0
    var size: Int64? { Int64(bytes.count) }
    var isSeekable: Bool { true }

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        let count = min(buffer.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
        offset += count
        return count
    }

    func seek(to target: Int64) -> Bool {
        guard target >= 0, target <= Int64(bytes.count) else { return false }
        offset = Int(target)
        return true
    }
}
