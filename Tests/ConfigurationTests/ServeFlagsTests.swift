import Configuration
import Foundation
import PlayerCore
import XCTest

/// `aubade serve`'s flags, and how they override the file.
final class ServeFlagsTests: XCTestCase {
    let environment = ["HOME": "/home/ada"]

    func flags(_ arguments: [String]) throws -> ServeFlags {
        try ServeFlags.parse(arguments, environment: environment, workingDirectory: "/work")
    }

    func testAFlagOverridesItsKey() throws {
        let file = try Settings.parse("""
            volume = 0.3
            resume-on-reconnect = true
            log-level = warning
            music-folder = /srv/a
            music-folder = /srv/b
            playlists-folder = /srv/lists
            pause-on-route-loss = false
            """, file: "aubade.conf", environment: environment)
        let settings = file.applying(flags: try flags(["--volume", "0.8", "--no-resume-on-reconnect",
                                                       "--log-level=debug", "--music-folder", "~/Music"]))
        XCTAssertEqual(settings.initialVolume, 0.8)
        XCTAssertFalse(settings.resumeOnReconnect)
        XCTAssertEqual(settings.logLevel, .debug)
        // --music-folder replaces the file's list; keys without a flag keep the file's value.
        XCTAssertEqual(settings.musicFolders, ["/home/ada/Music"])
        XCTAssertEqual(settings.playlistsFolder, "/srv/lists")
        XCTAssertFalse(settings.pauseOnRouteLoss)
        // No flags: the file as is.
        XCTAssertEqual(file.applying(flags: try flags([])), file)
    }

    func testApplyingFlagsGivenAsArguments() throws {
        let settings = try Settings().applying(flags: ["--resume-on-reconnect", "--playlists-folder", "lists"],
                                               environment: environment, workingDirectory: "/work")
        XCTAssertTrue(settings.resumeOnReconnect)
        XCTAssertEqual(settings.playlistsFolder, "/work/lists")
    }

    /// The guard's switch: the flag wins over the file, either way (found by the guard's
    /// integration tests: the flag was parsed and then dropped).
    func testTheGuardFlagsWinOverTheFile() throws {
        var off = Settings()
        off.guardOtherPlayers = false
        XCTAssertTrue(off.applying(flags: try flags(["--guard-other-players"])).guardOtherPlayers)
        XCTAssertFalse(Settings().applying(flags: try flags(["--no-guard-other-players"])).guardOtherPlayers)
        XCTAssertFalse(off.applying(flags: try flags([])).guardOtherPlayers)
        XCTAssertFalse(Settings().applying(flags: try flags(["--no-guard-other-players"])).guardPolicy.isOn)
    }

    func testEveryFlagAndTheOperands() throws {
        let flags = try flags(["one.mp3", "--config", "my.conf", "--music-folder", "a", "--music-folder=/b",
                               "--playlists-folder=$HOME/p", "--volume=1.5", "--resume-on-reconnect",
                               "dir/", "--", "--not-a-flag.mp3"])
        XCTAssertEqual(flags.configFile, "/work/my.conf")
        XCTAssertEqual(flags.musicFolders, ["/work/a", "/b"])
        XCTAssertEqual(flags.playlistsFolder, "/home/ada/p")
        XCTAssertEqual(flags.volume, 1.5)
        XCTAssertEqual(flags.resumeOnReconnect, true)
        XCTAssertFalse(flags.help)
        XCTAssertEqual(flags.operands, ["one.mp3", "dir/", "--not-a-flag.mp3"])
        XCTAssertTrue(try self.flags(["-h"]).help)
        XCTAssertTrue(try self.flags(["--help"]).help)
    }

    func testBadFlagsAreUsageErrorsNamingTheFlag() throws {
        let cases: [([String], String)] = [
            (["--volme", "1"], "unknown option \"--volme\""),
            (["--volume"], "--volume needs a value"),
            (["--volume", "3"], "--volume: bad value \"3\" (expected a number from 0 to 1.5 (1 = 100 %))"),
            (["--log-level", "loud"], "--log-level: bad value \"loud\" (expected debug, info, notice, warning or error)"),
            (["--resume-on-reconnect=no"], "--resume-on-reconnect takes no value"),
        ]
        for (arguments, message) in cases {
            XCTAssertThrowsError(try flags(arguments), "\(arguments)") { error in
                let error = error as? ConfigurationError
                XCTAssertEqual(error?.kind, .usage)
                XCTAssertTrue(error?.isUsageError ?? false)
                XCTAssertEqual(error?.description, message)
                XCTAssertEqual(error?.key, arguments[0].split(separator: "=").first.map(String.init))
            }
        }
    }

    func testLoadCommandLineReadsTheDefaultFileThenTheFlags() throws {
        let home = try temporaryFolder()
        let configHome = home.appendingPathComponent(".config")
        try FileManager.default.createDirectory(at: configHome.appendingPathComponent("aubade"),
                                                withIntermediateDirectories: true)
        try "volume = 0.2\nlog-level = error\n".write(to: configHome.appendingPathComponent("aubade/aubade.conf"),
                                                    atomically: true, encoding: .utf8)
        let environment = ["HOME": home.path, "XDG_CONFIG_HOME": configHome.path]
        let (settings, flags, file) = try Settings.load(commandLine: ["--volume", "0.9", "song.mp3"],
                                                        environment: environment, workingDirectory: "/work")
        XCTAssertEqual(file, configHome.appendingPathComponent("aubade/aubade.conf").path)
        XCTAssertEqual(settings.initialVolume, 0.9)
        XCTAssertEqual(settings.logLevel, .error)
        XCTAssertEqual(flags.operands, ["song.mp3"])
    }

    func testLoadCommandLineWithConfigReadsThatFileWhichMustExist() throws {
        let folder = try temporaryFolder()
        let other = folder.appendingPathComponent("other.conf")
        try "pause-before-sleep = false\n".write(to: other, atomically: true, encoding: .utf8)
        let environment = ["HOME": folder.path]
        let loaded = try Settings.load(commandLine: ["--config", other.path], environment: environment)
        XCTAssertEqual(loaded.file, other.path)
        XCTAssertFalse(loaded.settings.pauseBeforeSleep)

        // The default file may be missing; one named with --config may not.
        XCTAssertEqual(try Settings.load(commandLine: [], environment: environment).settings, Settings())
        let missing = folder.appendingPathComponent("missing.conf").path
        XCTAssertThrowsError(try Settings.load(commandLine: ["--config", missing], environment: environment)) { error in
            XCTAssertEqual((error as? ConfigurationError)?.kind, .unreadableFile)
            XCTAssertTrue("\(error)".hasPrefix("\(missing): "), "\(error)")
        }
    }

    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("aubade-flags-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}
