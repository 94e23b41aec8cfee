/// The payloads with more than one field, encoded and decoded in one place for both ends.

/// `format`: the PCM the session delivers.
public struct WireFormat: Sendable, Equatable {
    public var sampleRate: Int
    public var channels: Int
    /// The track's exact length in frames at `sampleRate`, when the container gives it
    /// (an MP4 edit list, iTunSMPB): the helper delivers exactly this many.
    public var exactFrames: Int64?
    public var codecName: String

    public init(sampleRate: Int, channels: Int, exactFrames: Int64?, codecName: String) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.exactFrames = exactFrames
        self.codecName = codecName
    }

    public var frame: WireFrame {
        WireFrame(.format) { writer in
            writer.u32(UInt32(clamping: sampleRate))
            writer.u32(UInt32(clamping: channels))
            writer.i64(exactFrames ?? -1)
            writer.string(codecName)
        }
    }

    public init(_ frame: WireFrame) throws(WireError) {
        var reader = frame.reader
        sampleRate = Int(try reader.u32())
        channels = Int(try reader.u32())
        let frames = try reader.i64()
        exactFrames = frames >= 0 ? frames : nil
        codecName = try reader.string()
        guard (1...768_000).contains(sampleRate), (1...8).contains(channels) else {
            throw .malformed("format \(sampleRate) Hz, \(channels) channels")
        }
    }
}

/// `title`: a station's new title, placed at a byte of the session's PCM.
public struct WireTitle: Sendable, Equatable {
    public var byteOffset: Int64
    public var text: String
    public var artist: String
    public var title: String

    public init(byteOffset: Int64, text: String, artist: String, title: String) {
        self.byteOffset = byteOffset
        self.text = text
        self.artist = artist
        self.title = title
    }

    public static let textLimit = 1024

    public var frame: WireFrame {
        WireFrame(.title) { writer in
            writer.i64(byteOffset)
            for field in [text, artist, title] { writer.string(String(decoding: field.utf8.prefix(Self.textLimit), as: UTF8.self)) }
        }
    }

    public init(_ frame: WireFrame) throws(WireError) {
        var reader = frame.reader
        byteOffset = try reader.i64()
        text = try reader.string()
        artist = try reader.string()
        title = try reader.string()
        guard byteOffset >= 0, text.utf8.count <= Self.textLimit, artist.utf8.count <= Self.textLimit,
              title.utf8.count <= Self.textLimit else { throw .malformed("title") }
    }
}

/// `openURL`'s fields.
public struct WireURLRequest: Sendable, Equatable {
    public var url: String
    public var caFile: String?
    public var userAgent: String
    /// Start a live playlist at its newest segment (a reconnect: what came before was heard),
    /// not three segments back (the first connection: a cushion of audio at once).
    public var atLiveEdge: Bool

    public init(url: String, caFile: String?, userAgent: String, atLiveEdge: Bool = false) {
        self.url = url
        self.caFile = caFile
        self.userAgent = userAgent
        self.atLiveEdge = atLiveEdge
    }

    public var frame: WireFrame {
        WireFrame(.openURL) { writer in
            writer.string(url)
            writer.string(caFile ?? "")
            writer.string(userAgent)
            writer.u8(atLiveEdge ? 1 : 0)
        }
    }

    public init(_ frame: WireFrame) throws(WireError) {
        var reader = frame.reader
        url = try reader.string()
        let file = try reader.string()
        caFile = file.isEmpty ? nil : file
        userAgent = try reader.string()
        atLiveEdge = try reader.u8() != 0
    }
}

/// `thumbnail`'s fields (the picture's file is the frame's descriptor).
public struct WireThumbnailRequest: Sendable, Equatable {
    public enum Source: UInt8, Sendable, Equatable {
        /// The picture embedded in an audio file (ID3 APIC, MP4 `covr`, FLAC PICTURE).
        case embedded = 0
        /// An image file itself (cover.jpg, folder.png).
        case imageFile = 1
    }

    public var source: Source
    /// The longest side of the JPEG, in pixels; a smaller picture keeps its size.
    public var maximumSide: Int

    /// The sides a request may ask for (the web page asks 96, 300 or 600).
    public static let sides = 16...4096
    /// The most bytes a thumbnail may have: one bigger is not sent (nor accepted).
    public static let byteLimit = 2 * 1024 * 1024

    public init(source: Source, maximumSide: Int) {
        self.source = source
        self.maximumSide = maximumSide
    }

    public var frame: WireFrame {
        WireFrame(.thumbnail) { writer in
            writer.u8(source.rawValue)
            writer.u32(UInt32(clamping: maximumSide))
        }
    }

    public init(_ frame: WireFrame) throws(WireError) {
        var reader = frame.reader
        let kind = try reader.u8()
        guard let source = Source(rawValue: kind) else { throw .malformed("thumbnail of source \(kind)") }
        self.source = source
        maximumSide = Int(try reader.u32())
        guard Self.sides.contains(maximumSide) else { throw .malformed("thumbnail of \(maximumSide) px") }
    }
}

extension WireFrame {
    /// A frame whose payload is one string (`failure`, `dropped`, the demuxer of `openFile`).
    public static func text(_ kind: WireKind, _ text: String) -> WireFrame {
        WireFrame(kind) { $0.string(String(decoding: text.utf8.prefix(4096), as: UTF8.self)) }
    }

    /// The payload read as one string.
    public func text() throws(WireError) -> String {
        var reader = self.reader
        return try reader.string()
    }

    public static func integer(_ kind: WireKind, _ value: Int64) -> WireFrame {
        WireFrame(kind) { $0.i64(value) }
    }

    public func integer() throws(WireError) -> Int64 {
        var reader = self.reader
        return try reader.i64()
    }
}
