import Foundation
import XCTest
@testable import TestSupport

/// How the MPD front-end's sockets behave, beyond what mpd's answers say (MPDSideBySideTests):
/// its Unix socket is served and stays the first daemon's, and every answer leaves in one write.
final class MPDSocketTests: AubadeTestCase {
    private var socketPath: String {
        (ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"] ?? "/tmp") + "/aubade/mpd.socket"
    }

    /// A second `aubade serve` (a second instance on the bus) finds the socket taken: it must
    /// neither take it over nor, when it stops, remove the first one's socket file.
    func testASecondDaemonLeavesTheFirstOnesSocketAlone() throws {
        let first = try startDaemon([fixtures.long])
        XCTAssertNotNil(first.waitForLog(containing: "MPD clients served on \(socketPath)"),
                        "no Unix socket served: \(first.stderrLines)")
        XCTAssertEqual(try MPDConnection(.unix(path: socketPath)).command("ping"), MPDAnswer())
        let second = try startDaemon([fixtures.long2.path], waitingFor: nil)
        try second.waitForBusName(second.instanceBusName)
        XCTAssertNotNil(second.waitForLog(containing: "\(socketPath) is taken"), "\(second.stderrLines)")
        second.stop()
        let after = try MPDConnection(.unix(path: socketPath), connectTimeout: 1)
        XCTAssertEqual(try after.command("currentsong").value("Title"), "Long One", "another server answers on the socket")
    }

    /// An answer and its `OK` leave in one write. Written apart, the `OK` waited for the
    /// client's delayed ACK (Nagle): 44 ms a `status` over TCP, where mpd takes 0.3 ms.
    func testEveryAnswerLeavesWholeInOneWrite() throws {
        let playlists = TestRunDirectory.url.appendingPathComponent("playlists-\(UUID().uuidString)")
        let aubade = try startMPDDaemon(music: fixtures.albumDirectory, playlists: playlists)
        for unix in [false, true] {
            let client = try aubade.connect(unix: unix)
            for line in Array(repeating: ["status", "stats", "outputs", "commands", "tagtypes"], count: 4).joined() {
                try client.send(line)
                let piece = try client.readOnce()
                XCTAssertTrue(piece.count > 3 && piece.suffix(3) == Array("OK\n".utf8),
                              "\(line) over \(unix ? "the Unix socket" : "TCP") came in pieces: \(MPDAnswer.text(piece))")
                if piece.suffix(3) != Array("OK\n".utf8) { _ = try client.readAnswer() }
            }
        }
    }

    /// The socket decides who reaches the machine's files, as in mpd: a local client (the Unix
    /// socket) adds, lists and reads one song by its path, and gets mpd's errors for the rest
    /// (a folder, a playlist, a path not there); a client over TCP is denied. Found side by
    /// side with mpd: Aubade added folders by path, denied nothing to lsinfo and listfiles over
    /// TCP, and read no local path at all.
    func testOnlyLocalClientsReachFilesByPath() throws {
        let playlists = TestRunDirectory.url.appendingPathComponent("playlists-\(UUID().uuidString)")
        let aubade = try startMPDDaemon(music: fixtures.albumDirectory, playlists: playlists)
        let (local, remote) = (try aubade.connect(unix: true), try aubade.connect())
        try clearFirstQueue(local, songs: 2)
        let song = fixtures.alpha.path
        func ack(_ client: MPDConnection, _ line: String) throws -> String {
            guard case .ack(let text) = try client.command(line).end else { return "OK" }
            return text
        }
        XCTAssertEqual(try ack(remote, "add \"\(song)\""), "ACK [4@0] {add} Access denied")
        XCTAssertEqual(try ack(remote, "lsinfo /etc"), "ACK [4@0] {lsinfo} Access denied")
        XCTAssertEqual(try ack(remote, "listfiles \"file:///etc\""), "ACK [4@0] {listfiles} Access denied")

        XCTAssertEqual(try ack(local, "add \"\(song)\""), "OK")
        XCTAssertEqual(try ack(local, "add \"\(fixtures.directory.path)\""), "ACK [50@0] {add} No such song")
        XCTAssertEqual(try ack(local, "add \"file://\(fixtures.playlist.path)\""), "ACK [50@0] {add} No such song")
        XCTAssertEqual(try ack(local, "add /nowhere.mp3"), "ACK [52@0] {add} Failed to access /nowhere.mp3: No such file or directory")
        XCTAssertEqual(try local.command("playlist").lines, ["0:file: \(song)"])
        let info = try local.command("lsinfo \"\(song)\"")
        XCTAssertEqual(info.value("file"), song, "\(info)")
        XCTAssertNotNil(info.value("duration"), "\(info)")
        XCTAssertEqual(try ack(local, "lsinfo /etc"), "ACK [50@0] {lsinfo} No such file")
        XCTAssertTrue(try local.command("listfiles \"\(fixtures.albumDirectory.path)\"").values("file").contains("2 y.mp3"))

        // An embedded picture read past its end: mpd's words for readpicture.
        let folder = try Fixtures.makeDirectory()
        try TinyImages.png.write(to: URL(fileURLWithPath: folder + "/cover.png"))
        try Fixtures.makeMP3(at: folder + "/pictured.mp3", seconds: 1, lameOptions: ["--ti", folder + "/cover.png"])
        let picture = try local.command("readpicture \"\(folder)/pictured.mp3\" 0")
        XCTAssertEqual(picture.binary.count, TinyImages.png.count, "\(picture)")
        XCTAssertEqual(try ack(local, "readpicture \"\(folder)/pictured.mp3\" 99999"), "ACK [2@0] {readpicture} Bad file offset")
    }
}
