import PlayerCore

/// What the first MPEG audio frame of an MP3 says about the whole file, when an encoder
/// wrote an information frame there: the Xing/Info header (frame count) with LAME's tag
/// (encoder delay and padding, ReplayGain), or Fraunhofer's VBRI header (frame count).
///
/// Read from the file's first bytes after the ID3v2 tag, so a track can be queued with its
/// exact length without reading the whole file. A file without such a frame (CBR written
/// without an Info frame) has none: its length can only be estimated until it is scanned.
///
/// The bytes are hostile: every offset is checked against what was read, nothing traps.
struct MP3InfoHeader: Equatable {
    enum Kind: Equatable {
        /// "Xing" (VBR) or "Info" (CBR), as LAME and most encoders write it.
        case xing
        /// Fraunhofer's "VBRI".
        case vbri
    }

    var kind: Kind
    /// MPEG audio frames in the file (without the information frame itself), when given.
    var frameCount: Int?
    /// Bytes of the MPEG stream (information frame included), when given: a file shorter than
    /// this was cut off, and its frame count is not to be believed.
    var byteCount: Int?
    /// PCM samples per channel in one frame: 1152 (MPEG-1 Layer III) or 576 (MPEG-2/2.5).
    var samplesPerFrame: Int
    var sampleRate: Int
    /// The information frame's own bit rate (bits/s): for an estimate when its count is junk.
    var bitRate: Int
    /// LAME's encoder delay and padding in samples (12 bits each), when a LAME tag is there.
    var encoderDelay: Int?
    var encoderPadding: Int?
    /// The LAME tag's ReplayGain fields; `nil` when the tag has none.
    var replayGain: ReplayGainTags?

    /// The samples of the whole file after gapless trimming, from the frame count: what
    /// libmpg123 reports with `MPG123_GAPLESS` (which trims only when the LAME tag is there).
    var sampleCount: Int64? {
        guard let frameCount, frameCount > 0 else { return nil }
        let total = Int64(frameCount) * Int64(samplesPerFrame)
        let trimmed = total - Int64(encoderDelay ?? 0) - Int64(encoderPadding ?? 0)
        return trimmed > 0 ? trimmed : total
    }

    /// Whether `bytes` of audio can hold `frameCount` frames at all: no frame of this MPEG
    /// version and rate is shorter than one at the lowest bit rate. A header claiming more
    /// (forged, or of another file) is not believed.
    func framesFit(in bytes: Int) -> Bool {
        guard let frameCount else { return false }
        let lowest = samplesPerFrame == 1152 ? 32_000 : 8_000
        let shortest = max(1, (samplesPerFrame == 1152 ? 144 : 72) * lowest / sampleRate)
        return Int64(frameCount) * Int64(shortest) <= Int64(bytes) + Int64(truncationSlackBytes)
    }

    private var truncationSlackBytes: Int { Self.truncationSlack }

    /// Bytes read from the start of the audio (after ID3v2) to find the first frame: enough
    /// for junk or padding before it and one whole frame (at most 2881 bytes).
    static let searchLength = 16 * 1024

    /// Bytes a file may lack against the header's byte count before it counts as cut off
    /// (a few frames: encoders disagree on whether trailing tags are counted).
    static let truncationSlack = 8 * 1024

    /// The information frame at the start of `bytes` (the file after its ID3v2 tag), or nil
    /// when the first frame is an ordinary audio frame, or no frame is found at all.
    static func parse(_ bytes: [UInt8]) -> MP3InfoHeader? {
        guard let (offset, header) = firstFrame(in: bytes) else { return nil }
        let frame = ArraySlice(bytes[offset..<min(bytes.count, offset + header.frameLength)])
        return xing(in: frame, header: header) ?? vbri(in: frame, header: header)
    }

    /// The first offset holding a Layer III frame header; when the whole frame is in
    /// `bytes`, the next header must follow it (a lone 0xFF 0xFx in junk is not a frame).
    static func firstFrame(in bytes: [UInt8]) -> (Int, MPEGFrameHeader)? {
        var offset = 0
        while offset + 4 <= bytes.count {
            if bytes[offset] == 0xFF, let header = MPEGFrameHeader(bytes[offset..<offset + 4]) {
                let next = offset + header.frameLength
                if next + 4 > bytes.count { return (offset, header) }
                if let following = MPEGFrameHeader(bytes[next..<next + 4]), following.sampleRate == header.sampleRate {
                    return (offset, header)
                }
            }
            offset += 1
        }
        return nil
    }

