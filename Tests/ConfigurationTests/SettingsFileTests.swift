import Configuration
import Foundation
import PlayerCore
import XCTest

/// aubade.conf: every key read, every error naming file, line and key.
final class SettingsFileTests: XCTestCase {
    let environment = ["HOME": "/home/ada", "XDG_CONFIG_HOME": "/home/ada/.config"]
    let file = "/home/ada/.config/aubade/aubade.conf"

    func parse(_ text: String) throws(ConfigurationError) -> Settings {
        try Settings.parse(text, file: file, environment: environment)
    }

    /// The error `text` throws, or a failure.
    func error(_ text: String, line: UInt = #line) -> ConfigurationError? {
        do {
            let settings = try parse(text)
            XCTFail("expected an error, got \(settings)", line: line)
            return nil
        } catch {
            return error
        }
    }

    func testAGoodFileSetsEveryKey() throws {
        let settings = try parse("""
            # Aubade's configuration
            music-folder = /srv/music/jazz
            music-folder = ~/Music/Rock
            playlists-folder = $HOME/Playlists
            pause-on-route-loss = false
            pause-on-interruption = no
            resume-on-reconnect = yes
            reconnect-window = 12.5
            volume = 0.4
            log-level = debug
            pause-before-sleep = off
            """)
        XCTAssertEqual(settings.musicFolders, ["/srv/music/jazz", "/home/ada/Music/Rock"])
        XCTAssertEqual(settings.playlistsFolder, "/home/ada/Playlists")
        XCTAssertFalse(settings.pauseOnRouteLoss)
        XCTAssertFalse(settings.pauseOnInterruption)
        XCTAssertTrue(settings.resumeOnReconnect)
        XCTAssertEqual(settings.reconnectWindow, 12.5)
        XCTAssertEqual(settings.initialVolume, 0.4)
        XCTAssertEqual(settings.logLevel, .debug)
        XCTAssertFalse(settings.pauseBeforeSleep)

        let policy = settings.policy
        XCTAssertFalse(policy.pauseOnRouteLoss)
        XCTAssertFalse(policy.pauseOnInterruption)
        XCTAssertTrue(policy.resumeOnReconnect)
        XCTAssertEqual(policy.reconnectWindow, 12_500_000)
    }

    func testReplayGainKeys() throws {
        let settings = try parse("replaygain = Album\nreplaygain-preamp = -2.5\n")
        XCTAssertEqual(settings.replayGain, .album)
        XCTAssertEqual(settings.policy.replayGain, .album)
        XCTAssertEqual(settings.policy.replayGainPreamp, -2.5)
        XCTAssertEqual(Settings().replayGain, .off)
        for bad in ["replaygain = loud", "replaygain-preamp = 40", "replaygain-preamp = nan"] {
            let message = "\(error(bad).map { "\($0)" } ?? "")"
            XCTAssertTrue(message.contains(bad.components(separatedBy: " ").first!), message)
        }
        XCTAssertEqual(try Settings().applying(flags: ["--replaygain", "auto"]).replayGain, .auto)
        XCTAssertThrowsError(try Settings().applying(flags: ["--replaygain=sometimes"]))
    }

    /// mpd's connection_timeout: whole or fractional seconds, at least one, at most a day.
    func testMPDTimeout() throws {
        XCTAssertEqual(try parse("").mpdTimeout, 60)
        XCTAssertEqual(try parse("mpd-timeout = 2").mpdTimeout, 2)
        XCTAssertEqual(try parse("mpd-timeout = 1.5").mpdTimeout, 1.5)
        for bad in ["0", "-1", "86401", "nan", "soon"] {
            XCTAssertNotNil(error("mpd-timeout = \(bad)"), bad)
        }
    }

    func testDefaultsMatchThePlayerCorePolicy() {
        let settings = Settings()
        XCTAssertEqual(settings.policy, AudioSessionPolicy())
        XCTAssertEqual(settings.musicFolders, [])
        XCTAssertNil(settings.playlistsFolder)
        XCTAssertNil(settings.initialVolume)
        XCTAssertEqual(settings.logLevel, .info)
        XCTAssertTrue(settings.pauseBeforeSleep)
    }

