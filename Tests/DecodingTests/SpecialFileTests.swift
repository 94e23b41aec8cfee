import Foundation
import Testing
import Decoding
import PlayerCore
@testable import TestSupport

/// What is not a plain MP3 file under a plain name (issue 10, bad-input corpus): names that
/// are not UTF-8, FIFOs and devices (never read: they could block or never end), a huge tag.
@Suite struct SpecialFileTests {
    @Test func readsAndDecodesALatin1Name() throws {
        let dir = try Fixtures.makeDirectory()
        defer { Fixtures.remove(dir) }
        try Fixtures.makeMP3(at: dir + "/source.mp3", seconds: 1)
        let path = FilePath(bytes: Array((dir + "/caf").utf8) + [0xE9] + Array(".mp3".utf8))!
        try Fixtures.write(try Fixtures.contents(of: dir + "/source.mp3"), toPathBytes: path.bytes)
        let track = try TrackReader.read(path: path)
        #expect(track.path == path)
        #expect(track.displayTitle == "café")
        #expect(track.length == 1_000_000)
        let decoder = try MP3Decoder(path: path)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = try buffer.withUnsafeMutableBytes { try decoder.read(into: $0) }
        #expect(count > 0)
        #expect(try TrackReader.coverArt(path: path) == nil)
    }

    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        let dir = try Fixtures.makeDirectory()
        defer { Fixtures.remove(dir) }
        let fifo = dir + "/pipe.mp3"
        #expect(mkfifo(fifo, 0o644) == 0)
        // A plain open(O_RDONLY) of a FIFO without a writer blocks forever: this would hang.
        let read = #expect(throws: DecodingError.self) { try TrackReader.read(path: fifo) }
        #expect(read?.reason == "not a regular file")
        let decode = #expect(throws: DecodingError.self) { try MP3Decoder(path: fifo) }
        #expect(decode?.reason == "not a regular file")
        #expect(throws: DecodingError.self) { try TrackReader.coverArt(path: fifo) }
    }

    @Test(arguments: ["/dev/zero", "/dev/null", "/dev/urandom"])
    func deviceNodesAreRefused(_ device: String) throws {
        let dir = try Fixtures.makeDirectory()
        defer { Fixtures.remove(dir) }
        let link = dir + "/device.mp3"
        #expect(symlink(device, link) == 0)
        let error = #expect(throws: DecodingError.self) { try TrackReader.read(path: link) }
        #expect(error?.reason == "not a regular file")
        #expect(throws: DecodingError.self) { try MP3Decoder(path: link) }
    }

    @Test func aFiveMebibyteTagStillPlays() throws {
        let dir = try Fixtures.makeDirectory()
        defer { Fixtures.remove(dir) }
        try Fixtures.makeMP3(at: dir + "/plain.mp3", seconds: 1)
        let tag = Fixtures.id3v2Tag(frames: [("TIT2", ["Big"]), ("TXXX", [String(repeating: "x", count: 5 << 20)])])
        #expect(tag.count > 5 << 20)
        try Fixtures.write(tag + (try Fixtures.contents(of: dir + "/plain.mp3")), to: dir + "/big.mp3")
        let track = try TrackReader.read(path: dir + "/big.mp3")
        #expect(track.title == "Big")
        #expect(track.length == 1_000_000)
    }
}
