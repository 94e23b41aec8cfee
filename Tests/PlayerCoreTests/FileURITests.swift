import Testing
import PlayerCore

@Suite struct FileURITests {
    @Test func encodesEverythingButUnreservedAndSlash() {
        #expect(FileURI.uri(forPath: "/music/a-b_c.~d/x.mp3") == "file:///music/a-b_c.~d/x.mp3")
        #expect(FileURI.uri(forPath: "/a b/ü%#?&+.mp3") == "file:///a%20b/%C3%BC%25%23%3F%26%2B.mp3")
    }

    @Test func decodes() {
        #expect(FileURI.path(fromFileURI: "file:///a%20b/%C3%BC.mp3") == "/a b/ü.mp3")
        #expect(FileURI.path(fromFileURI: "FILE://localhost/x.mp3") == "/x.mp3")
        #expect(FileURI.path(fromFileURI: "file:/x.mp3") == "/x.mp3")
        #expect(FileURI.path(fromFileURI: "file:///x.mp3#fragment") == "/x.mp3")
        #expect(FileURI.path(fromFileURI: "file:///ü raw.mp3") == "/ü raw.mp3")
    }

    @Test(arguments: ["http://host/x.mp3", "file://otherhost/x.mp3", "file:///bad%2", "file:///bad%zz",
                      "file:///nul%00.mp3", "file:relative.mp3", "/plain/path", ""])
    func rejects(_ uri: String) {
        #expect(FileURI.path(fromFileURI: uri) == nil)
    }

    @Test func roundTrip() {
        for path: FilePath in ["/", "/a", "/Música/Ä & Ö/01 — intro (live) [2009].mp3", "/tab\there"] {
            #expect(FileURI.path(fromFileURI: FileURI.uri(for: path)) == path)
        }
    }

    // MARK: Bytes that are not UTF-8 (issue 10, finding 4)

    /// "café.mp3" in Latin-1.
    static let latin1 = FilePath(bytes: Array("/music/caf".utf8) + [0xE9] + Array(".mp3".utf8))!

    @Test func latin1NameIsEncodedAsItsByte() {
        #expect(FileURI.uri(for: Self.latin1) == "file:///music/caf%E9.mp3")
        #expect(FileURI.path(fromFileURI: "file:///music/caf%E9.mp3") == Self.latin1)
        #expect(FileURI.path(fromFileURI: "file:///music/caf%e9.mp3") == Self.latin1)
        // The UTF-8 name is another file.
        #expect(FileURI.path(fromFileURI: "file:///music/caf%C3%A9.mp3") != Self.latin1)
    }

    @Test func invalidUTF8EscapesDecodeToTheirBytes() {
        #expect(FileURI.path(fromFileURI: "file:///%FF%FE.mp3")?.bytes == [0x2F, 0xFF, 0xFE] + Array(".mp3".utf8))
    }

    @Test func everyByteRoundTrips() {
        // Every byte but NUL and "/" in a name, in each position; and seeded random names.
        let all = FilePath(bytes: [0x2F] + (1...255).filter { $0 != 0x2F }.map(UInt8.init))!
        #expect(FileURI.path(fromFileURI: FileURI.uri(for: all)) == all)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<500 {
            var bytes: [UInt8] = [0x2F]
            for _ in 0..<Int(state % 40) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let byte = UInt8(truncatingIfNeeded: state >> 56)
                bytes.append(byte == 0 ? 0x2F : byte)
            }
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let path = FilePath(bytes: bytes)!
            let uri = FileURI.uri(for: path)
            let isASCII = uri.unicodeScalars.allSatisfy(\.isASCII)
            #expect(isASCII, "\(uri)")
            #expect(FileURI.path(fromFileURI: uri) == path, "\(bytes) → \(uri)")
        }
    }

    @Test func rawBytesInAPlaylistURIAreTakenAsTheyAre() {
        let line: [UInt8] = Array("file:///music/caf".utf8) + [0xE9] + Array(".mp3".utf8)
        #expect(FileURI.path(fromFileURIBytes: line) == Self.latin1)
        #expect(FileURI.path(fromFileURIBytes: Array("file:///a\0b".utf8)) == nil)
    }
}
