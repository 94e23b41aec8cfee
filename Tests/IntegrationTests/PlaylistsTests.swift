import Foundation
import XCTest
@testable import TestSupport

/// org.mpris.MediaPlayer2.Playlists over a playlists folder (`AUBADE_PLAYLISTS_DIR`, or
/// `$XDG_MUSIC_DIR/Playlists` from user-dirs.dirs), and org.aubade.Queue1 (Clear, SaveAsPlaylist).
final class PlaylistsTests: AubadeTestCase {
    /// Chill.m3u (Long One, Long Two), Alpine.m3u8 (Alpha, Beta), Blues.pls (Short One, Short Two),
    /// created in that order; modified Blues (2020) < Chill (2021) < Alpine (2022).
    private func makePlaylists() throws -> URL {
        let folder = try makeDirectory("playlists")
        try writeM3U(folder.appendingPathComponent("Chill.m3u"), [fixtures.long, fixtures.long2])
        Thread.sleep(forTimeInterval: 0.05)
        try writeM3U(folder.appendingPathComponent("Alpine.m3u8"), [fixtures.alpha, fixtures.beta])
        Thread.sleep(forTimeInterval: 0.05)
        try """
            [playlist]
            File1=\(fixtures.shortTracks[0].path)
            Title1=Short One
            Length1=2
            File2=\(fixtures.shortTracks[1].path)
            Title2=Short Two
            Length2=2
            NumberOfEntries=2
            Version=2

            """.write(to: folder.appendingPathComponent("Blues.pls"), atomically: false, encoding: .utf8)
        // Not a playlist: must not be listed.
        try "notes\n".write(to: folder.appendingPathComponent("README.txt"), atomically: false, encoding: .utf8)
        let year: (Int) -> Date = { Date(timeIntervalSince1970: Double($0 - 1970) * 365.25 * 86_400) }
        for (name, date) in [("Blues.pls", year(2020)), ("Chill.m3u", year(2021)), ("Alpine.m3u8", year(2022))] {
            try FileManager.default.setAttributes([.modificationDate: date],
                                                  ofItemAtPath: folder.appendingPathComponent(name).path)
        }
        return folder
    }

