import Foundation
import XCTest
@testable import TestSupport

/// ncmpcpp (Debian's 0.9.2), the terminal client, in a 120×30 tmux terminal, driven with its
/// default keys as its users drive it: the browser (2), the search engine (3), the media library
/// (4: album artists, albums by year, songs by number), adding and playing from there, and the
/// playback keys. Its screen must show the library, and never an error: ncmpcpp shows each
/// error the server sends on its status line and writes it to its error.log, which stays empty.
final class MPDClientNcmpcppTests: MPDClientTestCase {
    private var terminal: TmuxTerminal!
    private var home: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        home = TestRunDirectory.url.appendingPathComponent("ncmpcpp-home-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        terminal = try TmuxTerminal(command: "env HOME=\(home.path) LC_ALL=C.UTF-8 TERM=xterm-256color ncmpcpp -h 127.0.0.1 -p \(port)")
        // The playlist screen, connected ("Connected to …" on the status line at first).
        try terminal.waitForScreen(showing: "Playlist", "Connected to 127.0.0.1")
    }

    override func tearDown() {
        if let terminal, let home {
            // Whatever went wrong is on the screen and in the log: keep both in the test's output.
            if (testRun?.failureCount ?? 0) > 0 {
                print("--- ncmpcpp's last screen:\n\((try? terminal.screen()) ?? "?")")
            }
            terminal.stop()
            assertNoErrorLogged(home)
            try? FileManager.default.removeItem(at: home)
        }
        terminal = nil
        super.tearDown()
    }

    /// ncmpcpp's error.log (every error it showed) is empty or absent.
    private func assertNoErrorLogged(_ home: URL) {
        let log = home.appendingPathComponent(".config/ncmpcpp/error.log")
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        XCTAssertEqual(text, "", "ncmpcpp logged errors")
    }

    /// No error on the screen: ncmpcpp prefixes the server's with "MPD: ".
    private func assertNoErrorShown(_ screen: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(screen.contains("MPD: ") || screen.lowercased().contains("error"), "an error on screen:\n\(screen)",
                       file: file, line: line)
    }

    func testBrowseSearchAndPlayFromTheMediaLibrary() throws {
        // The browser: folders, then the song at the root; into a folder.
        try terminal.press("2")
        var screen = try terminal.waitForScreen(showing: "Browse: /", "[Ann Arbor]", "[Bea Quartet]", "[Compilations]", "loose tone.mp3")
        assertNoErrorShown(screen)
        try terminal.press("Enter")
        screen = try terminal.waitForScreen(showing: "Browse: Ann Arbor", "[..]", "[First Light]", "[Second Wind]")
        assertNoErrorShown(screen)

        // The media library: album artists (and the untagged song's empty one), albums by year.
        try terminal.press("4")
        screen = try terminal.waitForScreen(showing: "Media library", "Ann Arbor", "Bea Quartet & Cy", "Dee Dunes", "Eli Ember")
        // ncmpcpp fills a column after it handled the keys it has: each key that moves into a
        // column waits for that column to be there, or it lands on an empty one and is lost.
        try terminal.press("Down")
        screen = try terminal.waitForScreen(showing: "(2001) First Light", "(2004) Second Wind", "01 - Dawn", "02 - Morning",
                                            "03 - Café Noir")
        assertNoErrorShown(screen)
        try terminal.press("Right")
        try terminal.press("Right")
        // Enter on a song adds it and plays it.
        try terminal.press("Down")
        try terminal.press("Enter")
        try terminal.waitForScreen(showing: "Added to playlist: Ann Arbor \"First Light\" (2001) - Morning")
        try eventually("Morning playing") {
            try mpd.run("status")["state"] == "play" && mpd.run("currentsong")["Title"] == "Morning"
        }
        XCTAssertEqual(try title(), "Morning", "MPRIS shows another song")

        // The search engine: Any = "night", then Search.
        try terminal.press("3")
        try terminal.waitForScreen(showing: "Search engine", "Any", "Album Artist")
        try terminal.press("Enter")
        try terminal.type("night")
        try terminal.press("Enter")
        try terminal.waitForScreen(showing: "Any          : night")
        // Down to "Search" (the 11 fields, "Search in", "Search mode", then the button).
        for _ in 0..<13 { try terminal.press("Down") }
        try terminal.press("Enter")
        screen = try terminal.waitForScreen(showing: "Search results: Found 2 songs", "Bea Quartet - Owl", "Bea Quartet & Cy - Moth")
        assertNoErrorShown(screen)

        // The playlist screen: the song added, playing.
        try terminal.press("1")
        screen = try terminal.waitForScreen(showing: "Playlist (1 item", "Morning", "First Light")
        assertNoErrorShown(screen)
    }

    func testThePlaylistEditorFollowsAnotherClientsEdits() throws {
        try mpd.run("add \"Ann Arbor/Second Wind\"")
        try mpd.run("save \"road trip\"")
        // 5: the stored playlists and the songs of the one selected.
        try terminal.press("5")
        var screen = try terminal.waitForScreen(showing: "Playlist editor", "road trip", "Content (3 items)",
                                                "Ann Arbor - Gale", "Ann Arbor - Breeze", "Ann Arbor - Calm")
        assertNoErrorShown(screen)
        // Another client adds a song to it, then removes one: ncmpcpp hears of each (stored_playlist)
        // and shows the list as it is now.
        try mpd.run("playlistadd \"road trip\" \"Bea Quartet/Night Songs/01 Owl.mp3\"")
        try terminal.waitForScreen(showing: "Content (4 items)", "Bea Quartet - Owl")
        try mpd.run("playlistdelete \"road trip\" 0")
        screen = try terminal.waitForScreen("the list without Gale") { screen in
            screen.contains("Content (3 items)") && !screen.contains("Ann Arbor - Gale")
        }
        assertNoErrorShown(screen)
    }

    func testPlaybackKeysAndTheStatusLine() throws {
        try mpd.run("add \"Ann Arbor/Second Wind\"")
        try mpd.run("play 0")
        try terminal.waitForScreen(showing: "Playlist (3 items", "Gale", "Breeze", "Calm")
        // > next, p pause, - volume down (2 % a press by default; it starts at 100 %).
        try terminal.press(">")
        try eventually("Breeze playing") { try mpd.run("currentsong")["Title"] == "Breeze" }
        try terminal.press("p")
        try eventually("paused") { try mpd.run("status")["state"] == "pause" }
        try terminal.waitForScreen(showing: "Volume: 100%")
        try terminal.press("-")
        try eventually("the volume down") { try mpd.run("status")["volume"] == "98" }
        try terminal.waitForScreen(showing: "Volume: 98%")
        // r: repeat, on the status line's mode flags and in the server.
        try terminal.press("r")
        try eventually("repeat on") { try mpd.run("status")["repeat"] == "1" }
        try terminal.press("s")
        try eventually("stopped") { try mpd.run("status")["state"] == "stop" }
        assertNoErrorShown(try terminal.screen())
    }
}