    func testUnknownKeyNamesFileLineAndKey() throws {
        let error = try XCTUnwrap(error("""
            # comment
            log-level = info

            volme = 0.5
            """))
        XCTAssertEqual(error.kind, .unknownKey)
        XCTAssertEqual(error.file, file)
        XCTAssertEqual(error.line, 4)
        XCTAssertEqual(error.key, "volme")
        XCTAssertEqual(error.description,
                       "/home/ada/.config/aubade/aubade.conf:4: unknown key \"volme\" (did you mean \"volume\"?)")
        XCTAssertFalse(error.isUsageError)
    }

    func testUnknownKeyWithNothingClose() throws {
        let error = try XCTUnwrap(error("shuffle = on"))
        XCTAssertEqual(error.description, "\(file):1: unknown key \"shuffle\"")
    }

    func testBadValuesNameFileLineAndKey() throws {
        let cases: [(text: String, key: String, expected: String)] = [
            ("volume = 2", "volume", "a number from 0 to 1.5"),
            ("volume = loud", "volume", "a number from 0 to 1.5"),
            ("volume = nan", "volume", "a number from 0 to 1.5"),
            ("pause-on-route-loss = maybe", "pause-on-route-loss", "true or false"),
            ("reconnect-window = -1", "reconnect-window", "seconds"),
            ("log-level = loud", "log-level", "debug, info, notice, warning or error"),
            ("music-folder = Music", "music-folder", "absolute path"),
            ("playlists-folder = ~ada/lists", "playlists-folder", "~user is not supported"),
            ("volume =", "volume", "no value"),
        ]
        for (text, key, expected) in cases {
            let error = try XCTUnwrap(self.error("pause-before-sleep = true\n" + text), text)
            XCTAssertEqual(error.kind, .badValue, text)
            XCTAssertEqual(error.line, 2, text)
            XCTAssertEqual(error.key, key, text)
            XCTAssertTrue(error.description.hasPrefix("\(file):2: "), error.description)
            XCTAssertTrue(error.description.contains("\"\(key)\""), error.description)
            XCTAssertTrue(error.description.contains(expected), "\(error.description) lacks \(expected)")
        }
        XCTAssertEqual(error("volume = 2")?.description,
                       "\(file):1: bad value for \"volume\": \"2\" (expected a number from 0 to 1.5 (1 = 100 %))")
    }

    func testAKeyGivenTwiceIsAnErrorExceptMusicFolder() throws {
        let error = try XCTUnwrap(error("volume = 0.5\n\nvolume = 0.6"))
        XCTAssertEqual(error.kind, .duplicateKey)
        XCTAssertEqual(error.description, "\(file):3: \"volume\" is set twice (first on line 1)")
        XCTAssertEqual(try parse("music-folder = /a\nmusic-folder = /b").musicFolders, ["/a", "/b"])
    }

    func testALineWithoutEqualsIsASyntaxError() throws {
        let error = try XCTUnwrap(error("log-level = info\nvolume 0.5"))
        XCTAssertEqual(error.kind, .syntax)
        XCTAssertEqual(error.description, "\(file):2: expected \"key = value\", found \"volume 0.5\"")
        XCTAssertEqual(self.error("volume = \"0.5")?.description,
                       "\(file):1: \"volume\": the value's closing \" is missing")
    }

    func testQuotesCommentsAndWhitespace() throws {
        let settings = try parse("""
            \t# indented comment
               music-folder   =   "/srv/My Music #1"    # a comment after quotes
            music-folder='/srv/with = sign'
            playlists-folder = /srv/lists#not-a-comment
            volume=0.25 # quiet\r
            log-level = 'warning'
            \t
            pause-before-sleep = TRUE
            """)
        XCTAssertEqual(settings.musicFolders, ["/srv/My Music #1", "/srv/with = sign"])
        XCTAssertEqual(settings.playlistsFolder, "/srv/lists#not-a-comment")
        XCTAssertEqual(settings.initialVolume, 0.25)
        XCTAssertEqual(settings.logLevel, .warning)
        XCTAssertTrue(settings.pauseBeforeSleep)
        XCTAssertEqual(try parse("").musicFolders, [])
        XCTAssertEqual(self.error("volume = \"0.5\" x")?.kind, .syntax)
    }

