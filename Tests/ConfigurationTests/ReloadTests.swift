import Configuration
import PlayerCore
import XCTest

/// What a reload (SIGHUP) changed, and which of it the running daemon can apply.
final class ReloadTests: XCTestCase {
    let environment = ["HOME": "/home/ada", "XDG_CONFIG_HOME": "/home/ada/.config"]

    func parse(_ text: String) throws -> Settings {
        try Settings.parse(text, file: "/home/ada/.config/aubade/aubade.conf", environment: environment)
    }

    func testNothingChangedIsNoChange() throws {
        let text = "log-level = debug\nmusic-folder = /srv/a\n"
        XCTAssertEqual(try parse(text).changes(to: try parse(text)), [])
    }

    func testEveryKeyIsSeenAndClassed() throws {
        let old = Settings()
        let new = try parse("""
            music-folder = /srv/music
            playlists-folder = /srv/lists
            pause-on-route-loss = false
            pause-on-interruption = false
            resume-on-reconnect = true
            reconnect-window = 12
            volume = 0.4
            log-level = debug
            pause-before-sleep = false
            category = mixWithOthers
            hand-back-delay = 9
            prefer-a2dp = false
            inhibit-sleep-while-playing = false
            """)
        let changes = old.changes(to: new)
        // Every key of the file is compared: a key added later without a value getter would
        // be missing here.
        XCTAssertEqual(Set(changes.map(\.key)).count, 13)
        let later = changes.filter { $0.takesEffect != .now }
        XCTAssertEqual(later.map(\.key), ["music-folder", "playlists-folder", "volume"])
        XCTAssertEqual(changes.first { $0.key == "playlists-folder" }?.takesEffect, .restart)
        XCTAssertEqual(changes.first { $0.key == "volume" }?.takesEffect, .nextStart)
        XCTAssertEqual(changes.first { $0.key == "log-level" },
                       SettingsChange(key: "log-level", old: "info", new: "debug", takesEffect: .now))
        XCTAssertEqual(changes.first { $0.key == "pause-before-sleep" }?.new, "false")
    }

    func testTheDocumentationSaysWhatNeedsARestart() {
        XCTAssertTrue(Settings.documentation.contains("SIGHUP"))
        XCTAssertTrue(Settings.documentation.contains("playlists-folder (after a\n"))
    }
}
