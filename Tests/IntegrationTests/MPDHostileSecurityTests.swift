import Foundation
import XCTest
@testable import TestSupport

/// Who may do what: TCP on loopback only unless the user says otherwise; passwords and their
/// permissions as mpd enforces them; and no path outside the library reachable over TCP —
/// `..`, absolute paths, `file://` URIs, stored playlist names with `/` — while a client on
/// the Unix socket (mpd's "local" client, the user's own) may name a music file by its path.
final class MPDHostileSecurityTests: MPDDaemonTestCase {
    private func configuredHome(_ text: String) throws -> URL {
        let home = try makeHome()
        let folder = home.appendingPathComponent(".config/aubade", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try text.write(to: folder.appendingPathComponent("aubade.conf"), atomically: true, encoding: .utf8)
        return home
    }

    func testTCPListensOnLoopbackOnlyByDefault() throws {
        let music = try makeDirectory("music")
        let songs = try MPDLibraryFixtures.smallLibrary(in: music)
        // No --mpd-address: what a user gets who only picks a port.
        let served = try startMPD(music: music, songs: songs, keepsDefaultTCP: true)
        let port = try XCTUnwrap(served.port)
        let ss = try Shell.run("ss", ["-H", "-ltnp"])
        XCTAssertTrue(ss.succeeded, "ss: \(ss)")
        let listening = ss.stdout.split(separator: "\n").filter { line in
            line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first?.hasSuffix(":\(port)") == true
        }
        let addresses = listening.compactMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first }
        XCTAssertEqual(addresses.map(String.init), ["127.0.0.1:\(port)"], "where port \(port) listens:\n\(ss.stdout)")
        XCTAssertTrue(listening.allSatisfy { $0.contains("pid=\(served.pid),") }, "the daemon's own socket:\n\(listening)")
        XCTAssertTrue(try served.connectTCP().command("ping").isOK)
    }

    func testPasswordsAndPermissionsAreEnforced() throws {
        let home = try configuredHome("""
            mpd-password = reader@read
            mpd-password = "s3cret with spaces@read,add"
            mpd-password = boss@read,add,player,control,admin
            """)
        let music = try makeDirectory("music")
        let songs = try MPDLibraryFixtures.smallLibrary(in: music)
        _ = songs
        // (No `stats` to wait for the library with: it needs the read permission.)
        let served = try startMPD(music: music, tcp: true, home: home)
        for (side, connect) in [("TCP", { try served.connectTCP() }), ("Unix socket", { try served.connect() })] {
            let client = try connect()
            // No password: nothing but the connection's own commands.
            XCTAssertEqual(try client.command("status").ack, "ACK [4@0] {status} you don't have permission for \"status\"", side)
            XCTAssertEqual(try client.command("add album").ack, "ACK [4@0] {add} you don't have permission for \"add\"", side)
            XCTAssertEqual(try client.command("play").ack, "ACK [4@0] {play} you don't have permission for \"play\"", side)
            let allowed = try client.command("commands").values("command")
            XCTAssertFalse(allowed.contains("status"), "\(side): \(allowed)")
            XCTAssertTrue(allowed.contains("password"), "\(side): \(allowed)")
            XCTAssertTrue(try client.command("notcommands").values("command").contains("status"), side)
            XCTAssertEqual(try client.command("password wrong").ack, "ACK [3@0] {password} incorrect password", side)
            XCTAssertEqual(try client.command("password").ack.map { $0.hasPrefix("ACK [2@0] {password}") }, true, side)
            XCTAssertEqual(try client.command("password \(String(repeating: "x", count: 8000))").ack,
                           "ACK [3@0] {password} incorrect password", side)
            // A thousand wrong guesses in a row: each refused, the connection and the daemon go on.
            try client.send(String(repeating: "password guess\n", count: 1000))
            for _ in 0..<1000 { XCTAssertEqual(try client.readAnswer().ack, "ACK [3@0] {password} incorrect password") }

            // read: browse, but not change.
            XCTAssertTrue(try client.command("password reader").isOK, side)
            XCTAssertTrue(try client.command("status").isOK, side)
            XCTAssertEqual(try client.command("add album").ack, "ACK [4@0] {add} you don't have permission for \"add\"", side)
            XCTAssertEqual(try client.command("setvol 10").ack, "ACK [4@0] {setvol} you don't have permission for \"setvol\"", side)
            // read,add (a password with spaces, quoted): add, but not play; a wrong password
            // afterwards keeps what was given.
            XCTAssertTrue(try client.command("password \"s3cret with spaces\"").isOK, side)
            XCTAssertEqual(try client.command("play").ack, "ACK [4@0] {play} you don't have permission for \"play\"", side)
            XCTAssertEqual(try client.command("password nope").ack, "ACK [3@0] {password} incorrect password", side)
            XCTAssertEqual(try client.command("kill").ack, "ACK [4@0] {kill} you don't have permission for \"kill\"", side)
            let commands = try client.command("commands").values("command")
            XCTAssertTrue(commands.contains("add") && !commands.contains("play"), "\(side): \(commands)")
            // Inside a list, the first refused command stops it with its index.
            XCTAssertEqual(try client.command("command_list_begin\nstatus\nclear\ncommand_list_end").ack,
                           "ACK [4@1] {clear} you don't have permission for \"clear\"", side)
            XCTAssertTrue(try client.command("password boss").isOK, side)
            XCTAssertTrue(try client.command("setvol 10").isOK, side)
            client.close()
        }
        XCTAssertTrue(served.daemon.isRunning)
        XCTAssertTrue(try served.connect().command("ping").isOK)
    }