    func testTildeAndHomeExpand() throws {
        let settings = try parse("""
            music-folder = ~
            music-folder = ~/Music
            music-folder = $HOME/Music/../Other
            music-folder = ${HOME}/x//y/./z/
            music-folder = /srv/$HOMEPAGE
            """)
        XCTAssertEqual(settings.musicFolders, ["/home/ada", "/home/ada/Music", "/home/ada/Music/../Other",
                                               "/home/ada/x/y/z", "/srv/$HOMEPAGE"])
    }

    func testDefaultPathFollowsXDGConfigHome() {
        XCTAssertEqual(Settings.defaultPath(environment: ["HOME": "/home/ada", "XDG_CONFIG_HOME": "/cfg"]),
                       "/cfg/aubade/aubade.conf")
        XCTAssertEqual(Settings.defaultPath(environment: ["HOME": "/home/ada"]),
                       "/home/ada/.config/aubade/aubade.conf")
        // A relative XDG_CONFIG_HOME is invalid: ignored, as the spec says.
        XCTAssertEqual(Settings.defaultPath(environment: ["HOME": "/home/ada", "XDG_CONFIG_HOME": "cfg"]),
                       "/home/ada/.config/aubade/aubade.conf")
    }

    // MARK: Files on disk

    func testAMissingFileMeansDefaults() throws {
        let folder = try temporaryFolder()
        let settings = try Settings.load(from: folder.appendingPathComponent("aubade.conf").path, environment: environment)
        XCTAssertEqual(settings, Settings())
    }

    func testAMissingFileNamedExplicitlyIsAnError() throws {
        let path = try temporaryFolder().appendingPathComponent("nope.conf").path
        XCTAssertThrowsError(try Settings.load(from: path, mustExist: true, environment: environment)) { error in
            let error = error as? ConfigurationError
            XCTAssertEqual(error?.kind, .unreadableFile)
            XCTAssertEqual(error?.description, "\(path): cannot read the configuration file: No such file or directory")
        }
    }

    func testAFolderInsteadOfAFileIsAnError() throws {
        let folder = try temporaryFolder()
        XCTAssertThrowsError(try Settings.load(from: folder.path, environment: environment)) { error in
            XCTAssertEqual((error as? ConfigurationError)?.kind, .unreadableFile)
            XCTAssertTrue("\(error)".hasPrefix("\(folder.path): "), "\(error)")
        }
    }

    /// A FIFO would block a plain open forever (at start, or on SIGHUP on the core queue);
    /// a device or a huge file would fill memory (issue 10, bad-input corpus).
    func testAFIFOADeviceOrAHugeFileIsRefusedWithoutReading() throws {
        let folder = try temporaryFolder()
        let fifo = folder.appendingPathComponent("fifo.conf").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let huge = folder.appendingPathComponent("huge.conf").path
        try "volume = 0.3\n".write(toFile: huge, atomically: true, encoding: .utf8)
        XCTAssertEqual(truncate(huge, off_t(2 << 20)), 0)
        for (path, reason) in [(fifo, "not a regular file"), ("/dev/zero", "not a regular file"), (huge, "larger than 1 MiB")] {
            XCTAssertThrowsError(try Settings.load(from: path, environment: environment)) { error in
                XCTAssertEqual((error as? ConfigurationError)?.kind, .unreadableFile)
                XCTAssertEqual("\(error)", "\(path): cannot read the configuration file: \(reason)")
            }
        }
    }

    func testLoadReadsTheFileAndNamesItInErrors() throws {
        let path = try temporaryFolder().appendingPathComponent("aubade.conf").path
        try "volume = 0.3\n".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertEqual(try Settings.load(from: path, environment: environment).initialVolume, 0.3)
        try "volume = 0.3\nlog-level = chatty\n".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try Settings.load(from: path, environment: environment)) { error in
            XCTAssertEqual("\(error)", "\(path):2: bad value for \"log-level\": \"chatty\" (expected debug, info, notice, warning or error)")
        }
    }

    func testTheDocumentationListsEveryKeyWithItsDefault() {
        let text = Settings.documentation
        for key in ["music-folder", "playlists-folder", "pause-on-route-loss", "pause-on-interruption",
                    "resume-on-reconnect", "reconnect-window", "volume", "log-level", "pause-before-sleep"] {
            XCTAssertTrue(text.contains("\n  \(key) = "), "documentation lacks \(key)")
        }
        XCTAssertTrue(text.contains("default: 30"))
        XCTAssertTrue(text.contains("aubade.conf"))
    }

    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("aubade-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}
