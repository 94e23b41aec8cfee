import Testing
import PlayerCore

/// `FilePath` keeps a path's bytes exactly and shows them as text without losing the
/// readable parts (issue 10, finding 4).
@Suite struct FilePathTests {
    static let latin1Name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".mp3".utf8)

    @Test func keepsBytesThatAreNotUTF8() {
        let path = FilePath(bytes: Array("/music/".utf8) + Self.latin1Name)!
        #expect(path.bytes.count == 15)
        #expect(!path.isValidUTF8)
        // A String would have replaced 0xE9 by U+FFFD (three bytes): another file.
        #expect(Array(String(decoding: path.bytes, as: UTF8.self).utf8) != path.bytes)
        path.withCString { cString in
            var length = 0
            while cString[length] != 0 { length += 1 }
            #expect(length == path.bytes.count)
            #expect(UInt8(bitPattern: cString[10]) == 0xE9)
        }
    }

    @Test func refusesNUL() {
        #expect(FilePath(bytes: [0x2F, 0x61, 0x00, 0x62]) == nil)
        let withNUL = "/a\0b", plain = "/a"
        #expect(FilePath(withNUL) == nil)
        #expect(FilePath(plain) != nil)
    }

    @Test func displaysLatin1ComponentsAsWindows1252() {
        let path = FilePath(bytes: Array("/Música/".utf8) + Self.latin1Name)!
        // The UTF-8 folder stays as it is; only the Latin-1 name is read as Windows-1252.
        #expect(path.displayString == "/Música/café.mp3")
        #expect(path.lastComponent.displayString == "café.mp3")
        #expect(path.stem == "café")
        #expect(path.fileExtension == "mp3")
        // 0x80–0x9F are Windows-1252 punctuation; its holes are U+FFFD.
        #expect(FilePath.displayString(of: [0x93, 0x41, 0x94, 0x80, 0x81]) == "\u{201C}A\u{201D}€\u{FFFD}")
        #expect(FilePath.displayString(of: Array("plain ü".utf8)) == "plain ü")
    }

    @Test func trackTitleOfALatin1NameIsLatin1() {
        let track = Track(path: FilePath(bytes: Array("/music/".utf8) + Self.latin1Name)!)
        #expect(track.displayTitle == "café")
    }

    @Test func components() {
        let path: FilePath = "/a/b/Mix.M3U8"
        #expect(path.parent == "/a/b")
        #expect(path.lastComponent == "Mix.M3U8")
        #expect(path.hasExtension(in: ["m3u8"]))
        #expect(!FilePath("/a/.hidden").hasExtension(in: ["hidden"]))
        #expect(FilePath("/a/.hidden").isHidden)
        #expect(FilePath("/x").parent == "/")
        #expect(FilePath("x").parent == ".")
        #expect(FilePath("/").lastComponent.isEmpty)
        #expect(FilePath("/a/").appending("b") == "/a/b")
        #expect(FilePath("/a").appending("b/c") == "/a/b/c")
        #expect(path.components == ["a", "b", "Mix.M3U8"])
    }

    @Test func lexicalNormalization() {
        #expect(FilePath("//a/./b/../c//d/").lexicallyNormalized == "/a/c/d")
        #expect(FilePath("/../a").lexicallyNormalized == "/a")
        #expect(FilePath("../a/./b/..").lexicallyNormalized == "../a")
        #expect(FilePath("sub/x.mp3").resolved(against: "/lists") == "/lists/sub/x.mp3")
        #expect(FilePath("/abs.mp3").resolved(against: "/lists") == "/abs.mp3")
        let latin1 = FilePath(bytes: Array("../".utf8) + Self.latin1Name)!
        #expect(latin1.resolved(against: "/m/lists").bytes == Array("/m/".utf8) + Self.latin1Name)
    }
}