    /// Over TCP nothing outside the library can be named; the same paths from the Unix socket
    /// are the user's own files (mpd's rule for local clients), and a real music file there is
    /// allowed.
    func testPathsOutsideTheLibraryAreRefusedOverTCP() throws {
        let music = try makeDirectory("music")
        let songs = try MPDLibraryFixtures.smallLibrary(in: music)
        // A cover beside a song: albumart of a path that climbs out must not find another.
        let outside = try makeDirectory("outside")
        try Data([0xFF, 0xD8, 0xFF, 0xE0]).write(to: outside.appendingPathComponent("cover.jpg"))
        try MPDLibraryFixtures.write([("TIT2", MPDLibraryFixtures.text("Outside"))], to: outside.appendingPathComponent("x.mp3"))
        let served = try startMPD(music: music, songs: songs, tcp: true)
        let client = try served.connectTCP()
        XCTAssertTrue(try client.command("clear").isOK)
        let climb = "../" + outside.lastPathComponent
        let attempts = [
            "add ../../etc/passwd", "add /etc/passwd", "add file:///etc/passwd", "add \"\(outside.path)/x.mp3\"",
            "add \"file://\(outside.path)/x.mp3\"", "add \"\(climb)/x.mp3\"", "add album/../../\(outside.lastPathComponent)",
            "addid /etc/passwd", "lsinfo ../", "lsinfo /etc", "lsinfo \"\(climb)\"", "listall ..", "listallinfo ../",
            "listfiles ..", "listfiles /etc", "listfiles \"\(climb)\"", "listfiles album/../..",
            "albumart ../../etc/x 0", "albumart \"\(climb)/x.mp3\" 0", "albumart \"\(outside.path)/x.mp3\" 0",
            "readpicture /etc/passwd 0", "readpicture \"\(outside.path)/x.mp3\" 0", "readpicture \"\(climb)/x.mp3\" 0",
            "find base ..", "find \"(base '../')\"", "update ../", "update /etc", "rescan \"\(climb)\"",
            "save a/b", "save ../x", "save ..", "save .hidden", "load ../x", "load /etc/passwd", "listplaylist ../../etc/passwd",
            "listplaylistinfo /etc/passwd", "playlistadd ../x album/one.mp3", "playlistadd x /etc/passwd",
            "rename x ../y", "rm ../x", "rm /etc/passwd", "playlistclear ../x", "findadd base ..",
        ]
        for attempt in attempts {
            let answer = try client.command(attempt)
            let text = answer.lines.joined(separator: "\n")
            XCTAssertFalse(answer.isOK && !answer.lines.dropLast().isEmpty, "\(attempt) answered: \(text)")
            XCTAssertFalse(text.contains("root:") || text.contains("passwd") && !text.hasPrefix("ACK"), "\(attempt): \(text)")
            XCTAssertTrue(answer.binary.isEmpty, "\(attempt) sent \(answer.binary.count) bytes of a picture")
        }
        XCTAssertEqual(try client.command("status").value("playlistlength"), "0", "nothing outside got into the queue")
        XCTAssertEqual(try client.command("listplaylists").values("playlist"), [], "no playlist was written")
        XCTAssertFalse(FileManager.default.fileExists(atPath: music.deletingLastPathComponent().appendingPathComponent("x.m3u8").path))

        // The Unix socket: the user's own files by path — a music file in or outside the library.
        let local = try served.connect()
        XCTAssertTrue(try local.command("add \"\(music.path)/album/one.mp3\"").isOK)
        XCTAssertTrue(try local.command("add \"file://\(outside.path)/x.mp3\"").isOK)
        XCTAssertTrue(try local.command("readpicture \"\(music.path)/album/one.mp3\" 0").isOK)
        XCTAssertEqual(try local.command("status").value("playlistlength"), "2")
        // …and a file that is no music is refused with an answer, not taken.
        XCTAssertNotNil(try local.command("add /etc/passwd").ack)
        XCTAssertNotNil(try local.command("add /proc/self/mem").ack)
        XCTAssertEqual(try local.command("status").value("playlistlength"), "2")
        assertStillServes(served)
    }
}