    private static func xing(in frame: ArraySlice<UInt8>, header: MPEGFrameHeader) -> MP3InfoHeader? {
        // The tag follows the side information; some encoders count the CRC, most do not.
        let base = frame.startIndex + 4 + header.sideInfoLength
        let candidates = [base, base + 2]
        guard let start = candidates.first(where: { at in
            let tag = Array(frame[safe: at..<at + 4])
            return tag == Array("Xing".utf8) || tag == Array("Info".utf8)
        }) else { return nil }
        var reader = ByteReader(frame, at: start + 4)
        guard let flags = reader.uint32() else { return nil }
        var result = MP3InfoHeader(kind: .xing, samplesPerFrame: header.samplesPerFrame, sampleRate: header.sampleRate,
                                   bitRate: header.bitRate)
        if flags & 0x1 != 0 {
            guard let frames = reader.uint32() else { return result }
            result.frameCount = frames > 0 ? Int(frames) : nil
        }
        if flags & 0x2 != 0 {
            guard let bytes = reader.uint32() else { return result }
            result.byteCount = bytes > 0 ? Int(bytes) : nil
        }
        if flags & 0x4 != 0 { guard reader.skip(100) else { return result } }
        if flags & 0x8 != 0 { guard reader.skip(4) else { return result } }
        LAMETag.parse(from: &reader, into: &result)
        return result
    }

    private static func vbri(in frame: ArraySlice<UInt8>, header: MPEGFrameHeader) -> MP3InfoHeader? {
        // Always 32 bytes after the 4-byte header, whatever the mode.
        let start = frame.startIndex + 4 + 32
        guard Array(frame[safe: start..<start + 4]) == Array("VBRI".utf8) else { return nil }
        // "VBRI", version 2, delay 2, quality 2, bytes 4, frames 4.
        var reader = ByteReader(frame, at: start + 4)
        guard reader.skip(6), let bytes = reader.uint32(), let frames = reader.uint32() else { return nil }
        return MP3InfoHeader(kind: .vbri, frameCount: frames > 0 ? Int(frames) : nil, byteCount: bytes > 0 ? Int(bytes) : nil,
                             samplesPerFrame: header.samplesPerFrame, sampleRate: header.sampleRate, bitRate: header.bitRate)
    }

    init(kind: Kind, frameCount: Int? = nil, byteCount: Int? = nil, samplesPerFrame: Int, sampleRate: Int, bitRate: Int,
         encoderDelay: Int? = nil, encoderPadding: Int? = nil, replayGain: ReplayGainTags? = nil) {
        self.kind = kind
        self.frameCount = frameCount
        self.byteCount = byteCount
        self.samplesPerFrame = samplesPerFrame
        self.sampleRate = sampleRate
        self.bitRate = bitRate
        self.encoderDelay = encoderDelay
        self.encoderPadding = encoderPadding
        self.replayGain = replayGain
    }
}

/// Big-endian reads from a slice that return nil instead of reading past its end.
struct ByteReader {
    private let bytes: ArraySlice<UInt8>
    private(set) var offset: Int

    init(_ bytes: ArraySlice<UInt8>, at offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    mutating func skip(_ count: Int) -> Bool {
        guard offset >= bytes.startIndex, offset + count <= bytes.endIndex else { return false }
        offset += count
        return true
    }

    mutating func bytes(_ count: Int) -> ArraySlice<UInt8>? {
        guard offset >= bytes.startIndex, offset + count <= bytes.endIndex else { return nil }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func uint8() -> UInt8? { bytes(1)?.first }

    mutating func uint16() -> UInt16? {
        bytes(2).map { $0.reduce(0) { $0 << 8 | UInt16($1) } }
    }

    mutating func uint32() -> UInt32? {
        bytes(4).map { $0.reduce(0) { $0 << 8 | UInt32($1) } }
    }
}

extension ArraySlice {
    /// The elements of `range` that exist (empty when it lies outside).
    subscript(safe range: Range<Int>) -> ArraySlice<Element> {
        let lower = Swift.max(range.lowerBound, startIndex), upper = Swift.min(range.upperBound, endIndex)
        return lower < upper ? self[lower..<upper] : []
    }
}
