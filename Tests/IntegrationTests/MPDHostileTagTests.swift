import Foundation
import XCTest
@testable import TestSupport

/// Nothing a file or a station says can inject a protocol line: tags holding "\n", "\r", "OK",
/// "ACK [", a 0x01 and invalid UTF-8, a file and a folder whose names hold newlines, and a
/// station whose ICY title holds a newline and invalid UTF-8. Every answer that shows them
/// still parses — one `key: value` a line, its song count right, followed by nothing but the
/// next command's own answer — and `currentsong` of the playing one has exactly one `Title:`.
final class MPDHostileTagTests: MPDDaemonTestCase {
    static let forgedTitle = Array("Evil\nOK\nACK [50@0] {x} forged\r\nfile: /etc/passwd".utf8)

    /// Every line valid UTF-8, no control character, `key: value` but the last.
    private func assertParses(_ answer: RawMPDAnswer, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for raw in answer.rawLines {
            XCTAssertNotNil(String(validating: raw, as: UTF8.self), "\(what): not UTF-8: \(raw)", file: file, line: line)
            XCTAssertFalse(raw.contains { $0 < 0x20 || $0 == 0x7F }, "\(what): a control character in \(raw)", file: file, line: line)
        }
        for text in answer.lines.dropLast() {
            XCTAssertTrue(text.contains(": "), "\(what): \(text.debugDescription) is no key: value line", file: file, line: line)
            XCTAssertFalse(text.hasPrefix("OK") || text.hasPrefix("ACK"), "\(what): forged \(text.debugDescription)", file: file, line: line)
        }
        XCTAssertTrue(answer.isOK, "\(what): \(answer)", file: file, line: line)
    }

    /// Runs `command`, checks that its answer parses and that nothing follows it: a `ping` right
    /// after gets exactly its own `OK`.
    @discardableResult
    private func checked(_ client: MPDTestConnection, _ command: String, file: StaticString = #filePath,
                         line: UInt = #line) throws -> RawMPDAnswer {
        let answer = try client.command(command)
        assertParses(answer, command, file: file, line: line)
        XCTAssertEqual(try client.command("ping").lines, ["OK"], "after \(command)", file: file, line: line)
        return answer
    }

