import Foundation
import PlayerCore
import Testing
@testable import Library
@testable import TestSupport

/// Hostile playlists and odd files (issue 10, bad-input corpus): each gives a clear problem,
/// a bounded number of them, and the load ends.
@Suite struct BadPlaylistTests {
    let loader = QueueLoader(reader: fakeReader)

    /// Fixed pseudo-random bytes: the same junk every run.
    static func junk(_ count: Int, seed: UInt32 = 12345) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
    }

    @Test func binaryGarbageIsOneProblemNotALinePerLine() throws {
        let root = try Fixtures.makeDirectory()
        defer { Fixtures.remove(root) }
        // Junk can hold a line "/" or "." (this seed does not, but one run in twenty did):
        // read as lines, it would walk the whole disk. It is refused as a whole.
        let garbage = Self.junk(256 * 1024)
        try Fixtures.write(garbage, to: root + "/junk.m3u")
        let (tracks, problems) = loader.load([root + "/junk.m3u"])
        #expect(tracks.isEmpty)
        #expect(problems.count == 1, "\(problems.prefix(5))")
        #expect(problems.first?.path == root + "/junk.m3u")
        #expect(problems.first?.reason.hasPrefix("not a text playlist (byte 0x") == true, "\(problems)")
        // A junk file whose only control byte hides at the end is refused too.
        try Fixtures.write(Array("/\n.\na.mp3\n".utf8) + [0x00], to: root + "/late.m3u")
        #expect(loader.load([root + "/late.m3u"]).problems
                == [LoadProblem(path: root + "/late.m3u", reason: "not a text playlist (byte 0x00 at offset 10)")])
    }

    @Test func printableJunkIsSummedUpInOneProblem() throws {
        let root = try Fixtures.makeDirectory()
        defer { Fixtures.remove(root) }
        let junk = Self.junk(64 * 1024).map { 0x21 + $0 % 0x5E }   // printable ASCII only
        let lines = stride(from: 0, to: junk.count, by: 40).map { Array(junk[$0..<min($0 + 40, junk.count)]) + [0x0A] }
        try Fixtures.write(Array(lines.joined()), to: root + "/junk.m3u")
        let (tracks, problems) = loader.load([root + "/junk.m3u"])
        #expect(tracks.isEmpty)
        #expect(problems.count == 2, "\(problems.prefix(5))")
        #expect(problems.first?.reason.contains(" lines skipped, first: ") == true, "\(problems)")
        #expect((problems.first?.description.utf8.count ?? 0) < 1000)
        #expect(problems.last == LoadProblem(path: root + "/junk.m3u", reason: "no playable files in playlist"))
    }

    @Test func utf16AndDOSPlaylistsAreText() throws {
        let root = try Fixtures.makeDirectory()
        defer { Fixtures.remove(root) }
        try touch(root, ["é.mp3", "b.mp3"])
        let text = "#EXTM3U\r\né.mp3\r\nb.mp3\r\n"
        let littleEndian = text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        try Fixtures.write([0xFF, 0xFE] + littleEndian, to: root + "/notepad.m3u")
        let bigEndian = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        try Fixtures.write([0xFE, 0xFF] + bigEndian, to: root + "/be.m3u")
        try Fixtures.write(Array(text.utf8) + [0x1A], to: root + "/dos.m3u")
        for name in ["notepad.m3u", "be.m3u", "dos.m3u"] {
            let (tracks, problems) = loader.load([root + "/" + name])
            #expect(problems.isEmpty, "\(name): \(problems)")
            #expect(names(tracks, relativeTo: root) == ["é.mp3", "b.mp3"], "\(name)")
        }
    }

    @Test func aFewBadLinesAreStillListedOneByOne() throws {
        let root = try Fixtures.makeDirectory()
        defer { Fixtures.remove(root) }
        try touch(root, ["a.mp3"])
        try Fixtures.write(Array("a.mp3\nx.mp3\ny.mp3\nhttp://h/s\n".utf8), to: root + "/p.m3u")
        let (tracks, problems) = loader.load([root + "/p.m3u"])
        // The stream line is a station, queued as it is.
        #expect(tracks.map(\.location.displayString) == [root + "/a.mp3", "http://h/s"])
        #expect(problems.compactMap(\.path) == [root + "/x.mp3", root + "/y.mp3"])
    }

    @Test func hundredThousandLines() throws {
        let root = try Fixtures.makeDirectory()
        defer { Fixtures.remove(root) }
        try touch(root, ["real.mp3"])
        var text = "#EXTM3U\nreal.mp3\n"
        for number in 0..<100_000 { text += "missing \(number).mp3\n" }
        try Fixtures.write(Array(text.utf8), to: root + "/long.m3u")
        let (tracks, problems) = loader.load([root + "/long.m3u"])
        #expect(tracks.count == 1)
        #expect(problems == [LoadProblem(path: root + "/long.m3u",
                                         reason: "100000 of 100001 lines skipped, first: \(root)/missing 0.mp3: file not found")])
    }

    @Test func aPlaylistOverTheSizeLimitIsNotRead() throws {
        let root = try Fixtures.makeDirectory()
        defer { Fixtures.remove(root) }
        try Fixtures.write(Array("a.mp3\n".utf8), to: root + "/huge.m3u")
        // Sparse: 17 MiB on paper, nothing on disk.
        #expect(truncate(root + "/huge.m3u", off_t(17 << 20)) == 0)
        let (tracks, problems) = loader.load([root + "/huge.m3u"])
        #expect(tracks.isEmpty)
        #expect(problems == [LoadProblem(path: root + "/huge.m3u", reason: "larger than 16 MiB, not read")])
    }

    @Test func longLinesAreNotPaths() throws {
        let root = try Fixtures.makeDirectory()
        defer { Fixtures.remove(root) }
        try touch(root, ["a.mp3"])
        try Fixtures.write(Array("a.mp3\n".utf8) + [UInt8](repeating: 0x41, count: 100_000), to: root + "/p.m3u")
        let (tracks, problems) = loader.load([root + "/p.m3u"])
        #expect(tracks.count == 1)
        #expect(problems.count == 1)
        #expect(problems.first?.reason == "line too long for a path (100000 bytes)")
        #expect((problems.first?.path.count ?? 0) <= 201)
    }

    @Test func playlistsThatIncludeEachOtherEnd() throws {
        let root = try Fixtures.makeDirectory()
        defer { Fixtures.remove(root) }
        try touch(root, ["a.mp3", "b.mp3"])
        try Fixtures.write(Array("a.mp3\nb.m3u\n".utf8), to: root + "/a.m3u")
        try Fixtures.write(Array("b.mp3\na.m3u\n".utf8), to: root + "/b.m3u")
        let (tracks, problems) = loader.load([root + "/a.m3u"])
        #expect(names(tracks, relativeTo: root) == ["a.mp3", "b.mp3"])
        #expect(problems == [LoadProblem(path: root + "/a.m3u", reason: "playlist includes itself")])
    }

    @Test func aPlaylistIncludingItselfThroughASymlinkEnds() throws {
        let root = try Fixtures.makeDirectory()
        defer { Fixtures.remove(root) }
        try touch(root, ["a.mp3"])
        try Fixtures.write(Array("a.mp3\nalias.m3u\n".utf8), to: root + "/self.m3u")
        #expect(symlink(root + "/self.m3u", root + "/alias.m3u") == 0)
        let (tracks, problems) = loader.load([root + "/self.m3u"])
        #expect(tracks.count == 1)
        #expect(problems == [LoadProblem(path: root + "/alias.m3u", reason: "playlist includes itself")])
    }

    @Test func nestingIsBounded() throws {
        let root = try Fixtures.makeDirectory()
        defer { Fixtures.remove(root) }
        try touch(root, ["a.mp3"])
        for level in 0..<20 {
            try Fixtures.write(Array("a.mp3\n\(level + 1).m3u\n".utf8), to: root + "/\(level).m3u")
        }
        try Fixtures.write(Array("a.mp3\n".utf8), to: root + "/20.m3u")
        let (tracks, problems) = loader.load([root + "/0.m3u"])
        #expect(tracks.count == LoadSession.playlistDepthLimit)
        #expect(problems == [LoadProblem(path: root + "/\(LoadSession.playlistDepthLimit).m3u",
                                         reason: "not read: playlists nested more than 8 deep")])
    }

    @Test func aPlaylistBombIsBounded() throws {
        // Each playlist lists the next one 50 times: 50^5 reads unbounded.
        let root = try Fixtures.makeDirectory()
        defer { Fixtures.remove(root) }
        try touch(root, ["a.mp3"])
        for level in 0..<5 {
            try Fixtures.write(Array(String(repeating: "\(level + 1).m3u\n", count: 50).utf8), to: root + "/\(level).m3u")
        }
        try Fixtures.write(Array("a.mp3\n".utf8), to: root + "/5.m3u")
        let (tracks, problems) = loader.load([root + "/0.m3u"])
        #expect(tracks.count < LoadSession.playlistCountLimit)
        #expect(problems.count < 20, "\(problems.count) problems")
        #expect(problems.contains { $0.reason.contains("over 256 playlists in one load") })
    }

    // MARK: Files that are not files

    @Test func fifoPlaylistDoesNotHang() throws {
        let root = try Fixtures.makeDirectory()
        defer { Fixtures.remove(root) }
        #expect(mkfifo(root + "/pipe.m3u", 0o644) == 0)
        let (tracks, problems) = loader.load([root + "/pipe.m3u"])
        #expect(tracks.isEmpty)
        #expect(problems == [LoadProblem(path: root + "/pipe.m3u", reason: "not a regular file")])
        // Even when it is opened directly (a race with stat): non-blocking, refused.
        #expect(throws: FileSystem.Failure.self) {
            try FileSystem.contents(ofFile: FilePath(root + "/pipe.m3u")!, limit: 1 << 20)
        }
    }

    @Test func devicesAndFIFOsNamedLikeMusicAreProblems() throws {
        let root = try Fixtures.makeDirectory()
        defer { Fixtures.remove(root) }
        try touch(root, ["a.mp3"])
        #expect(mkfifo(root + "/fifo.mp3", 0o644) == 0)
        #expect(symlink("/dev/zero", root + "/zero.mp3") == 0)
        #expect(symlink("/dev/null", root + "/null.mp3") == 0)
        let (tracks, problems) = loader.load([root])
        #expect(names(tracks, relativeTo: root) == ["a.mp3"])
        #expect(Set(problems) == Set(["fifo.mp3", "null.mp3", "zero.mp3"].map {
            LoadProblem(path: root + "/" + $0, reason: "not a regular file")
        }))
        // Named directly.
        let direct = loader.load([root + "/zero.mp3", root + "/fifo.mp3"])
        #expect(direct.tracks.isEmpty)
        #expect(direct.problems.map(\.reason) == ["not a regular file", "not a regular file"])
    }

    @Test(arguments: ["/proc", "/sys", "/proc/self", "/sys/kernel"])
    func kernelFileSystemsAreNotWalked(_ path: String) {
        let (tracks, problems) = loader.load([path])
        #expect(tracks.isEmpty)
        #expect(problems == [LoadProblem(path: path, reason: "a kernel file system (like /proc or /sys), not music")])
    }

    @Test func aDirectoryNamedLikeAnMP3IsAFolder() throws {
        let root = try Fixtures.makeDirectory()
        defer { Fixtures.remove(root) }
        try FileManager.default.createDirectory(atPath: root + "/x.mp3", withIntermediateDirectories: false)
        let (tracks, problems) = loader.load([root + "/x.mp3"])
        #expect(tracks.isEmpty)
        #expect(problems == [LoadProblem(path: root + "/x.mp3", reason: "no playable music files in directory")])
    }
}
