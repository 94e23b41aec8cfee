import Testing
@testable import Mpg123Kit

/// UFID frames from an ID3v2 tag's raw bytes (libmpg123 does not parse them): every version's
/// frame layout, unsynchronisation, extended headers, and hostile bytes that must neither trap
/// nor be believed.
@Suite struct RawID3v2TagTests {
    static let owner = Array("http://musicbrainz.org".utf8)
    static let recording = Array("9e3a5f3c-0000-4000-8000-000000000001".utf8)

    static func syncsafe(_ n: Int) -> [UInt8] {
        [UInt8((n >> 21) & 0x7F), UInt8((n >> 14) & 0x7F), UInt8((n >> 7) & 0x7F), UInt8(n & 0x7F)]
    }

    static func bigEndian(_ n: Int) -> [UInt8] {
        [UInt8((n >> 24) & 0xFF), UInt8((n >> 16) & 0xFF), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)]
    }

    /// A v2.3 (`major` 3) or v2.4 frame.
    static func frame(_ id: String, _ body: [UInt8], major: UInt8 = 4, flags: UInt8 = 0) -> [UInt8] {
        Array(id.utf8) + (major == 4 ? syncsafe(body.count) : bigEndian(body.count)) + [0, flags] + body
    }

    static func tag(major: UInt8 = 4, flags: UInt8 = 0, _ body: [UInt8]) -> [UInt8] {
        Array("ID3".utf8) + [major, 0, flags] + syncsafe(body.count) + body
    }

    static func ufid(_ owner: [UInt8] = owner, _ identifier: [UInt8] = recording) -> [UInt8] {
        owner + [0] + identifier
    }

    static func read(_ bytes: [UInt8]) -> [ID3UniqueFileID] {
        bytes.withUnsafeBytes { RawID3v2Tag($0).uniqueFileIDs() }
    }

    static let expected = ID3UniqueFileID(owner: "http://musicbrainz.org", identifier: recording)

    @Test func v24FramesAmongOthersWithPadding() {
        let body = Self.frame("TIT2", [3] + Array("Title".utf8)) + Self.frame("UFID", Self.ufid())
            + Self.frame("UFID", Self.ufid(Array("http://example.org".utf8), [1, 2, 3])) + [UInt8](repeating: 0, count: 64)
        #expect(Self.read(Self.tag(body)) == [Self.expected, ID3UniqueFileID(owner: "http://example.org", identifier: [1, 2, 3])])
    }

    @Test func v24FrameFlagsGroupingLengthIndicatorAndUnsynchronisation() {
        // Identifier a, FF, E0 stored unsynchronised as a, FF, 00, E0, after a group id and a
        // data length indicator.
        let plain = Self.ufid(Self.owner, [0x61, 0xFF, 0xE0])
        let stored = [7] + Self.syncsafe(plain.count) + Self.ufid(Self.owner, [0x61, 0xFF, 0x00, 0xE0])
        let tag = Self.tag(Self.frame("UFID", stored, flags: 0x40 | 0x02 | 0x01))
        #expect(Self.read(tag) == [ID3UniqueFileID(owner: "http://musicbrainz.org", identifier: [0x61, 0xFF, 0xE0])])
        // Compressed or encrypted: skipped, and the walk goes on.
        for flags: UInt8 in [0x08, 0x04] {
            let skipped = Self.tag(Self.frame("UFID", [0, 0, 0, 9] + Self.ufid(), flags: flags) + Self.frame("UFID", Self.ufid()))
            #expect(Self.read(skipped) == [Self.expected])
        }
    }

    @Test func v24SizesWrittenAsPlainIntegers() {
        // iTunes: 200 as 00 00 00 C8, not syncsafe.
        let identifier = [UInt8](repeating: 0x41, count: 200 - Self.owner.count - 1)
        let body = Self.ufid(Self.owner, identifier)
        let frame = Array("UFID".utf8) + Self.bigEndian(body.count) + [0, 0] + body
        // 200 bytes is more than a UFID may hold (64 of identifier): read past, not believed.
        #expect(Self.read(Self.tag(frame + Self.frame("UFID", Self.ufid()))) == [Self.expected])
    }

    @Test func v23WithExtendedHeaderAndWholeTagUnsynchronisation() {
        let identifier: [UInt8] = [0xFF, 0xFB, 0x41]
        let frames = Self.frame("TPE1", [0] + Array("Ann".utf8), major: 3) + Self.frame("UFID", Self.ufid(Self.owner, identifier), major: 3)
            + Self.frame("UFID", [0x42] + Self.ufid(Self.owner, [0x43]), major: 3, flags: 0x20)
        let extended = Self.bigEndian(6) + [0, 0, 0, 0, 0, 0]
        var unsynchronised: [UInt8] = []
        for byte in extended + frames {
            unsynchronised.append(byte)
            if byte == 0xFF { unsynchronised.append(0) }
        }
        let tag = Self.tag(major: 3, flags: 0x80 | 0x40, unsynchronised)
        #expect(Self.read(tag) == [ID3UniqueFileID(owner: "http://musicbrainz.org", identifier: identifier),
                                   ID3UniqueFileID(owner: "http://musicbrainz.org", identifier: [0x43])])
        // v2.3 compression (0x80) or encryption (0x40): skipped.
        #expect(Self.read(Self.tag(major: 3, Self.frame("UFID", Self.ufid(), major: 3, flags: 0x80))).isEmpty)
    }

    @Test func v22ThreeLetterFrames() {
        let body = Self.ufid()
        let frames = Array("TT2".utf8) + [0, 0, 4, 0] + Array("Abc".utf8)
            + Array("UFI".utf8) + [0, 0, UInt8(body.count)] + body
        #expect(Self.read(Self.tag(major: 2, frames)) == [Self.expected])
        #expect(Self.read(Self.tag(major: 2, flags: 0x40, frames)).isEmpty, "v2.2 compression")
    }

    @Test func unreadableUFIDsAreNotBelieved() {
        let bad: [[UInt8]] = [
            [0] + Self.recording,  // no owner
            Self.owner,  // no NUL, no identifier
            Self.owner + [0],  // an empty identifier
            Self.ufid(Self.owner, [UInt8](repeating: 0x41, count: 65)),  // longer than the standard allows
        ]
        for body in bad {
            #expect(Self.read(Self.tag(Self.frame("UFID", body) + Self.frame("UFID", Self.ufid()))) == [Self.expected])
        }
    }

    @Test func hostileBytesNeitherTrapNorAreBelieved() {
        let good = Self.tag(Self.frame("TIT2", [3, 0x41]) + Self.frame("UFID", Self.ufid()))
        #expect(Self.read(good) == [Self.expected])
        // Every cut: a frame that does not fit ends the walk.
        for cut in 0..<good.count { #expect(Self.read(Array(good.prefix(cut))).isEmpty) }
        // Sizes past the end, a header size that is not syncsafe, another magic, version 5.
        #expect(Self.read(Self.tag(Array("UFID".utf8) + [0x7F, 0x7F, 0x7F, 0x7F, 0, 0] + Self.ufid())).isEmpty)
        #expect(Self.read(Array("ID3".utf8) + [4, 0, 0, 0x80, 0, 0, 0] + Self.frame("UFID", Self.ufid())).isEmpty)
        #expect(Self.read(Array("ID4".utf8) + Array(good.dropFirst(3))).isEmpty)
        #expect(Self.read([UInt8](good.prefix(3)) + [5] + Array(good.dropFirst(4))).isEmpty)
        // A declared size beyond the bytes there: what is there is read.
        #expect(Self.read(Array("ID3".utf8) + [4, 0, 0] + Self.syncsafe(1 << 27) + Array(good.dropFirst(10))) == [Self.expected])
        // An extended header that claims the whole tag, or less than nothing.
        #expect(Self.read(Self.tag(flags: 0x40, Self.syncsafe(1 << 20) + Self.frame("UFID", Self.ufid()))).isEmpty)
        #expect(Self.read(Self.tag(flags: 0x40, Self.syncsafe(2) + Self.frame("UFID", Self.ufid()))).isEmpty)
        // Random bytes after a valid header.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let noise = (0..<Int.random(in: 0...300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = Self.read(Self.tag(major: UInt8.random(in: 2...4), flags: UInt8.random(in: 0...255), noise))
        }
    }

    @Test func theWalkIsBounded() {
        // 100 UFIDs: 16 kept.
        let many = Self.tag((0..<100).flatMap { _ in Self.frame("UFID", Self.ufid()) })
        #expect(Self.read(many).count == RawID3v2Tag.uniqueFileIDLimit)
        // A UFID after more frames than the walk looks at is not found.
        let crowd = (0..<RawID3v2Tag.frameLimit).flatMap { _ in Self.frame("TXXX", [0]) }
        #expect(Self.read(Self.tag(crowd + Self.frame("UFID", Self.ufid()))).isEmpty)
        // A 10 MB frame in front is skipped, not copied.
        let big = Self.frame("APIC", [UInt8](repeating: 0xFF, count: 10 << 20)) + Self.frame("UFID", Self.ufid())
        #expect(Self.read(Self.tag(big)) == [Self.expected])
    }
}
