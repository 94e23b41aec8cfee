import Foundation
import XCTest
@testable import TestSupport

/// Issue 12: a folder that takes long to read (a big library on a cold or slow disk) goes into
/// the queue as it is read: OpenUri answers, and the first album plays, once its own files are
/// read; the other folders follow it, in order.
final class BatchedLoadingTests: AubadeTestCase {
    private var disk: SlowFileSystem?
    private var library: URL?

    override func tearDown() {
        disk?.makeFast()
        super.tearDown()
        disk?.close()
        disk = nil
        if let library { try? FileManager.default.removeItem(at: library) }
    }

    func testAFolderOnASlowDiskStartsPlayingBeforeItIsAllRead() throws {
        // Three albums of one track each, read from a disk whose every read() takes 0.1 s.
        let library = TestRunDirectory.url.appendingPathComponent("library-\(UUID().uuidString)", isDirectory: true)
        self.library = library
        for (index, track) in fixtures.shortTracks.enumerated() {
            let album = library.appendingPathComponent("\(index + 1) album", isDirectory: true)
            try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: track, to: album.appendingPathComponent(track.lastPathComponent))
        }
        let disk = try SlowFileSystem(serving: library)
        self.disk = disk
        let daemon = try startDaemon([String]())
        disk.makeSlow(0.1, for: daemon.pid)
        let started = Date()
        let reply = try Bus.player("OpenUri", ["string:\(disk.mountPoint.absoluteString)"])
        let answered = Date().timeIntervalSince(started)
        XCTAssertTrue(reply.succeeded, "\(reply)")
        let atReply = try queueTitles()
        print(String(format: "OpenUri of a slow folder answered after %.2f s with %d of 3 tracks queued: %@",
                     answered, atReply.count, atReply.description))
        XCTAssertEqual(atReply.first, "Short One")
        XCTAssertLessThan(atReply.count, 3, "the whole folder was read before anything was queued")
        try waitForStatus("Playing", timeout: 10)
        // The rest arrives after it, in folder order.
        try eventually("all three tracks queued", timeout: 60) { try queueTitles().count == 3 }
        XCTAssertEqual(try queueTitles(), ["Short One", "Short Two", "Short Three"])
        disk.makeFast()
    }
}
