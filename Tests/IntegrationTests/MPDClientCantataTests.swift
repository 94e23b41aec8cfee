import Foundation
import XCTest
@testable import TestSupport

/// Cantata (Debian's 2.5), the Qt desktop client, in a real window on Xvfb, set up as a user
/// would have it after its first-run wizard (cantata.conf: the server's host and port, a music
/// folder it cannot read, so every cover comes over the protocol; the library as an album grid;
/// `--no-network`: nothing leaves the machine). It must read the whole library into its own
/// database, fetch the one album cover there is (albumart of the album's folder), and meet no
/// refusal but those mpd 0.23 gives it too. Its screen is kept as a PNG with the test's output
/// (`artifact`), to be looked at.
///
/// Not in the sanitizer phases (scripts/run-tests: desktop_clients): MPDClientPythonTests'
/// Cantata script sends the same commands there.
final class MPDClientCantataTests: MPDClientTestCase {
    func testTheLibraryShowsEveryAlbumAndTheCoverComesOverTheProtocol() throws {
        let xvfb = try XvfbDisplay()
        defer { xvfb.stop() }
        let home = TestRunDirectory.url.appendingPathComponent("cantata-home-\(UUID().uuidString.prefix(8))", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let config = home.appendingPathComponent(".config/cantata", isDirectory: true)
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        // What the first-run wizard writes (gui/settings.cpp): a "version" means "configured".
        try """
            [General]
            version=2.5.0
            fetchCovers=false
            page=LibraryPage

            [Connection]
            host=127.0.0.1
            port=\(port)
            dir=\(home.path)/no-music-here/

            [LibraryPage]
            grouping=album
            album\\viewMode=icontop

            """.write(to: config.appendingPathComponent("cantata.conf"), atomically: true, encoding: .utf8)
        let cantata = try UnblockedProcess("cantata", ["--no-network", "--debug", "mpd"], environment: [
            "DISPLAY": xvfb.display, "HOME": home.path, "XDG_CONFIG_HOME": config.deletingLastPathComponent().path,
            "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path,
            "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path, "LC_ALL": "C.UTF-8",
        ])
        defer { cantata.stop() }

        // Its library: every song, with the tags it groups and sorts albums by.
        let database = home.appendingPathComponent(".local/share/cantata/library/127.0.0.1_\(port).sql")
        var rows: [String] = []
        try eventually("Cantata's library holds the 11 songs (it holds \(rows.count); \(cantata))", timeout: 30) {
            let listed = try Shell.run(PythonScript.interpreter, try PythonScript.arguments("cantata_library", [database.path]))
            rows = listed.stdout.split(separator: "\n").map(String.init)
            return rows.count == ClientLibrary.songs.count
        }
        XCTAssertEqual(rows.first, "Ann Arbor/First Light/01 Dawn.mp3\tAnn Arbor\tFirst Light\tDawn\t1\t1\t2001")
        XCTAssertTrue(rows.contains("Ann Arbor/Second Wind/2-01 Calm.mp3\tAnn Arbor\tSecond Wind\tCalm\t2\t1\t2004"), "\(rows)")
        XCTAssertTrue(rows.contains("Compilations/Summer Mix/02 Sand.mp3\tVarious Artists\tSummer Mix\tSand\t0\t2\t2015"), "\(rows)")
        let albums = Set(rows.map { $0.split(separator: "\t", omittingEmptySubsequences: false) }.map { "\($0[1])/\($0[2])" })
        XCTAssertEqual(albums, Set(ClientLibrary.albums.map { "\($0.albumArtist)/\($0.album)" } + ["/Unknown"]))

        // The cover, fetched with albumart (Cantata keeps what it fetched in its cache).
        let cached = home.appendingPathComponent(".cache/cantata/covers/Ann Arbor/First Light.jpg")
        try eventually("Cantata cached First Light's cover (\(cantata))", timeout: 20) {
            FileManager.default.fileExists(atPath: cached.path)
        }
        XCTAssertEqual(try Data(contentsOf: cached), try library.coverJPEG, "the cover Cantata got is not cover.jpg")

        // The screen, once Cantata has drawn it: kept for a person to look at.
        XCTAssertTrue(xvfb.waitUntilStill(), "Cantata's window never stopped changing")
        let shot = try artifact("cantata", extension: "png")
        let drawn = try xvfb.screenshot(to: shot)
        print("Cantata's window: \(shot.path)")
        XCTAssertGreaterThan(drawn, 0.2, "the screen is nearly blank: \(shot.path)")

        // Every command Cantata saw refused is one mpd 0.23 refuses too: its probe for other
        // servers, its streams playlist, the covers of the folders that have none.
        let refused = cantata.stdout.split(separator: "\n").compactMap { line -> String? in
            guard line.hasSuffix("\" failed"), let start = line.range(of: " - MPDConnection ") else { return nil }
            let rest = line[start.upperBound...]
            guard let quote = rest.firstIndex(of: "\"") else { return nil }
            return String(rest[quote...].dropLast(" failed".count))
        }
        let expected = ["\"lsinfo \\\"mpd-client://cantata/2.5.0\\\"\"", "\"listplaylistinfo \\\"[Radio Streams]\\\"\"",
                        "\"albumart \\\"Ann Arbor/Second Wind/\\\" 0\"", "\"albumart \\\"Bea Quartet/Night Songs/\\\" 0\"",
                        "\"albumart \\\"Compilations/Summer Mix/\\\" 0\""]
        XCTAssertEqual(Set(refused), Set(expected), "commands Cantata saw refused")
        XCTAssertTrue(cantata.stdout.contains("detected serverType: \"MPD\""), "Cantata did not take Aubade for mpd")
        XCTAssertTrue(cantata.isRunning, "Cantata ended: \(cantata)")
    }
}