    private func writeM3U(_ file: URL, _ tracks: [URL]) throws {
        let lines = ["#EXTM3U"] + tracks.flatMap { ["#EXTINF:-1,\($0.deletingPathExtension().lastPathComponent)", $0.path] }
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: false, encoding: .utf8)
    }

    @discardableResult
    private func startWithPlaylists(_ folder: URL, playing files: [URL] = []) throws -> Daemon {
        let daemon = try startDaemon(files.map(\.path), environment: ["AUBADE_PLAYLISTS_DIR": folder.path])
        return daemon
    }

    private func names(_ order: String, reverse: Bool = false, index: UInt32 = 0, maxCount: UInt32 = 100) throws -> [String] {
        try Bus.getPlaylists(index: index, maxCount: maxCount, order: order, reverse: reverse).map(\.name)
    }

    // MARK: Properties

    func testPlaylistCountAndOrderings() throws {
        try startWithPlaylists(try makePlaylists(), playing: [fixtures.long])
        let count = try Bus.getRaw(Bus.playlistsInterface, "PlaylistCount")
        XCTAssertEqual(count.values.first?.unwrapped, .integer("u", 3), "\(count)")
        let orderings = try Bus.get(Bus.playlistsInterface, "Orderings").strings ?? []
        for order in ["Alphabetical", "CreationDate", "ModifiedDate", "UserDefined"] {
            XCTAssertTrue(orderings.contains(order), "Orderings \(orderings) lacks \(order)")
        }
    }

    func testActivePlaylistIsInvalidBeforeAnyIsActivated() throws {
        try startWithPlaylists(try makePlaylists(), playing: [fixtures.long])
        let raw = try Bus.getRaw(Bus.playlistsInterface, "ActivePlaylist")
        let value = raw.values.first?.unwrapped
        XCTAssertEqual(value?.signature, "(b(oss))", "\(raw)")
        if case .structure(let fields)? = value {
            XCTAssertEqual(fields.first, .boolean(false), "ActivePlaylist valid before any activation: \(raw)")
        }
    }

    // MARK: GetPlaylists

    func testGetPlaylistsInEachOrdering() throws {
        try startWithPlaylists(try makePlaylists(), playing: [fixtures.long])
        let reply = try Bus.playlists("GetPlaylists", ["uint32:0", "uint32:10", "string:Alphabetical", "boolean:false"])
        XCTAssertEqual(reply.values.first?.signature, "a(oss)", "\(reply)")
        XCTAssertEqual(try names("Alphabetical"), ["Alpine", "Blues", "Chill"])
        XCTAssertEqual(try names("Alphabetical", reverse: true), ["Chill", "Blues", "Alpine"])
        XCTAssertEqual(try names("ModifiedDate"), ["Blues", "Chill", "Alpine"])
        XCTAssertEqual(try names("ModifiedDate", reverse: true), ["Alpine", "Chill", "Blues"])
        // Birth times are not kept by every file system: the order is the daemon's choice, but
        // it lists every playlist and reverse reverses it.
        let created = try names("CreationDate")
        XCTAssertEqual(created.sorted(), ["Alpine", "Blues", "Chill"])
        XCTAssertEqual(try names("CreationDate", reverse: true), created.reversed())
        let userDefined = try names("UserDefined")
        XCTAssertEqual(userDefined.sorted(), ["Alpine", "Blues", "Chill"])
        XCTAssertEqual(try names("UserDefined", reverse: true), userDefined.reversed())
        let paths = try Bus.getPlaylists().map(\.path)
        XCTAssertEqual(Set(paths).count, 3, "playlist object paths not unique: \(paths)")
    }

    func testGetPlaylistsPages() throws {
        try startWithPlaylists(try makePlaylists(), playing: [fixtures.long])
        XCTAssertEqual(try names("Alphabetical", index: 1, maxCount: 1), ["Blues"])
        XCTAssertEqual(try names("Alphabetical", index: 1, maxCount: 10), ["Blues", "Chill"])
        XCTAssertEqual(try names("Alphabetical", index: 0, maxCount: 0), [])
        XCTAssertEqual(try names("Alphabetical", index: 5, maxCount: 10), [])
    }

    func testAnUnknownOrderingIsInvalidArgs() throws {
        try startWithPlaylists(try makePlaylists(), playing: [fixtures.long])
        let reply = try Bus.playlists("GetPlaylists", ["uint32:0", "uint32:10", "string:Bogus", "boolean:false"])
        XCTAssertEqual(reply.errorName, "org.freedesktop.DBus.Error.InvalidArgs", "\(reply)")
        assertStillAnswers()
    }

    // MARK: ActivatePlaylist

    func testActivatePlaylistReplacesTheQueueAndPlays() throws {
        let daemon = try startWithPlaylists(try makePlaylists(), playing: [fixtures.long])
        try waitForStatus("Playing")
        let old = try tracks()
        guard let blues = try Bus.getPlaylists().first(where: { $0.name == "Blues" }) else {
            return XCTFail("no Blues playlist: \(try Bus.getPlaylists())")
        }
        let signals = try monitor(daemon)
        let mark = signals.mark
        let reply = try Bus.playlists("ActivatePlaylist", ["objpath:\(blues.path)"])
        XCTAssertTrue(reply.succeeded, "\(reply)")
        XCTAssertEqual(try queueTitles(), ["Short One", "Short Two"])
        XCTAssertTrue(Set(try tracks()).isDisjoint(with: old), "old entries kept their place in a replaced queue")
        try waitForTitle("Short One")
        try waitForStatus("Playing")

        let active = try Bus.get(Bus.playlistsInterface, "ActivePlaylist")
        XCTAssertEqual(active, .structure([.boolean(true), .structure([.objectPath(blues.path), .string("Blues"), .string(blues.icon)])]),
                       "ActivePlaylist after activating Blues")
        XCTAssertNotNil(signals.waitForMessage(after: mark) {
            $0.kind == "signal" && $0.interface == Bus.trackListInterface && $0.member == "TrackListReplaced"
        }, "no TrackListReplaced")
        XCTAssertNotNil(signals.waitForMessage(after: mark) {
            $0.changedInterface == Bus.playlistsInterface && $0.changedProperties["ActivePlaylist"] != nil
        }, "ActivePlaylist not announced")
    }

    func testActivatingThePlsAndTheM3U8Playlists() throws {
        try startWithPlaylists(try makePlaylists(), playing: [fixtures.long])
        let all = try Bus.getPlaylists()
        for (name, titles) in [("Alpine", ["Alpha", "Beta"]), ("Chill", ["Long One", "Long Two"])] {
            guard let playlist = all.first(where: { $0.name == name }) else { XCTFail("no \(name)"); continue }
            XCTAssertTrue(try Bus.playlists("ActivatePlaylist", ["objpath:\(playlist.path)"]).succeeded)
            XCTAssertEqual(try queueTitles(), titles, name)
            try waitForTitle(titles[0])
        }
    }

    func testActivatingAnUnknownPlaylistIsAnErrorThatChangesNothing() throws {
        try startWithPlaylists(try makePlaylists(), playing: [fixtures.long])
        let before = try tracks()
        let reply = try Bus.playlists("ActivatePlaylist", ["objpath:/org/aubade/Playlist/nonexistent"])
        XCTAssertNotNil(reply.errorName, "\(reply)")
        XCTAssertEqual(try tracks(), before)
        XCTAssertEqual(try playbackStatus(), "Playing")
    }

    // MARK: Watching the folder

    func testAPlaylistCreatedWhileRunningAppears() throws {
        let folder = try makePlaylists()
        let daemon = try startWithPlaylists(folder, playing: [fixtures.long])
        let signals = try monitor(daemon)
        let mark = signals.mark
        try writeM3U(folder.appendingPathComponent("Disco.m3u"), [fixtures.alpha])
        let announced = signals.waitForMessage(after: mark, timeout: 3) {
            $0.changedInterface == Bus.playlistsInterface && $0.changedProperties["PlaylistCount"] != nil
        }
        XCTAssertEqual(announced?.changedProperties["PlaylistCount"], .integer("u", 4),
                       "PropertiesChanged(Playlists, PlaylistCount): \(announced.map(String.init(describing:)) ?? "none within 3 s")")
        XCTAssertEqual(try Bus.get(Bus.playlistsInterface, "PlaylistCount"), .integer("u", 4))
        XCTAssertEqual(try names("Alphabetical"), ["Alpine", "Blues", "Chill", "Disco"])

        let removedMark = signals.mark
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Chill.m3u"))
        let removal = signals.waitForMessage(after: removedMark, timeout: 3) {
            $0.changedInterface == Bus.playlistsInterface && $0.changedProperties["PlaylistCount"] != nil
        }
        XCTAssertEqual(removal?.changedProperties["PlaylistCount"], .integer("u", 3), "after deleting Chill.m3u")
        XCTAssertEqual(try names("Alphabetical"), ["Alpine", "Blues", "Disco"])
    }

    /// A picture named like a playlist is its icon; adding one changes the playlist's (oss),
    /// which is what PlaylistChanged announces.
    func testAnIconBesideAPlaylistIsAnnouncedWithPlaylistChanged() throws {
        let folder = try makePlaylists()
        let daemon = try startWithPlaylists(folder, playing: [fixtures.long])
        let signals = try monitor(daemon)
        // Once it answers a call its start-up is over, the folder watched: the icon comes after.
        assertStillAnswers()
        let mark = signals.mark
        let icon = folder.appendingPathComponent("Chill.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: icon)
        let changed = signals.waitForMessage(after: mark, timeout: 3) { $0.member == "PlaylistChanged" && !$0.arguments.isEmpty }
        let text = changed.map(String.init(describing:)) ?? "no PlaylistChanged within 3 s"
        XCTAssertTrue(text.contains("Chill") && text.contains("file://\(icon.path)"), text)
        let listed = try Bus.getPlaylists(index: 0, maxCount: 10, order: "Alphabetical", reverse: false)
        XCTAssertEqual(listed.first { $0.name == "Chill" }?.icon, "file://\(icon.path)")
    }

    func testThePlaylistsFolderComesFromXDGMusicDir() throws {
        let home = try makeHome()
        let playlists = home.appendingPathComponent("Music/Playlists", isDirectory: true)
        try FileManager.default.createDirectory(at: playlists, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: home.appendingPathComponent(".config"), withIntermediateDirectories: true)
        try """
            # written by the test
            XDG_DESKTOP_DIR="$HOME/Desktop"
            XDG_MUSIC_DIR="$HOME/Music"

            """.write(to: home.appendingPathComponent(".config/user-dirs.dirs"), atomically: false, encoding: .utf8)
        try writeM3U(playlists.appendingPathComponent("Road Trip.m3u"), [fixtures.alpha])
        try startDaemon([fixtures.long.path], home: home)
        XCTAssertEqual(try Bus.get(Bus.playlistsInterface, "PlaylistCount"), .integer("u", 1))
        XCTAssertEqual(try names("Alphabetical"), ["Road Trip"])
    }

    // MARK: org.aubade.Queue1

    func testClearStopsAndEmptiesTheQueue() throws {
        let daemon = try startPlaying([fixtures.long, fixtures.long2])
        let signals = try monitor(daemon)
        let mark = signals.mark
        let reply = try Bus.queue("Clear")
        XCTAssertTrue(reply.succeeded, "\(reply)")
        try waitForStatus("Stopped")
        XCTAssertEqual(try tracks(), [])
        let replaced = signals.waitForMessage(after: mark) {
            $0.kind == "signal" && $0.interface == Bus.trackListInterface && $0.member == "TrackListReplaced"
        }
        XCTAssertNotNil(replaced, "no TrackListReplaced after Clear")
        if let replaced {
            XCTAssertEqual(replaced.arguments.last, .objectPath(Bus.noTrack), "\(replaced)")
            if case .array(let ids)? = replaced.arguments.first { XCTAssertTrue(ids.isEmpty, "\(replaced)") }
        }
        try eventually("our stream to go away") { try Pulse.sinkInput(ofProcess: daemon.pid)?.corked != false }
        assertStillAnswers()
    }

    func testSaveAsPlaylistWritesAnM3U8ThatActivatesToTheSameQueue() throws {
        let folder = try makeDirectory("playlists")
        try startWithPlaylists(folder, playing: [fixtures.alpha, fixtures.untagged, fixtures.beta])
        let titles = try queueTitles()
        let reply = try Bus.queue("SaveAsPlaylist", ["string:Saved Queue"])
        XCTAssertTrue(reply.succeeded, "\(reply)")
        let file = folder.appendingPathComponent("Saved Queue.m3u8")
        let text = try String(contentsOf: file, encoding: .utf8)
        let entries = text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
        let resolved = entries.map { entry -> String in
            entry.hasPrefix("/") ? entry : folder.appendingPathComponent(entry).standardizedFileURL.path
        }
        XCTAssertEqual(resolved, [fixtures.alpha, fixtures.untagged, fixtures.beta].map { $0.standardizedFileURL.path },
                       "Saved Queue.m3u8:\n\(text)")
        // No temporary file left beside it.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "Saved Queue.m3u8" }
        XCTAssertEqual(leftovers, [], "files beside the saved playlist")

        try eventually("the saved playlist in GetPlaylists", timeout: 3) { try names("Alphabetical") == ["Saved Queue"] }
        XCTAssertTrue(try Bus.queue("Clear").succeeded)
        XCTAssertEqual(try tracks(), [])
        guard let saved = try Bus.getPlaylists().first else { return XCTFail("no playlist") }
        XCTAssertTrue(try Bus.playlists("ActivatePlaylist", ["objpath:\(saved.path)"]).succeeded)
        XCTAssertEqual(try queueTitles(), titles)
        try waitForStatus("Playing")
    }
}
