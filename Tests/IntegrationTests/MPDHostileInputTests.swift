import Foundation
import XCTest
@testable import TestSupport

/// What a hostile MPD client can send on one line: lines past mpd's 8 KiB buffer, with and
/// without their newline; unterminated quotes, NULs, invalid UTF-8, control characters, a line
/// of spaces, binary junk; commands while idling, `noidle` outside idle; command lists past
/// 2 MiB and nested ones. Each gets mpd's answer — an ACK and the connection goes on, or the
/// connection closed without a word — while another client, connected throughout, is still
/// served at once, and the daemon's descriptors come back to where they were.
final class MPDHostileInputTests: MPDDaemonTestCase {
    private func startSmallLibrary() throws -> Served {
        let music = try makeDirectory("music")
        let songs = try MPDLibraryFixtures.smallLibrary(in: music)
        return try startMPD(music: music, songs: songs)
    }

    /// Sends `bytes` (the server may close while they go: that is what is tested) and expects
    /// the connection closed with nothing written to it.
    private func assertClosedWithoutAnswer(_ client: MPDTestConnection, after bytes: [UInt8], _ what: String,
                                           file: StaticString = #filePath, line: UInt = #line) {
        // Generous waits (only a failure spends them): beside a whole make test, reading 2 MB
        // of short lines into a list took a debug daemon 10 times as long as alone.
        do { try client.send(bytes, timeout: Sanitizer.scaled(30)) } catch { /* closed while sending */ }
        let (closed, dropped) = client.waitForClose(timeout: Sanitizer.scaled(30))
        XCTAssertTrue(closed, "\(what): still open", file: file, line: line)
        XCTAssertEqual(String(decoding: dropped, as: UTF8.self), "", "\(what): answered before closing", file: file, line: line)
    }

    /// Every line of an answer is one line of valid UTF-8 without control characters.
    private func assertClean(_ answer: RawMPDAnswer, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for raw in answer.rawLines {
            XCTAssertNotNil(String(validating: raw, as: UTF8.self), "\(what): not UTF-8: \(raw)",
                            file: file, line: line)
            XCTAssertFalse(raw.contains { $0 < 0x20 || $0 == 0x7F }, "\(what): a control character in \(raw)", file: file, line: line)
        }
    }

    func testLinesPastEightKiBCloseTheConnectionWithoutAnAnswer() throws {
        let served = try startSmallLibrary()
        let bystander = try served.connect()
        let descriptors = try served.openDescriptors()

        // 8192 bytes, its newline counted, is the longest line mpd reads: it is answered.
        let longest = try served.connect()
        let answer = try longest.command("ping " + String(repeating: "a", count: 8192 - 6))
        XCTAssertEqual(answer.ack, "ACK [2@0] {ping} wrong number of arguments for \"ping\"")
        XCTAssertTrue(try longest.command("ping").isOK, "the connection goes on after the longest line")

        let cases: [(String, [UInt8])] = [
            ("8193 bytes with the newline", Array(("ping " + String(repeating: "a", count: 8193 - 6) + "\n").utf8)),
            ("64 KiB without a newline", Array(repeating: UInt8(ascii: "a"), count: 64 * 1024)),
            ("1 MiB of one line", Array(repeating: UInt8(ascii: "b"), count: 1 << 20) + [0x0A]),
            ("8 KiB of one quoted argument", Array("find \"".utf8) + Array(repeating: UInt8(ascii: "x"), count: 9000) + [0x22, 0x0A]),
        ]
        for (what, bytes) in cases {
            assertClosedWithoutAnswer(try served.connect(), after: bytes, what)
            XCTAssertTrue(try bystander.command("ping").isOK, "the bystander after \(what)")
        }
        // A line just short of the limit, sent a byte at a time, is still one line.
        let trickle = try served.connect()
        for byte in "status\n".utf8 { try trickle.send([byte]) }
        XCTAssertNotNil(try trickle.readAnswer().value("state"))

        assertStillServes(served)
        trickle.close()
        longest.close()
        assertDescriptorsBack(served, to: descriptors)
    }