    func testTagsAndNamesCannotForgeProtocolLines() throws {
        let music = try makeDirectory("music")
        func text(_ bytes: [UInt8]) -> [UInt8] { MPDLibraryFixtures.text(bytes) }
        func text(_ string: String) -> [UInt8] { MPDLibraryFixtures.text(string) }
        try MPDLibraryFixtures.write([("TIT2", text(Self.forgedTitle)), ("TPE1", text("Ann\r\nOK")), ("TALB", text("Album"))],
                                     to: music.appendingPathComponent("evil.mp3"))
        try MPDLibraryFixtures.write([("TIT2", text([0x01] + Array("Control".utf8) + [0xFF, 0xFE, 0x0A, 0xC3])),
                                      ("TPE1", text("ACK [2@0] {} x")), ("TALB", text("Album\n"))],
                                     to: music.appendingPathComponent("control.mp3"))
        // ID3v2.3, Latin-1 (encoding 0): a newline and a 0x01 in a single-byte text.
        let latin1 = Fixtures.id3v2Tag(version: 3, frames: [], rawFrames: [("TIT2", [0] + Array("Latin\n\u{1}".utf8) + [0xE9])])
        try Fixtures.write(latin1 + (try MPDLibraryFixtures.bareMP3()), to: music.appendingPathComponent("latin1.mp3").path)
        // Names with control characters: a folder and a file. (A name with a newline is not in
        // the library at all, as in mpd: it could not be written in an answer.)
        try MPDLibraryFixtures.write([("TIT2", text("In a bad folder"))],
                                     to: music.appendingPathComponent("dir\rACK [5@0] {} x/name\u{1}OK.mp3"))
        try MPDLibraryFixtures.write([("TIT2", text("Not in the library"))], to: music.appendingPathComponent("new\nline.mp3"))
        let served = try startMPD(music: music, songs: 4)
        let descriptors = try served.openDescriptors()
        let client = try served.connect()

        let all = try checked(client, "listallinfo")
        XCTAssertEqual(all.values("file").count, 4, "\(all)")
        XCTAssertEqual(all.values("Title").count, 4, "one title a song: \(all.values("Title"))")
        XCTAssertEqual(try checked(client, "listall").values("file").count, 4)
        try checked(client, "lsinfo")
        for command in ["find \"(title contains 'Evil')\"", "search any OK", "list title", "list artist group album",
                        "count group title", "list file", "find artist \"Ann  OK\"", "tagtypes"] {
            try checked(client, command)
        }
        XCTAssertEqual(try checked(client, "lsinfo evil.mp3").values("Title").count, 1)

        // Queued and played: the queue's answers and currentsong parse too.
        try checked(client, "clear")
        try checked(client, "add \"\"")
        let queue = try checked(client, "playlistinfo")
        XCTAssertEqual(queue.values("file").count, 4)
        try checked(client, "playlist")
        let evil = try XCTUnwrap(queue.pairs.firstIndex { $0.key == "Title" && $0.value.hasPrefix("Evil") }.map { index in
            queue.pairs[..<index].last { $0.key == "file" }?.value
        } ?? nil, "the evil song in the queue: \(queue)")
        let position = try XCTUnwrap(try checked(client, "playlistfind file \"\(evil)\"").value("Pos"))
        try checked(client, "play \(position)")
        try eventually("the evil song current", timeout: Sanitizer.scaled(5)) {
            try checked(client, "currentsong").value("file") == evil
        }
        let current = try checked(client, "currentsong")
        XCTAssertEqual(current.values("Title").count, 1, "exactly one Title: \(current)")
        XCTAssertEqual(current.values("file").count, 1, "exactly one file: \(current)")
        try checked(client, "status")
        try checked(client, "playlistid")
        try checked(client, "plchanges 0")

        client.close()
        assertStillServes(served)
        assertDescriptorsBack(served, to: descriptors)
    }

    func testAStationTitleCannotForgeProtocolLines() throws {
        let fixtures = try StreamFixtures.shared()
        let web = try TestHTTPServer(files: fixtures.directory)
        defer { web.stop() }
        let title = Data("Line one\nOK\nACK [5@0] {} x\r\nfile: evil ".utf8) + Data([0xFF, 0x01, 0xC3]) + Data(" end".utf8)
        try web.registerICY(name: "programme.mp3", blocks: [TestHTTPServer.icyBlock(title: title)], metaint: 4096)
        let served = try startMPD(music: nil)
        let client = try served.connect()
        // Twice: the first play may leave what the HTTP input keeps for the next (its transfer
        // thread, a connection); the second must leave nothing more.
        var descriptors = 0
        for round in 0..<2 {
            try checked(client, "add \"http://127.0.0.1:\(web.port)/icy/programme.mp3?rate=16000&loop=1&metaint=4096\"")
            try checked(client, "play 0")
            var current = RawMPDAnswer()
            try eventually("the station's title in currentsong (round \(round), last: \(current))", timeout: Sanitizer.scaled(10)) {
                current = try checked(client, "currentsong")
                return current.value("Title")?.hasPrefix("Line one") == true
            }
            XCTAssertEqual(current.values("Title").count, 1, "exactly one Title: \(current)")
            XCTAssertEqual(current.values("file").count, 1, "exactly one file: \(current)")
            XCTAssertTrue(current.value("Title")?.hasSuffix(" end") == true, "the whole title on one line: \(current)")
            try checked(client, "playlistinfo")
            try checked(client, "status")
            try checked(client, "stop")
            try checked(client, "clear")
            if round == 0 {
                Thread.sleep(forTimeInterval: 0.5)
                descriptors = try served.openDescriptors()
            }
        }
        client.close()
        assertStillServes(served)
        assertDescriptorsBack(served, to: descriptors)
    }
}
