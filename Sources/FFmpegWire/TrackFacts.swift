/// What the helper read from a file's header: the `tags` answer to `probe`.
public struct TrackFacts: Sendable, Equatable {
    /// FFmpeg's codec name: "aac", "alac"…
    public var codecName: String
    /// The container's rate and channels (HE-AAC may decode to twice the rate).
    public var sampleRate: Int
    public var channels: Int
    /// The playing time, when the header gives it.
    public var lengthMicroseconds: Int64?
    /// The length is an estimate (raw ADTS: from the size and bit rate), not a count.
    public var lengthIsEstimate: Bool
    /// A cover is stored in the file.
    public var hasCover: Bool
    /// Bytes the helper read from the file to find all this (header-only reads: a few KiB,
    /// plus the `moov` atom; the benchmark prints it).
    public var bytesRead: Int64
    /// FFmpeg's names and the values as stored: "title", "artist", "album_artist", "album",
    /// "track" ("3/12"), "disc", "date", "genre", "replaygain_track_gain"…, "iTunSMPB".
    public var tags: [Tag]
    /// The sample size the container declares (ALAC: 16 or 24); lossy codecs declare a
    /// placeholder, so only a lossless codec's means anything. nil when not given.
    public var bitsPerSample: Int?

    public struct Tag: Sendable, Equatable {
        public var key: String
        public var value: String
        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    public init(codecName: String, sampleRate: Int, channels: Int, lengthMicroseconds: Int64?,
                lengthIsEstimate: Bool, hasCover: Bool, bytesRead: Int64 = 0, tags: [Tag], bitsPerSample: Int? = nil) {
        self.codecName = codecName
        self.sampleRate = sampleRate
        self.channels = channels
        self.lengthMicroseconds = lengthMicroseconds
        self.lengthIsEstimate = lengthIsEstimate
        self.hasCover = hasCover
        self.bytesRead = bytesRead
        self.tags = tags
        self.bitsPerSample = bitsPerSample
    }

    /// At most this many tags, each value at most `valueLimit` bytes, travel.
    public static let tagLimit = 128
    public static let valueLimit = 16 * 1024

    public var frame: WireFrame {
        WireFrame(.tags) { writer in
            writer.string(codecName)
            writer.u32(UInt32(clamping: sampleRate))
            writer.u32(UInt32(clamping: channels))
            writer.i64(lengthMicroseconds ?? -1)
            writer.u8(lengthIsEstimate ? 1 : 0)
            writer.u8(hasCover ? 1 : 0)
            writer.i64(bytesRead)
            let sent = tags.prefix(Self.tagLimit)
            writer.u32(UInt32(sent.count))
            for tag in sent {
                writer.string(String(decoding: tag.key.utf8.prefix(256), as: UTF8.self))
                writer.string(String(decoding: tag.value.utf8.prefix(Self.valueLimit), as: UTF8.self))
            }
            // Last, so the frames written before it read the same up to here.
            writer.u8(UInt8(clamping: bitsPerSample ?? 0))
        }
    }

    public init(_ frame: WireFrame) throws(WireError) {
        guard frame.kind == .tags else { throw .malformed("expected tags, got \(frame.kind)") }
        var reader = frame.reader
        codecName = try reader.string()
        sampleRate = Int(try reader.u32())
        channels = Int(try reader.u32())
        let length = try reader.i64()
        lengthMicroseconds = length >= 0 ? length : nil
        lengthIsEstimate = try reader.u8() != 0
        hasCover = try reader.u8() != 0
        bytesRead = try reader.i64()
        let count = Int(try reader.u32())
        guard count <= Self.tagLimit else { throw .malformed("\(count) tags") }
        var tags: [Tag] = []
        for _ in 0..<count { tags.append(Tag(try reader.string(), try reader.string())) }
        self.tags = tags
        let bits = Int(try reader.u8())
        guard bits <= 64 else { throw .malformed("\(bits) bits per sample") }
        bitsPerSample = bits > 0 ? bits : nil
    }
}
