import Foundation
import PlayerCore
import Testing
@testable import Library
@testable import TestSupport

/// File names are bytes (issue 10, finding 4): folders, playlist lines and URIs keep them.
@Suite struct BytePathLoadingTests {
    let loader = QueueLoader(reader: fakeReader)

    /// "café" in Latin-1.
    static let cafeLatin1: [UInt8] = Array("caf".utf8) + [0xE9]

    @Test func folderListingKeepsLatin1Names() throws {
        let root = try Fixtures.makeDirectory()
        defer { Fixtures.remove(root) }
        try Fixtures.write([], toPathBytes: Array((root + "/").utf8) + Self.cafeLatin1 + Array(".mp3".utf8))
        try touch(root, ["b.mp3"])
        let (tracks, problems) = loader.load([root])
        #expect(problems.isEmpty)
        #expect(tracks.compactMap(\.path?.bytes) == [Array((root + "/b.mp3").utf8),
                                             Array((root + "/").utf8) + Self.cafeLatin1 + Array(".mp3".utf8)])
        #expect(tracks.last?.displayTitle == "café")
    }

    @Test func latin1PlaylistLineNamesALatin1File() throws {
        let root = try Fixtures.makeDirectory()
        defer { Fixtures.remove(root) }
        let name = Self.cafeLatin1 + Array(".mp3".utf8)
        try Fixtures.write([], toPathBytes: Array((root + "/").utf8) + name)
        // Relative, absolute, and as a URI with the byte escaped and left raw.
        let lines: [[UInt8]] = [
            name,
            Array((root + "/").utf8) + name,
            Array("file://\(root)/caf%E9.mp3".utf8),
            Array("file://\(root)/".utf8) + name,
        ]
        try Fixtures.write(Array(lines.joined(separator: [0x0A])), to: root + "/old.m3u")
        let (tracks, problems) = loader.load([root + "/old.m3u"])
        #expect(problems.isEmpty)
        #expect(tracks.count == 4)
        #expect(tracks.allSatisfy { $0.path?.bytes == Array((root + "/").utf8) + name })
    }

    @Test func latin1LineFallsBackToTheUTF8Name() throws {
        // An old Latin-1 playlist, the collection since renamed to UTF-8: the exact bytes do
        // not exist, the same text in UTF-8 does.
        let root = try Fixtures.makeDirectory()
        defer { Fixtures.remove(root) }
        try touch(root, ["café.mp3"])
        try Fixtures.write(Self.cafeLatin1 + Array(".mp3\n".utf8), to: root + "/old.m3u")
        let (tracks, problems) = loader.load([root + "/old.m3u"])
        #expect(problems.isEmpty)
        #expect(tracks.compactMap(\.path) == [FilePath(root + "/café.mp3")!])
    }

    @Test func aMissingLatin1EntryIsReportedReadably() throws {
        let root = try Fixtures.makeDirectory()
        defer { Fixtures.remove(root) }
        try touch(root, ["a.mp3"])
        try Fixtures.write(Array("a.mp3\n".utf8) + Self.cafeLatin1 + Array(".mp3\n".utf8), to: root + "/old.m3u")
        let (tracks, problems) = loader.load([root + "/old.m3u"])
        #expect(tracks.count == 1)
        #expect(problems == [LoadProblem(path: root + "/café.mp3", reason: "file not found")])
    }

    @Test func uriOfALatin1FileLoads() throws {
        let root = try Fixtures.makeDirectory()
        defer { Fixtures.remove(root) }
        let path = FilePath(bytes: Array((root + "/").utf8) + Self.cafeLatin1 + Array(".mp3".utf8))!
        try Fixtures.write([], toPathBytes: path.bytes)
        let tracks = try loader.load(uri: FileURI.uri(for: path))
        #expect(tracks.compactMap(\.path) == [path])
        #expect(FileURI.uri(for: path).hasSuffix("/caf%E9.mp3"))
    }
}
