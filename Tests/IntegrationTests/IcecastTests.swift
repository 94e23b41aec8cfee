import Foundation
import XCTest
@testable import TestSupport

/// The icecast harness itself (Support/Icecast.swift, IcecastSource.swift), with a raw socket
/// listener in place of the daemon: when these fail, the radio tests' failures say nothing
/// about Aubade. No sound server or bus needed. icecast2 missing: skipped, but failed under CI.
final class IcecastTests: XCTestCase {
    private var fixtures: TestMusic!

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard IcecastServer.isInstalled else {
            let message = "\(IcecastServer.executable) not installed (run scripts/install-deps)"
            if !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty { XCTFail(message) }
            throw XCTSkip(message)
        }
        fixtures = try TestMusic.shared()
    }

    /// Connects like a player asking for ICY titles; checks the answer is the stream.
    private func listen(_ server: IcecastServer, _ mount: String = "/radio.mp3",
                        file: StaticString = #filePath, line: UInt = #line) throws -> (RawHTTPConnection, RawHTTPConnection.Head) {
        let connection = try RawHTTPConnection(port: server.port)
        try connection.sendGet(mount, headers: ["Icy-MetaData": "1"])
        let head = try connection.readHead()
        XCTAssertEqual(head.status, 200, "\(head.statusLine); icecast: \(server.log)", file: file, line: line)
        return (connection, head)
    }

    /// Reads ICY blocks until one's StreamTitle is `title` (raw bytes); the blocks read.
    private func readUntilTitle(_ reader: ICYReader, _ title: Data, maxBlocks: Int = 6) throws -> [Data] {
        var seen: [Data] = []
        for _ in 0..<maxBlocks {
            let block = try reader.next().metadata
            seen.append(block)
            if ICYReader.streamTitle(in: block) == title { return seen }
        }
        XCTFail("no StreamTitle \(title.map { String(format: "%02x", $0) }.joined()) in \(seen.count) blocks: "
                + seen.map { String(decoding: $0, as: UTF8.self).debugDescription }.joined(separator: ", "))
        return seen
    }

    func testListenerGetsIcyHeadersBlocksAndNewTitles() throws {
        let server = try IcecastServer(metadataInterval: 8192)
        defer { server.stop() }
        let source = try server.startSource(mount: "/radio.mp3", file: fixtures.alpha, loop: true,
                                            titles: [(atSeconds: 0, title: "First Song")])
        defer { source.stop() }
        XCTAssertEqual(server.url(mount: "radio.mp3"), "http://127.0.0.1:\(server.port)/radio.mp3")

        let (connection, head) = try listen(server)
        XCTAssertEqual(head.value("icy-metaint"), "8192")
        XCTAssertEqual(head.value("icy-name"), "Aubade Test FM")
        XCTAssertEqual(head.value("Content-Type"), "audio/mpeg")
        let reader = ICYReader(connection: connection, metaint: 8192)
        var blocks: [(audio: Data, metadata: Data)] = []
        for _ in 0..<3 { blocks.append(try reader.next()) }
        // The first block a listener gets carries the current title; later ones are empty until it changes.
        XCTAssertEqual(ICYReader.streamTitle(in: blocks[0].metadata), Data("First Song".utf8))
        XCTAssertEqual(blocks[1].metadata, Data())
        let audio = blocks.reduce(Data()) { $0 + $1.audio }
        XCTAssertNotNil(audio.range(of: Data([0xFF, 0xFB])), "no MPEG-1 layer III frame header in the audio")

        try server.setTitle("Second Song", mount: "/radio.mp3")
        _ = try readUntilTitle(reader, Data("Second Song".utf8))
        try source.setTitleNow("Ann – Third ♪")
        _ = try readUntilTitle(reader, Data("Ann – Third ♪".utf8))
    }

    /// Old stations send Latin-1 titles; icecast passes them on as bytes (ö = 0xF6).
    func testLatin1AndUTF8TitlesArriveAsTheirBytes() throws {
        let server = try IcecastServer(metadataInterval: 4096)
        defer { server.stop() }
        let source = try server.startSource(mount: "old.mp3", file: fixtures.alpha)
        defer { source.stop() }
        let (connection, _) = try listen(server, "/old.mp3")
        let reader = ICYReader(connection: connection, metaint: 4096)

        try server.setTitle("Motörhead - Ace", mount: "old.mp3", charset: "ISO-8859-1")
        let latin1 = Data([0x4D, 0x6F, 0x74, 0xF6]) + Data("rhead - Ace".utf8)
        let blocks = try readUntilTitle(reader, latin1)
        XCTAssertTrue(blocks.last?.contains(0xF6) == true, "no 0xF6 in \(blocks)")

        try server.setTitle("Motörhead - Ace", mount: "old.mp3")
        _ = try readUntilTitle(reader, Data("Motörhead - Ace".utf8))  // ö = C3 B6

        // Why setTitle sends UTF-8 without charset=UTF-8: icecast would convert it to the
        // mount's ISO8859-1, and what Latin-1 lacks becomes XML character references.
        try server.updateMetadata(song: Data("日本".utf8), mount: "old.mp3", charset: "UTF-8")
        _ = try readUntilTitle(reader, Data("&#26085;&#26412;".utf8))
    }

    /// Titles follow the media time of the fed frames, and the frames go out in real time.
    func testScheduledTitlesAreSetAtTheirMediaTimeInRealTime() throws {
        let server = try IcecastServer(burstSize: 0, metadataInterval: 8192)
        defer { server.stop() }
        let source = try server.startSource(mount: "/radio.mp3", file: fixtures.alpha, loop: true,
                                            titles: [(atSeconds: 0, title: "Zero"), (atSeconds: 1.5, title: "One and a half")])
        defer { source.stop() }
        XCTAssertTrue(source.waitForTitleChanges(2, timeout: 5), source.log)
        let changes = source.titleChanges
        XCTAssertEqual(changes.map(\.title), ["Zero", "One and a half"])
        guard changes.count == 2 else { return }
        XCTAssertEqual(changes[0].mediaSeconds, 0)
        // The first frame at or after 1.5 s: a 1152-sample frame lasts 26.1 ms at 44.1 kHz.
        XCTAssertGreaterThanOrEqual(changes[1].mediaSeconds, 1.5)
        XCTAssertLessThan(changes[1].mediaSeconds, 1.5 + 0.027)
        let wall = changes[1].monotonicSeconds - changes[0].monotonicSeconds
        XCTAssertEqual(wall, changes[1].mediaSeconds, accuracy: 0.1, "1.5 s of media took \(wall) s to send")
        XCTAssertLessThan(IcecastSource.monotonicNow() - changes[1].monotonicSeconds, 5)
    }

    func testListenerCountRestartAndNothingLeftRunning() throws {
        let server = try IcecastServer(metadataInterval: 8192)
        var source = try server.startSource(mount: "/radio.mp3", file: fixtures.alpha)
        XCTAssertEqual(try server.listenerCount(mount: "/radio.mp3"), 0)
        XCTAssertEqual(try server.listenerCount(mount: "/none.mp3"), 0)
        var (connection, _) = try listen(server)
        try eventually("one listener") { try server.listenerCount(mount: "radio.mp3") == 1 }
        connection.close()
        try eventually("no listener") { try server.listenerCount(mount: "radio.mp3") == 0 }

        (connection, _) = try listen(server)
        _ = try connection.read(exactly: 8192)
        let port = server.port
        let firstPID = try XCTUnwrap(server.pid)
        try server.restart()
        XCTAssertEqual(server.port, port)
        XCTAssertNotEqual(server.pid, firstPID)
        XCTAssertFalse(Shell.isAlive(pid: firstPID), "the first icecast2 is still there")
        // The listener's stream ended with the old server (end of stream or a reset, not a
        // timeout); the source noticed too.
        do {
            _ = try connection.readToEnd(limit: 1 << 20)
        } catch {
            XCTAssertFalse("\(error)".contains("timed out"), "\(error)")
        }
        try eventually("the source to notice the restart") { !source.isRunning }
        XCTAssertFalse(try server.hasSource(mount: "/radio.mp3"))

        source = try server.startSource(mount: "/radio.mp3", file: fixtures.alpha)
        (connection, _) = try listen(server)
        _ = try ICYReader(connection: connection, metaint: 8192).next()
        try eventually("one listener after the restart") { try server.listenerCount(mount: "radio.mp3") == 1 }

        let pids = [source.pid, try XCTUnwrap(server.pid)]
        let directories = [source.directory, server.directory]
        source.stop()
        server.stop()
        for pid in pids { XCTAssertFalse(Shell.isAlive(pid: pid), "process \(pid) is still running") }
        for directory in directories {
            XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path), "\(directory.path) was left behind")
        }
    }

    /// icecast 2.4.4 has died just after answering its first request; a source started then
    /// finds the server dead, starts it again on its port and connects (printed, not hidden).
    func testASourceStartedAfterIcecastDiedStartsItAgain() throws {
        let server = try IcecastServer(metadataInterval: 8192)
        defer { server.stop() }
        let port = server.port
        let firstPID = try XCTUnwrap(server.pid)
        kill(firstPID, SIGKILL)
        try eventually("icecast2 to be gone") { !server.isRunning }
        let source = try server.startSource(mount: "/radio.mp3", file: fixtures.alpha)
        defer { source.stop() }
        XCTAssertEqual(server.port, port)
        XCTAssertNotEqual(server.pid, firstPID)
        XCTAssertTrue(server.state.hasPrefix("running"), server.state)
        XCTAssertTrue(try server.hasSource(mount: "/radio.mp3"))
    }
}
