import PlayerCore

/// The tag index file's bytes: a header (magic, version, entry count, body length, FNV-1a
/// checksum of the body), then the entries, every field length-prefixed big-endian.
///
/// The file is outside input like any other (a crash mid-write cannot tear it — it is
/// replaced atomically — but a disk error, another program or a user can): decoding checks
/// every length against what is left and the caps below, and any doubt rejects the whole
/// file, which is then rebuilt. Nothing traps, nothing allocates more than the file's size.
package enum TagIndexCoding {
    static let magic = Array("AUBADE-TAGINDEX\n".utf8)
    /// 2: tracks carry `moreTags` and `audioFormat`. A file of version 1 is ignored with one
    /// log line and rebuilt as files are read (its tracks lack those tags).
    static let version: UInt32 = 2
    static let headerLength = 16 + 4 + 4 + 8 + 8
    /// Caps on one entry's fields: more than any real tag, little enough to bound memory.
    static let maximumText = 64 * 1024
    static let maximumValues = 256
    static let maximumPath = 64 * 1024
    /// `moreTags` of one track: every kind at its reader's cap (32 values) fits.
    static let maximumMoreTags = 1_024
    /// A kind's name ("MUSICBRAINZ_RELEASETRACKID" is the longest today).
    static let maximumKindName = 64

    package struct Corrupt: Error, Equatable {
        package var reason: String

        package init(reason: String) {
            self.reason = reason
        }
    }

    static func encode(_ entries: [TagIndexEntry]) -> [UInt8] {
        var body = ByteWriter()
        for entry in entries { encode(entry, into: &body) }
        var file = ByteWriter()
        file.bytes += magic
        file.u32(version)
        file.u32(UInt32(entries.count))
        file.u64(UInt64(body.bytes.count))
        file.u64(checksum(body.bytes[...]))
        return file.bytes + body.bytes
    }

    /// Whether `entry` survives a round trip within the caps (a track with a 1 MB title or
    /// 10 000 artists is simply not indexed: it is read from its file each time).
    static func isStorable(_ entry: TagIndexEntry) -> Bool {
        let t = entry.track
        let texts = [t.title, t.album, t.date].compactMap { $0 } + t.artists + t.albumArtists + t.genres + t.moreTags.map(\.value)
        let gain = t.replayGain
        let format = t.audioFormat
        return entry.key.path.count <= maximumPath && !entry.key.path.isEmpty
            && texts.allSatisfy { $0.utf8.count <= maximumText }
            && [t.artists, t.albumArtists, t.genres].allSatisfy { $0.count <= maximumValues }
            && (t.length ?? 0) >= 0 && (t.trackNumber ?? 1) > 0 && (t.discNumber ?? 1) > 0
            && [gain?.trackGain, gain?.albumGain].allSatisfy { $0.map(ReplayGainTags.plausibleGain.contains) ?? true }
            && [gain?.trackPeak, gain?.albumPeak].allSatisfy { $0.map(ReplayGainTags.plausiblePeak.contains) ?? true }
            && t.moreTags.count <= maximumMoreTags
            && format.map { Self.sampleRates.contains($0.sampleRate) && Self.channelCounts.contains($0.channels)
                && ($0.bitsPerSample.map(Self.sampleSizes.contains) ?? true) } ?? true
    }

    /// What an `AudioFormatFacts` may hold in the file (a rate in 32 bits, bits and channels
    /// in 8, 0 bits meaning float).
    static let sampleRates = 1...Int(UInt32.max)
    static let sampleSizes = 1...Int(UInt8.max)
    static let channelCounts = 1...Int(UInt8.max)

    /// Bytes one entry takes in the file (to keep the file under its size bound).
    static func encodedSize(_ entry: TagIndexEntry) -> Int {
        var writer = ByteWriter()
        encode(entry, into: &writer)
        return writer.bytes.count
    }

    static func decode(_ bytes: [UInt8], maximumEntries: Int) throws(Corrupt) -> [TagIndexEntry] {
        guard bytes.count >= headerLength, bytes.starts(with: magic) else { throw Corrupt(reason: "not a tag index") }
        var header = IndexReader(bytes[magic.count..<headerLength])
        let version = try header.u32(), count = Int(try header.u32())
        let bodyLength = try header.u64(), sum = try header.u64()
        guard version == Self.version else { throw Corrupt(reason: "version \(version)") }
        guard count <= maximumEntries else { throw Corrupt(reason: "\(count) entries") }
        guard bodyLength == UInt64(bytes.count - headerLength) else { throw Corrupt(reason: "truncated or padded") }
        let body = bytes[headerLength...]
        guard checksum(body) == sum else { throw Corrupt(reason: "checksum mismatch") }
        var reader = IndexReader(body)
        var entries: [TagIndexEntry] = []
        entries.reserveCapacity(min(count, bytes.count / 40))
        for _ in 0..<count { entries.append(try decodeEntry(&reader)) }
        guard reader.isAtEnd else { throw Corrupt(reason: "bytes after the last entry") }
        return entries
    }

    // MARK: Entries

    private enum Field: UInt16 {
        case title = 1, album = 2, trackNumber = 4, discNumber = 8, date = 16, length = 32, lengthIsEstimate = 64,
             trackGain = 128, trackPeak = 256, albumGain = 512, albumPeak = 1024, audioFormat = 2048
    }

    private static func encode(_ entry: TagIndexEntry, into w: inout ByteWriter) {
        let t = entry.track, gain = t.replayGain
        w.data(entry.key.path)
        w.u64(entry.key.size)
        w.u64(UInt64(bitPattern: entry.key.modificationNanoseconds))
        w.u64(entry.key.inode)
        w.u64(entry.lastUsed)
        var present: UInt16 = 0
        func mark(_ field: Field, _ isThere: Bool) { if isThere { present |= field.rawValue } }
        mark(.title, t.title != nil); mark(.album, t.album != nil); mark(.trackNumber, t.trackNumber != nil)
        mark(.discNumber, t.discNumber != nil); mark(.date, t.date != nil); mark(.length, t.length != nil)
        mark(.lengthIsEstimate, t.lengthIsEstimate); mark(.trackGain, gain?.trackGain != nil)
        mark(.trackPeak, gain?.trackPeak != nil); mark(.albumGain, gain?.albumGain != nil); mark(.albumPeak, gain?.albumPeak != nil)
        mark(.audioFormat, t.audioFormat != nil)
        w.u16(present)
        if let title = t.title { w.text(title) }
        w.texts(t.artists)
        if let album = t.album { w.text(album) }
        w.texts(t.albumArtists)
        w.texts(t.genres)
        if let number = t.trackNumber { w.u64(UInt64(bitPattern: Int64(number))) }
        if let number = t.discNumber { w.u64(UInt64(bitPattern: Int64(number))) }
        if let date = t.date { w.text(date) }
        if let length = t.length { w.u64(UInt64(bitPattern: length)) }
        for value in [gain?.trackGain, gain?.trackPeak, gain?.albumGain, gain?.albumPeak] {
            if let value { w.u64(value.bitPattern) }
        }
        // A kind by its MPD name: a kind added to TagKind needs nothing here, and a name this
        // build does not know (a newer build's file) rejects the file.
        w.u16(UInt16(clamping: t.moreTags.count))
        for tag in t.moreTags.prefix(Int(UInt16.max)) {
            w.text(tag.kind.rawValue)
            w.text(tag.value)
        }
        if let format = t.audioFormat {
            w.u32(UInt32(clamping: format.sampleRate))
            w.u8(UInt8(clamping: format.bitsPerSample ?? 0))
            w.u8(UInt8(clamping: format.channels))
        }
    }

    private static func decodeEntry(_ r: inout IndexReader) throws(Corrupt) -> TagIndexEntry {
        let pathBytes = try r.data(limit: maximumPath)
        guard let path = FilePath(bytes: pathBytes), !pathBytes.isEmpty else { throw Corrupt(reason: "bad path") }
        let key = TagIndexKey(path: pathBytes, size: try r.u64(), modificationNanoseconds: Int64(bitPattern: try r.u64()),
                              inode: try r.u64())
        let lastUsed = try r.u64()
        let present = try r.u16()
        func has(_ field: Field) -> Bool { present & field.rawValue != 0 }
        var track = Track(path: path)
        if has(.title) { track.title = try r.text() }
        track.artists = try r.texts()
        if has(.album) { track.album = try r.text() }
        track.albumArtists = try r.texts()
        track.genres = try r.texts()
        if has(.trackNumber) { track.trackNumber = try r.number() }
        if has(.discNumber) { track.discNumber = try r.number() }
        if has(.date) { track.date = try r.text() }
        if has(.length) {
            let length = Int64(bitPattern: try r.u64())
            guard length >= 0 else { throw Corrupt(reason: "negative length") }
            track.length = length
        }
        track.lengthIsEstimate = has(.lengthIsEstimate)
        var gain = ReplayGainTags()
        if has(.trackGain) { gain.trackGain = try r.double(in: ReplayGainTags.plausibleGain) }
        if has(.trackPeak) { gain.trackPeak = try r.double(in: ReplayGainTags.plausiblePeak) }
        if has(.albumGain) { gain.albumGain = try r.double(in: ReplayGainTags.plausibleGain) }
        if has(.albumPeak) { gain.albumPeak = try r.double(in: ReplayGainTags.plausiblePeak) }
        if gain != ReplayGainTags() { track.replayGain = gain }
        track.moreTags = try decodeMoreTags(&r)
        if has(.audioFormat) {
            let rate = Int(try r.u32()), bits = Int(try r.u8()), channels = Int(try r.u8())
            guard sampleRates.contains(rate), channelCounts.contains(channels) else {
                throw Corrupt(reason: "format \(rate):\(bits):\(channels)")
            }
            track.audioFormat = AudioFormatFacts(sampleRate: rate, bitsPerSample: bits > 0 ? bits : nil, channels: channels)
        }
        return TagIndexEntry(key: key, track: track, lastUsed: lastUsed)
    }

    private static func decodeMoreTags(_ r: inout IndexReader) throws(Corrupt) -> [TagValue] {
        let count = Int(try r.u16())
        guard count <= maximumMoreTags else { throw Corrupt(reason: "\(count) more tags") }
        var tags: [TagValue] = []
        for _ in 0..<count {
            let name = String(decoding: try r.data(limit: maximumKindName), as: UTF8.self)
            guard let kind = TagKind(rawValue: name) else { throw Corrupt(reason: "unknown tag kind") }
            tags.append(TagValue(kind, try r.text()))
        }
        return tags
    }

    /// FNV-1a, 64 bits: catches a flipped or lost byte; not a defence against forgery (the
    /// file only ever names tags of files that are re-checked by their key anyway).
    package static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }
}