    func testMalformedLinesGetAnACKAndTheConnectionGoesOn() throws {
        let served = try startSmallLibrary()
        let descriptors = try served.openDescriptors()
        let client = try served.connect()
        let lines: [(String, [UInt8], expectsOK: Bool)] = [
            ("an unterminated quote", Array("find \"artist".utf8), false),
            ("an unterminated quote after a backslash", Array("find artist \"Ann\\".utf8), false),
            ("a NUL ends the line (mpd reads C strings)", Array("ping".utf8) + [0] + Array(" junk after".utf8), true),
            ("invalid UTF-8 in an argument", Array("find artist \"".utf8) + [0xFF, 0xFE, 0xC3] + [0x22], true),
            ("control characters in an argument", Array("find title \"a".utf8) + [0x01, 0x1B, 0x7F] + Array("b\"".utf8), true),
            ("a control character in a command name", Array("p".utf8) + [0x01] + Array("ng".utf8), false),
            ("invalid UTF-8 in a path", Array("lsinfo \"".utf8) + [0xC0, 0xAF, 0x0D, 0x1B] + Array("x\"".utf8), false),
            ("a carriage return before the newline", Array("ping\r".utf8), true),
            ("a filter of brackets", Array("find \"((((((((((\"".utf8), false),
            ("a huge number", Array("setvol 99999999999999999999999999".utf8), false),
            ("a position past the queue", Array("play 99999".utf8), false),
            ("too many arguments", Array(("ping" + String(repeating: " a", count: 4000)).utf8), false),
            ("an unknown command", Array("frobnicate now".utf8), false),
            ("command_list_end outside a list", Array("command_list_end".utf8), false),
        ]
        for (what, line, expectsOK) in lines {
            try client.send(line + [0x0A])
            let answer = try client.readAnswer()
            XCTAssertEqual(answer.isOK, expectsOK, "\(what): \(answer)")
            if !answer.isOK {
                XCTAssertTrue(answer.ack?.hasPrefix("ACK [") == true, "\(what): \(answer)")
            }
            assertClean(answer, what)
            XCTAssertTrue(try client.command("ping").isOK, "after \(what)")
        }

        // A command name that cannot be read: mpd answers, then closes ("this client does not
        // speak the MPD protocol").
        for (what, line) in [("invalid UTF-8 in a command name", [0x70, 0xFF, 0x6E, 0x67] as [UInt8]),
                             ("a quote in a command name", Array("pi\"ng\"".utf8))] {
            let speaker = try served.connect()
            try speaker.send(line + [0x0A])
            let answer = try speaker.readAnswer()
            XCTAssertTrue(answer.ack?.hasPrefix("ACK [5@0] {} ") == true, "\(what): \(answer)")
            assertClean(answer, what)
            assertClosedWithoutAnswer(speaker, after: Array("ping\n".utf8), "after \(what)")
        }

        // Lines that are no MPD protocol at all close the connection, as mpd does.
        let closing: [(String, [UInt8])] = [
            ("a line of only spaces", Array("      \n".utf8)),
            ("an empty line", [0x0A]),
            ("binary junk", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x0A, 0x00, 0x01]),
            ("an HTTP request", Array("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)),
            ("a capital letter", Array("PING\n".utf8)),
            ("a TLS hello", [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03, 0x0A]),
        ]
        for (what, bytes) in closing {
            assertClosedWithoutAnswer(try served.connect(), after: bytes, what)
        }
        assertStillServes(served)
        client.close()
        assertDescriptorsBack(served, to: descriptors)
    }

    func testIdleClosesOnAnyCommandButNoidle() throws {
        let served = try startSmallLibrary()
        let descriptors = try served.openDescriptors()

        // `noidle` outside idle is answered with nothing (mpd): the next answer is ping's.
        let client = try served.connect()
        try client.send("noidle\n")
        XCTAssertTrue(try client.command("ping").isOK)
        XCTAssertEqual(try client.command("ping").rawLines, [Array("OK".utf8)])

        // idle, then noidle: a bare OK; and again.
        for round in 0..<3 {
            try client.send("idle\n")
            try client.send("noidle\n")
            XCTAssertEqual(try client.readAnswer().lines, ["OK"], "round \(round)")
        }
        // An unknown subsystem is an ACK, not an idle.
        XCTAssertNotNil(try client.command("idle nothing").ack)
        XCTAssertTrue(try client.command("ping").isOK)

        // Anything else while idling closes the connection without an answer, even junk.
        for line in ["status\n", "idle\n", "command_list_begin\n", "ping\0\n", "\n"] {
            let idler = try served.connect()
            try idler.send("idle\n")
            assertClosedWithoutAnswer(idler, after: Array(line.utf8), "\(line.debugDescription) while idling")
        }
        // An idle inside a command list is an idle too.
        let listed = try served.connect()
        try listed.send("command_list_begin\nping\nidle player\ncommand_list_end\n")
        try listed.send("noidle\n")
        XCTAssertEqual(try listed.readAnswer().lines, ["OK"])
        XCTAssertTrue(try listed.command("ping").isOK)

        assertStillServes(served)
        client.close()
        listed.close()
        assertDescriptorsBack(served, to: descriptors)
    }

    func testCommandListsPastTwoMiBCloseAndNestedOnesFail() throws {
        let served = try startSmallLibrary()
        let descriptors = try served.openDescriptors()
        let memory = try served.residentKilobytes()
        let bystander = try served.connect()
        let long = "ping " + String(repeating: "a", count: 7995)  // 8000 bytes, 8001 counted

        // Just under 2 MiB: gathered and run; its first command fails, so the list stops there.
        let under = try served.connect()
        try under.send("command_list_ok_begin\n")
        for _ in 0..<(2 * 1024 * 1024 / 8001) { try under.send(long + "\n") }
        try under.send("command_list_end\n")
        XCTAssertEqual(try under.readAnswer(timeout: Sanitizer.scaled(10)).ack, "ACK [2@0] {ping} wrong number of arguments for \"ping\"")
        XCTAssertTrue(try under.command("ping").isOK)

        // Past 2 MiB: closed, nothing run, nothing answered — and the rest of what it sends is
        // not read (the client's own writes fail).
        let over = try served.connect()
        var lines = Array("command_list_begin\n".utf8)
        for _ in 0..<300 { lines += Array((long + "\n").utf8) }
        assertClosedWithoutAnswer(over, after: lines + Array("command_list_end\n".utf8), "a list of 2.4 MB")
        XCTAssertTrue(try bystander.command("ping").isOK)

        // Many short lines past the limit: the same.
        let many = try served.connect()
        assertClosedWithoutAnswer(many, after: Array("command_list_begin\n".utf8) + Array(String(repeating: "ping\n", count: 450_000).utf8),
                                  "a list of 450,000 pings")

        // A nested begin is kept and fails when the list runs, as mpd's unknown command.
        let nested = try served.connect()
        try nested.send("command_list_ok_begin\nping\ncommand_list_begin\nping\ncommand_list_end\n")
        XCTAssertEqual(try nested.readAnswer().lines, ["list_OK", "ACK [5@1] {} unknown command \"command_list_begin\""])
        try nested.send("command_list_end\n")
        XCTAssertEqual(try nested.readAnswer().ack, "ACK [5@0] {} unknown command \"command_list_end\"")
        XCTAssertTrue(try nested.command("ping").isOK)

        assertStillServes(served)
        let after = try served.residentKilobytes()
        // The lists are gathered in one buffer each and dropped with them.
        if Sanitizer.judgesMemory { XCTAssertLessThan(after - memory, 16 * 1024, "resident memory \(memory) → \(after) KiB") }
        print("command lists: resident memory \(memory) → \(after) KiB")
        for client in [bystander, under, nested] { client.close() }
        assertDescriptorsBack(served, to: descriptors)
    }
    /// More than the 64 KiB of input kept while a command waits for the player: reading stops,
    /// and must start again once the lines kept are run — even when they run at once, in the
    /// turn the command's answer came back in (they did not: reading stayed stopped, and the
    /// rest of what the client sent was never read).
    func testReadingResumesAfterTheInputLimit() throws {
        // A stored playlist of 300 files outside the library: `load` reads each of them on the
        // files queue, long enough for the daemon to read all the lines sent after it.
        let folder = try makeDirectory("outside")
        let seed = folder.appendingPathComponent("seed.mp3")
        try Fixtures.write(try MPDLibraryFixtures.bareMP3(), to: seed.path)
        var list = ""
        for index in 0..<300 {
            let path = folder.appendingPathComponent("\(index).mp3").path
            XCTAssertEqual(link(seed.path, path), 0)
            list += path + "\n"
        }
        let playlists = try makeDirectory("playlists")
        try Fixtures.write(Array(list.utf8), to: playlists.appendingPathComponent("outside.m3u").path)
        let music = try makeDirectory("music")
        let songs = try MPDLibraryFixtures.smallLibrary(in: music)
        let served = try startMPD(music: music, songs: songs, arguments: ["--playlists-folder", playlists.path])
        let client = try served.connect()
        // Run in no time: a NUL ends the line (mpd reads C strings), so this is a `ping`.
        let long = "ping\0" + String(repeating: "a", count: 7995) + "\n"
        // 12 long lines (96 KB) fill the input past its limit while the load runs.
        try client.send("load outside\n" + String(repeating: long, count: 12) + "ping\n")
        let added = try client.readAnswer(timeout: Sanitizer.scaled(20))
        XCTAssertTrue(added.isOK, "load: \(added.lines)")
        for index in 0..<12 {
            XCTAssertEqual(try client.readAnswer(timeout: Sanitizer.scaled(10)).lines, ["OK"], "long line \(index)")
        }
        XCTAssertEqual(try client.readAnswer(timeout: Sanitizer.scaled(10)).lines, ["OK"], "the last ping")
        XCTAssertTrue(try client.command("ping").isOK)
    }
}
