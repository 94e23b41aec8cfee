import Foundation
import XCTest
@testable import TestSupport

/// Programs built on python-mpd2 (Debian's python3-mpd 3.0.5), and two that talk the protocol
/// their own way, replayed as python-mpd2 scripts command for command: Home Assistant's mpd
/// integration, myMPD's album cache, Cantata's start-up. Each script (Tests/TestSupport/Scripts)
/// checks every answer against the test library and exits 1 naming the first thing wrong; each
/// passes against mpd 0.23 on the same library too (but for the volume, which mpd with a null
/// output does not have).
final class MPDClientPythonTests: MPDClientTestCase {
    private func runScript(_ name: String, _ arguments: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws {
        let pictures = library.root.appendingPathComponent("pictures").path
        let run = try runClient(PythonScript.interpreter,
                                try PythonScript.arguments(name, ["127.0.0.1", String(port), pictures] + arguments), timeout: 60)
        XCTAssertEqual(run.status, 0, "\(name).py: \(run.stderr)\(run.text)", file: file, line: line)
        XCTAssertEqual(run.stderr, "", "\(name).py wrote to stderr", file: file, line: line)
        XCTAssertTrue(run.text.hasPrefix("ok: "), "\(name).py: \(run)", file: file, line: line)
    }

    /// A new connection for every poll (status, currentsong, listplaylists), the picture of each
    /// new song (readpicture, then albumart; ACK 50 for none), and the services: play a song,
    /// volume, pause and play, next, repeat one and shuffle, play a stored playlist, stop.
    func testHomeAssistantPollsAndServices() throws {
        try runScript("mpd_home_assistant")
        // What the services did is what MPRIS shows: one player.
        XCTAssertEqual(try playbackStatus(), "Stopped")
        XCTAssertEqual(try playerProperty("Volume").double ?? -1, 0.45, accuracy: 0.001)
    }

    /// myMPD's album cache in windows of its MPD_RESULTS_MAX (1000), with only the tags it
    /// enabled, its browse views (list, count, an album by disc) and covers in 8 KiB chunks.
    func testMyMPDBuildsItsAlbumCache() throws {
        try runScript("mpd_mympd", ["1000"])
    }

    /// The same with windows of 3 songs: a big library's cache spans windows; so does this one.
    func testMyMPDAlbumCacheAcrossWindows() throws {
        try runScript("mpd_mympd", ["3"])
    }

    /// Cantata's two connections as it starts (server detection, status, tags, commands, the
    /// library folder by folder, playlists, each album's cover by folder), then an album added
    /// and a song added to a stored playlist, each heard by its idling connection.
    func testCantataStartUpSequence() throws {
        try runScript("mpd_cantata")
    }
}