/// Appends big-endian fields.
package struct ByteWriter {
    package var bytes: [UInt8] = []

    package init() {}

    package mutating func u8(_ value: UInt8) { bytes.append(value) }
    package mutating func u16(_ value: UInt16) { bytes += [UInt8(value >> 8), UInt8(value & 0xFF)] }
    package mutating func u32(_ value: UInt32) { for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8((value >> UInt32(shift)) & 0xFF)) } }
    package mutating func u64(_ value: UInt64) { for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((value >> UInt64(shift)) & 0xFF)) } }
    package mutating func data(_ data: [UInt8]) { u32(UInt32(data.count)); bytes += data }
    /// Callers check `TagIndexCoding.isStorable` first: the caps are not applied here.
    mutating func text(_ text: String) { data(Array(text.utf8)) }
    mutating func texts(_ texts: [String]) {
        u16(UInt16(clamping: texts.count))
        for text in texts.prefix(Int(UInt16.max)) { self.text(text) }
    }
}

/// Reads big-endian fields, throwing `Corrupt` instead of reading past the end.
package struct IndexReader {
    private let bytes: ArraySlice<UInt8>
    private var offset: Int

    package init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        offset = bytes.startIndex
    }

    package var isAtEnd: Bool { offset == bytes.endIndex }

    private mutating func take(_ count: Int) throws(TagIndexCoding.Corrupt) -> ArraySlice<UInt8> {
        guard count >= 0, bytes.endIndex - offset >= count else { throw .init(reason: "truncated entry") }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    private mutating func unsigned(_ width: Int) throws(TagIndexCoding.Corrupt) -> UInt64 {
        try take(width).reduce(0) { $0 << 8 | UInt64($1) }
    }

    package mutating func u8() throws(TagIndexCoding.Corrupt) -> UInt8 { UInt8(try unsigned(1)) }
    package mutating func u16() throws(TagIndexCoding.Corrupt) -> UInt16 { UInt16(try unsigned(2)) }
    package mutating func u32() throws(TagIndexCoding.Corrupt) -> UInt32 { UInt32(try unsigned(4)) }
    package mutating func u64() throws(TagIndexCoding.Corrupt) -> UInt64 { try unsigned(8) }

    package mutating func data(limit: Int) throws(TagIndexCoding.Corrupt) -> [UInt8] {
        let count = Int(try u32())
        guard count <= limit else { throw .init(reason: "field of \(count) bytes") }
        return Array(try take(count))
    }

    mutating func text() throws(TagIndexCoding.Corrupt) -> String {
        let bytes = try data(limit: TagIndexCoding.maximumText)
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .init(reason: "text not UTF-8") }
        return text
    }

    mutating func texts() throws(TagIndexCoding.Corrupt) -> [String] {
        let count = Int(try u16())
        guard count <= TagIndexCoding.maximumValues else { throw .init(reason: "\(count) values") }
        var result: [String] = []
        for _ in 0..<count { result.append(try text()) }
        return result
    }

    mutating func number() throws(TagIndexCoding.Corrupt) -> Int {
        let value = Int64(bitPattern: try u64())
        guard value > 0, value <= Int64(Int.max) else { throw .init(reason: "number \(value)") }
        return Int(value)
    }

    mutating func double(in range: ClosedRange<Double>) throws(TagIndexCoding.Corrupt) -> Double {
        let value = Double(bitPattern: try u64())
        guard value.isFinite, range.contains(value) else { throw .init(reason: "value \(value)") }
        return value
    }
}
