internal import CMpg123

/// An ID3v2 tag's bytes as the file holds them (`mpg123_id3_raw`), walked for the frames
/// libmpg123 does not parse itself: UFID.
///
/// The bytes are the file's, so hostile: every length is checked against what is left, the
/// walk stops at the first frame that does not fit, at most `frameLimit` frames are looked
/// at, and only UFID bodies are ever copied (a few dozen bytes each; a 10 MB picture frame is
/// skipped, not copied). Compressed and encrypted frames are skipped: no real tagger writes a
/// UFID so, and inflating hostile bytes is not worth a recording id.
///
/// Layout (id3.org, ID3v2.2/2.3/2.4): a 10-byte header ("ID3", version, revision, flags, a
/// syncsafe size), perhaps an extended header, then frames: 3-byte id and 24-bit size in
/// v2.2; 4-byte id, 32-bit size (syncsafe in v2.4) and two flag bytes in v2.3 and v2.4.
/// Unsynchronisation (a 0x00 after every 0xFF) covers the whole tag in v2.2 and v2.3, and is
/// per frame in v2.4.
struct RawID3v2Tag {
    /// Frames looked at before the walk gives up (real tags have a few dozen).
    static let frameLimit = 4_096
    /// UFID frames kept (real files have one or two).
    static let uniqueFileIDLimit = 16
    /// The largest UFID body read: an owner of up to 255 bytes, a NUL, 64 bytes of identifier,
    /// and the few bytes v2.4's frame flags may put in front.
    static let uniqueFileIDBodyLimit = 255 + 1 + 64 + 9
    /// The identifier's largest size, as the standard allows.
    static let identifierLimit = 64

    private let bytes: UnsafeRawBufferPointer

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The UFID frames, in tag order; none when the bytes are not an ID3v2 tag we can walk.
    func uniqueFileIDs() -> [ID3UniqueFileID] {
        guard bytes.count >= 10, bytes[0] == 0x49, bytes[1] == 0x44, bytes[2] == 0x33 else { return [] }
        let major = bytes[3], flags = bytes[5]
        guard (2...4).contains(major), bytes[4] != 0xFF,
              let size = Self.syncsafe(bytes[6], bytes[7], bytes[8], bytes[9]) else { return [] }
        // v2.2's bit 6 is its (never specified) compression: nothing to read.
        if major == 2 && flags & 0x40 != 0 { return [] }
        let end = 10 + min(size, bytes.count - 10)
        var cursor = Cursor(bytes, from: 10, to: end, unsynchronised: major < 4 && flags & 0x80 != 0)
        if major >= 3 && flags & 0x40 != 0 {
            guard let header = cursor.read(4) else { return [] }
            // v2.3 counts the bytes after the size; v2.4 (syncsafe) counts the size too.
            let length = major == 3 ? Self.bigEndian(header) : Self.syncsafe(header[0], header[1], header[2], header[3]).map { $0 - 4 }
            guard let length, length >= 0, cursor.skip(length) else { return [] }
        }
        var found: [ID3UniqueFileID] = []
        for _ in 0..<Self.frameLimit {
            guard found.count < Self.uniqueFileIDLimit else { break }
            switch nextFrame(&cursor, major: major) {
            case .end: return found
            case .other: continue
            case .uniqueFileID(let id): found.append(id)
            }
        }
        return found
    }

    /// What one step of the walk found.
    private enum Frame {
        /// Padding, junk where a frame id should be, or a frame that does not fit.
        case end
        /// Another frame, or a UFID that cannot be read (compressed, malformed).
        case other
        case uniqueFileID(ID3UniqueFileID)
    }

