import FFmpegKit

/// The tags in an ID3v2 tag carried as timed metadata (an HLS stream's `timed_id3` packets),
/// read by FFmpeg itself: the bytes are opened as an ADTS input, whose header reading takes
/// the ID3 tag in front (FFmpeg's own ID3 parser, as for any file).
enum TimedID3 {
    static func tags(in bytes: [UInt8]) -> MetadataPairs {
        guard bytes.count >= 10, bytes.starts(with: Array("ID3".utf8)) else { return [] }
        let source = MemoryByteSource(bytes)
        guard let input = try? MediaInput(source: source, formatName: "aac", bufferSize: 4096) else { return [] }
        return input.metadata
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