    private func nextFrame(_ cursor: inout Cursor, major: UInt8) -> Frame {
        let headerLength = major == 2 ? 6 : 10
        guard let header = cursor.read(headerLength) else { return .end }
        let idLength = major == 2 ? 3 : 4
        // Padding (zeros) or junk where the next frame id should be: the frames are over.
        guard header.prefix(idLength).allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }) else { return .end }
        let size: Int?
        switch major {
        case 2: size = Int(header[3]) << 16 | Int(header[4]) << 8 | Int(header[5])
        // iTunes wrote v2.4 sizes as plain integers: a byte with its top bit set cannot be syncsafe.
        case 4: size = Self.syncsafe(header[4], header[5], header[6], header[7]) ?? Self.bigEndian(header[4..<8])
        default: size = Self.bigEndian(header[4..<8])
        }
        guard let size, size <= cursor.remainingAtMost else { return .end }
        let isUniqueFileID = header.prefix(idLength).elementsEqual((major == 2 ? "UFI" : "UFID").utf8)
        guard isUniqueFileID, size <= Self.uniqueFileIDBodyLimit else { return cursor.skip(size) ? .other : .end }
        guard var body = cursor.read(size) else { return .end }
        if major >= 3 {
            guard Self.strip(flags: header[9], major: major, from: &body) else { return .other }
        }
        return Self.uniqueFileID(body).map(Frame.uniqueFileID) ?? .other
    }

    /// Takes the bytes the frame's format flags put in front of its body away, and undoes its
    /// own unsynchronisation (v2.4); false for a compressed or encrypted frame.
    private static func strip(flags: UInt8, major: UInt8, from body: inout [UInt8]) -> Bool {
        var skipped = 0
        if major == 3 {
            guard flags & 0xC0 == 0 else { return false }
            if flags & 0x20 != 0 { skipped += 1 }  // group id
        } else {
            guard flags & 0x0C == 0 else { return false }
            if flags & 0x40 != 0 { skipped += 1 }  // group id
            if flags & 0x01 != 0 { skipped += 4 }  // data length indicator
        }
        guard skipped <= body.count else { return false }
        body.removeFirst(skipped)
        if major == 4 && flags & 0x02 != 0 {
            var plain: [UInt8] = []
            plain.reserveCapacity(body.count)
            for (index, byte) in body.enumerated() where !(byte == 0 && index > 0 && body[index - 1] == 0xFF) {
                plain.append(byte)
            }
            body = plain
        }
        return true
    }

    /// Owner (Latin-1, NUL-terminated), then the identifier: nil without an owner, without an
    /// identifier, or with one longer than the standard's 64 bytes.
    private static func uniqueFileID(_ body: [UInt8]) -> ID3UniqueFileID? {
        guard let nul = body.firstIndex(of: 0), nul > 0 else { return nil }
        let identifier = Array(body[(nul + 1)...])
        guard !identifier.isEmpty, identifier.count <= identifierLimit else { return nil }
        var owner = String.UnicodeScalarView()
        owner.append(contentsOf: body[..<nul].map { Unicode.Scalar($0) })
        return ID3UniqueFileID(owner: String(owner), identifier: identifier)
    }

    private static func syncsafe(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> Int? {
        guard (a | b | c | d) & 0x80 == 0 else { return nil }
        return Int(a) << 21 | Int(b) << 14 | Int(c) << 7 | Int(d)
    }

    private static func bigEndian(_ four: some Collection<UInt8>) -> Int? {
        guard four.count == 4 else { return nil }
        return four.reduce(0) { $0 << 8 | Int($1) }
    }

    /// Reads forward through the tag, undoing whole-tag unsynchronisation on the way (then
    /// byte by byte: it never copies what it skips).
    private struct Cursor {
        let bytes: UnsafeRawBufferPointer
        var offset: Int
        let end: Int
        let unsynchronised: Bool

        init(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int, unsynchronised: Bool) {
            self.bytes = bytes
            offset = start
            self.end = end
            self.unsynchronised = unsynchronised
        }

        /// At least as many bytes as are left once unsynchronisation is undone.
        var remainingAtMost: Int { end - offset }

        mutating func read(_ count: Int) -> [UInt8]? {
            guard count >= 0, count <= remainingAtMost else { return nil }
            var result: [UInt8] = []
            result.reserveCapacity(count)
            while result.count < count {
                guard let byte = next() else { return nil }
                result.append(byte)
            }
            return result
        }

        mutating func skip(_ count: Int) -> Bool {
            guard count >= 0, count <= remainingAtMost else { return false }
            guard unsynchronised else {
                offset += count
                return true
            }
            for _ in 0..<count {
                guard next() != nil else { return false }
            }
            return true
        }

        private mutating func next() -> UInt8? {
            guard offset < end else { return nil }
            let byte = bytes[offset]
            offset += 1
            if unsynchronised, byte == 0xFF, offset < end, bytes[offset] == 0 { offset += 1 }
            return byte
        }
    }
}

extension Mpg123Handle {
    /// The UFID frames of the ID3v2 tag libmpg123 kept (`mpg123_id3_raw`; only with
    /// `Mpg123Flags.rawID3`, once the first frame was parsed); none when it kept no tag.
    func rawUniqueFileIDs() throws(Mpg123Error) -> [ID3UniqueFileID] {
        var v1: UnsafeMutablePointer<UInt8>? = nil, v2: UnsafeMutablePointer<UInt8>? = nil
        var v1Size = 0, v2Size = 0
        let rc = mpg123_id3_raw(rawHandle, &v1, &v1Size, &v2, &v2Size)
        guard rc == MPG123_OK.rawValue else {
            throw Mpg123Error(function: "mpg123_id3_raw", code: rc, handle: rawHandle)
        }
        guard let v2, v2Size > 0 else { return [] }
        return RawID3v2Tag(UnsafeRawBufferPointer(start: v2, count: v2Size)).uniqueFileIDs()
    }
}
