import Foundation
import XCTest
@testable import TestSupport

/// mpc (Debian's 0.34), the MPD client of shell scripts and key bindings, driven as its users
/// drive it: every command's exit status and output, and nothing on stderr — mpc warns there
/// about answers it finds odd. Each expected output is what mpd 0.23 prints for the same library
/// (checked side by side); the volume is Aubade's own (mpd with a null output has none).
final class MPDClientMpcTests: MPDClientTestCase {
    private let dawn = "Ann Arbor/First Light/01 Dawn.mp3"
    private let owl = "Bea Quartet/Night Songs/01 Owl.mp3"
    private let sand = "Compilations/Summer Mix/02 Sand.mp3"

    /// Runs `mpc ARGUMENTS`; fails unless it exits 0 with an empty stderr.
    @discardableResult
    private func mpc(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) throws -> ClientRun {
        let run = try client("mpc", arguments)
        XCTAssertEqual(run.status, 0, "\(run)", file: file, line: line)
        XCTAssertEqual(run.stderr, "", "mpc warned: \(run)", file: file, line: line)
        return run
    }

    /// `mpc -f FORMAT ARGUMENTS`'s lines.
    private func mpcLines(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let run = try client("mpc", arguments)
        XCTAssertEqual(run.status, 0, "\(run)", file: file, line: line)
        XCTAssertEqual(run.stderr, "", "mpc warned: \(run)", file: file, line: line)
        return run.lines
    }

    private func client(_ tool: String, _ arguments: [String]) throws -> ClientRun {
        try runClient(tool, arguments)
    }

    private func mpcQueueTitles() throws -> [String] {
        try mpcLines("-f", "%title%", "playlist")
    }

    // MARK: Browsing the library

    func testBrowsingFoldersListsFoldersThenSongsAsMpdDoes() throws {
        XCTAssertEqual(try mpcLines("ls"), ["loose tone.mp3", "Ann Arbor", "Bea Quartet", "Compilations"])
        XCTAssertEqual(try mpcLines("ls", "Ann Arbor"), ["Ann Arbor/First Light", "Ann Arbor/Second Wind"])
        XCTAssertEqual(try mpcLines("ls", "Ann Arbor/Second Wind"),
                       ["Ann Arbor/Second Wind/1-01 Gale.mp3", "Ann Arbor/Second Wind/1-02 Breeze.mp3",
                        "Ann Arbor/Second Wind/2-01 Calm.mp3"])
        XCTAssertEqual(try mpcLines("listall"), ClientLibrary.songs.map(\.uri).sorted { a, b in
            // mpd lists a folder's songs before its subfolders: the root's file comes first.
            a.contains("/") != b.contains("/") ? !a.contains("/") : a < b
        })
        let missing = try client("mpc", ["ls", "No Such Folder"])
        XCTAssertEqual(missing.status, 1, "\(missing)")
        XCTAssertEqual(missing.stderr, "MPD error: No such directory\n")
    }

    func testSearchFindAndListAnswerAsMpdDoes() throws {
        XCTAssertEqual(try mpcLines("search", "any", "night"), ["Bea Quartet/Night Songs/01 Owl.mp3", "Bea Quartet/Night Songs/02 Moth.mp3"])
        // Case and accents: "café" is found by search (case-insensitive), not by find.
        XCTAssertEqual(try mpcLines("search", "title", "CAFÉ"), ["Ann Arbor/First Light/03 Café Noir.mp3"])
        XCTAssertEqual(try mpcLines("find", "title", "café noir"), [])
        XCTAssertEqual(try mpcLines("-f", "%disc%-%track% %title%", "find", "album", "Second Wind"),
                       ["1-1 Gale", "1-2 Breeze", "2-1 Calm"])
        XCTAssertEqual(try mpcLines("find", "albumartist", "Various Artists", "title", "Sand"), [sand])
        XCTAssertEqual(try mpcLines("list", "albumartist"), ["", "Ann Arbor", "Bea Quartet", "Various Artists"])
        XCTAssertEqual(try mpcLines("list", "artist"), ["", "Ann Arbor", "Bea Quartet", "Bea Quartet & Cy", "Dee Dunes", "Eli Ember"])
        XCTAssertEqual(try mpcLines("list", "album"), ["", "First Light", "Night Songs", "Second Wind", "Summer Mix"])
        XCTAssertEqual(try mpcLines("list", "album", "albumartist", "Ann Arbor"), ["First Light", "Second Wind"])
        XCTAssertEqual(try mpcLines("list", "genre"), ["", "Ambient", "Jazz", "Pop", "Rock"])
        // Grouped: each group's value, then its members indented (the song with no tags makes
        // an empty group with an empty member).
        XCTAssertEqual(try mpcLines("list", "album", "group", "albumartist"),
                       ["", "    ", "Ann Arbor", "    First Light", "    Second Wind", "Bea Quartet", "    Night Songs",
                        "Various Artists", "    Summer Mix"])
        XCTAssertEqual(try mpcLines("list", "date", "group", "album"),
                       ["", "    ", "First Light", "    2001", "Night Songs", "    2010", "Second Wind", "    2004",
                        "Summer Mix", "    2015"])
    }

    // MARK: The queue and the player

    func testAddInsertPlayNextMoveDeleteCrop() throws {
        try mpc("add", "Ann Arbor/First Light")
        try mpc("add", owl)
        XCTAssertEqual(try mpcQueueTitles(), ["Dawn", "Morning", "Café Noir", "Owl"])
        let playing = try mpc("play", "2")
        XCTAssertEqual(playing.lines.first, "Ann Arbor - Morning")
        XCTAssertTrue(playing.lines.dropFirst().first?.hasPrefix("[playing] #2/4   0:0") == true, "\(playing)")
        // insert: right after the current song.
        try mpc("insert", sand)
        XCTAssertEqual(try mpcQueueTitles(), ["Dawn", "Morning", "Sand", "Café Noir", "Owl"])
        let next = try mpc("next")
        XCTAssertEqual(next.lines.first, "Eli Ember - Sand")
        XCTAssertTrue(next.lines.dropFirst().first?.hasPrefix("[playing] #3/5") == true, "\(next)")
        XCTAssertEqual(try mpcLines("-f", "%title% by %artist% on %album%", "current"), ["Sand by Eli Ember on Summer Mix"])
        try mpc("move", "1", "4")
        XCTAssertEqual(try mpcQueueTitles(), ["Morning", "Sand", "Café Noir", "Dawn", "Owl"])
        try mpc("del", "1")
        XCTAssertEqual(try mpcQueueTitles(), ["Sand", "Café Noir", "Dawn", "Owl"])
        XCTAssertTrue(try mpc().lines.dropFirst().first?.hasPrefix("[playing] #1/4") == true, "the current song moved with its entry")
        try mpc("crop")
        XCTAssertEqual(try mpcQueueTitles(), ["Sand"])
        XCTAssertEqual(try mpcLines("-f", "%title%", "current"), ["Sand"])
        let stopped = try mpc("stop")
        XCTAssertEqual(stopped.lines, ["volume:100%   repeat: off   random: off   single: off   consume: off"])
    }

    func testModesAndVolumeShowInTheStatusLine() throws {
        try mpc("add", dawn)
        XCTAssertEqual(try mpc("volume", "40").lines.last, "volume: 40%   repeat: off   random: off   single: off   consume: off")
        XCTAssertEqual(try mpc("volume", "+15").lines.last?.prefix(11), "volume: 55%")
        XCTAssertEqual(try mpc("volume", "-5").lines.last?.prefix(11), "volume: 50%")
        XCTAssertEqual(try mpc("volume").lines, ["volume: 50%"])
        XCTAssertEqual(try mpc("repeat", "on").lines.last, "volume: 50%   repeat: on    random: off   single: off   consume: off")
        XCTAssertEqual(try mpc("random", "on").lines.last, "volume: 50%   repeat: on    random: on    single: off   consume: off")
        XCTAssertEqual(try mpc("single", "on").lines.last, "volume: 50%   repeat: on    random: on    single: on    consume: off")
        XCTAssertEqual(try mpc("consume", "on").lines.last, "volume: 50%   repeat: on    random: on    single: on    consume: on ")
        XCTAssertEqual(try mpc("single", "once").lines.last, "volume: 50%   repeat: on    random: on    single: once  consume: on ")
        // Toggles (no argument), as a key binding sends them.
        XCTAssertEqual(try mpc("repeat").lines.last, "volume: 50%   repeat: off   random: on    single: once  consume: on ")
        XCTAssertEqual(try mpc("random").lines.last, "volume: 50%   repeat: off   random: off   single: once  consume: on ")
        try mpc("single", "off")
        XCTAssertEqual(try mpc("consume", "off").lines.last, "volume: 50%   repeat: off   random: off   single: off   consume: off")
        // The same status, as MPRIS sees it: one player behind both front-ends.
        XCTAssertEqual(try playerProperty("Volume").double ?? -1, 0.5, accuracy: 0.001)
    }

    func testUpdateWaitFindaddSearchplaySeekToggleAndPrev() throws {
        // A new song copied in, then `mpc -w update`, as users do after adding music: it waits
        // for the update's end (idle update) and the song is there.
        let copy = library.directory.appendingPathComponent("Compilations/Summer Mix/03 Sand Again.mp3")
        try FileManager.default.copyItem(at: library.directory.appendingPathComponent(sand), to: copy)
        // The library copy is this process's: the next test here must find it as made.
        defer { try? FileManager.default.removeItem(at: copy) }
        try mpc("-w", "update")
        XCTAssertTrue(try mpcLines("listall", "Compilations").contains("Compilations/Summer Mix/03 Sand Again.mp3"))
        XCTAssertEqual(try mpc("stats").lines.first { $0.hasPrefix("Songs:") }, "Songs:       12")
        try mpc("findadd", "album", "Night Songs")
        XCTAssertEqual(try mpcQueueTitles(), ["Owl", "Moth"])
        let played = try mpc("searchplay", "moth")
        XCTAssertEqual(played.lines.first, "Bea Quartet & Cy - Moth")
        XCTAssertTrue(try mpc("seek", "50%").lines.dropFirst().first?.contains("0:10/0:20 (50%)") == true)
        XCTAssertTrue(try mpc("toggle").lines.dropFirst().first?.hasPrefix("[paused]  #2/2   0:10/0:20") == true)
        XCTAssertEqual(try mpc("prev").lines.first, "Bea Quartet - Owl")
    }

    // MARK: Stored playlists

    func testSaveLoadListAndRemoveAStoredPlaylist() throws {
        try mpc("add", "Ann Arbor/Second Wind")
        try mpc("save", "road trip")
        XCTAssertEqual(try mpcLines("lsplaylists"), ["road trip"])
        XCTAssertEqual(try mpcLines("playlist", "road trip"), ["Ann Arbor - Gale", "Ann Arbor - Breeze", "Ann Arbor - Calm"])
        // A file of the playlists folder (Aubade writes NAME.m3u8; mpd NAME.m3u: no client sees which).
        let files = try FileManager.default.contentsOfDirectory(atPath: playlistsFolder.path)
        XCTAssertTrue(files == ["road trip.m3u8"] || files == ["road trip.m3u"], "the playlists folder holds \(files)")
        let again = try client("mpc", ["save", "road trip"])
        XCTAssertEqual(again.status, 1, "\(again)")
        XCTAssertEqual(again.stderr, "MPD error: Playlist already exists\n")
        try mpc("clear")
        let loaded = try mpc("load", "road trip")
        XCTAssertEqual(loaded.lines, ["loading: road trip"])
        XCTAssertEqual(try mpcQueueTitles(), ["Gale", "Breeze", "Calm"])
        // A range of it (-r), as mpc's users load part of a list.
        try mpc("-r", "1:", "load", "road trip")
        XCTAssertEqual(try mpcQueueTitles(), ["Gale", "Breeze", "Calm", "Breeze", "Calm"])
        try mpc("rm", "road trip")
        XCTAssertEqual(try mpcLines("lsplaylists"), [])
        let gone = try client("mpc", ["load", "road trip"])
        XCTAssertEqual(gone.status, 1, "\(gone)")
        XCTAssertEqual(gone.stderr, "MPD error: No such playlist\n")
    }

    // MARK: Pictures

    func testAlbumartSendsTheCoverFileAndReadpictureTheEmbeddedPicture() throws {
        // Both pictures are larger than a chunk (8 KiB): mpc asks for the rest by offset.
        let cover = try mpc("albumart", dawn)
        XCTAssertEqual(cover.stdout, try library.coverJPEG, "albumart's bytes are not cover.jpg's (\(cover.stdout.count) bytes)")
        let embedded = try mpc("readpicture", owl)
        XCTAssertEqual(embedded.stdout, try library.embeddedPNG, "readpicture's bytes are not the embedded PNG's (\(embedded.stdout.count) bytes)")
        // A folder's URI with its slash, as Cantata asks for an album's cover: that folder's.
        let folder = try mpc("albumart", "\(ClientLibrary.coverFolder)/")
        XCTAssertEqual(folder.stdout, try library.coverJPEG, "albumart of the folder (\(folder.stdout.count) bytes)")
        // Without the slash it is a name in its parent folder, which has no cover (as in mpd).
        let parent = try client("mpc", ["albumart", ClientLibrary.coverFolder])
        XCTAssertEqual(parent.status, 1, "\(parent)")
        XCTAssertEqual(parent.stderr, "MPD error: No file exists\n")
        // No cover file beside the song: mpd's ACK 50, which mpc reports and exits 1.
        let noCover = try client("mpc", ["albumart", owl])
        XCTAssertEqual(noCover.status, 1, "\(noCover)")
        XCTAssertEqual(noCover.stdout.count, 0)
        XCTAssertEqual(noCover.stderr, "MPD error: No file exists\n")
        // No embedded picture: an empty answer, for which mpc says "No data" and exits 0.
        let noPicture = try client("mpc", ["-q", "readpicture", dawn])
        XCTAssertEqual(noPicture.status, 0, "\(noPicture)")
        XCTAssertEqual(noPicture.stdout.count, 0, "\(noPicture)")
        XCTAssertEqual(noPicture.stderr, "No data\n")
        let noSong = try client("mpc", ["readpicture", "no/such.mp3"])
        XCTAssertEqual(noSong.status, 1, "\(noSong)")
        XCTAssertEqual(noSong.stderr, "MPD error: No such song\n")
    }

    // MARK: Idle

    func testIdleReturnsTheChangeItWaitedFor() throws {
        try mpc("add", dawn)
        let idle = try IdleClient(port: port, arguments: ["idle", "player"])
        defer { idle.stop() }
        try idle.waitUntilIdle(on: self)
        try mpc("play")
        XCTAssertEqual(idle.process.waitForExit(timeout: Sanitizer.scaled(5)), 0, "mpc idle player did not return: \(idle)")
        idle.process.stdout.waitUntilClosed(timeout: 2)
        XCTAssertEqual(idle.process.stdout.lines, ["player"])
        XCTAssertEqual(idle.process.stderr.text, "")
    }

    func testIdleloopReportsEachChangeAndCoversChangeNoQueueVersion() throws {
        let idle = try IdleClient(port: port, arguments: ["idleloop"])
        defer { idle.stop() }
        try idle.waitUntilIdle(on: self)
        // `player` may come more often than asked for (mpd too sends it twice as a song starts;
        // Aubade also when a song is queued in an empty queue, which it makes current at once
        // where mpd waits for `play`), never another subsystem.
        let player: Set<String> = ["player"]
        try mpc("add", dawn)
        try idle.waitForLine("playlist")
        try mpc("add", owl)
        try idle.waitForLine("playlist", tolerating: player)
        let version = try mpd.run("status")["playlist"]
        // Playing songs whose covers are found (cover.jpg, then an embedded picture: MPRIS's
        // artUrl) changes the player, not the queue: mpd moves no queue version and wakes no
        // `playlist` idler when a song starts, and clients would fetch the queue again.
        try mpc("play")
        try idle.waitForLine("player")
        var art: String?
        try eventually("Dawn's cover found (MPRIS artUrl)") { art = try metadata()["mpris:artUrl"]?.string; return art != nil }
        try mpc("next")
        try idle.waitForLine("player", tolerating: player)
        try eventually("Owl's picture found (MPRIS artUrl)") {
            let now = try metadata()["mpris:artUrl"]?.string
            return now != nil && now != art
        }
        try mpc("volume", "30")
        try idle.waitForLine("mixer", tolerating: player)
        XCTAssertEqual(try mpd.run("status")["playlist"], version, "the queue's version moved while songs played")
        try mpc("random", "on")
        try idle.waitForLine("options")
        try mpc("stop")
        try idle.waitForLine("player")
        XCTAssertTrue(idle.process.isRunning, "mpc idleloop ended: \(idle)")
        XCTAssertEqual(idle.process.stderr.text, "")
    }

    func testIdleHearsEveryEditOfAStoredPlaylist() throws {
        try mpc("add", dawn)
        // Each edit is announced, as mpd announces it: a new list, songs added to it and taken
        // out of it (what ncmpcpp's playlist editor and Cantata send, here from a connection
        // of the test's own), its removal. A client showing a list's songs must hear of them.
        let idle = try IdleClient(port: port, arguments: ["idleloop", "stored_playlist"])
        defer { idle.stop() }
        try idle.waitUntilIdle(on: self)
        let watcher = try MPDTestClient(port: port)
        defer { watcher.close() }
        let edits: [(String, () throws -> Void)] = [
            ("mpc save", { try self.runClient("mpc", ["save", "morning list"]).assertSucceeded() }),
            ("playlistadd", { try self.mpd.run("playlistadd \"morning list\" \"\(self.owl)\"") }),
            ("playlistmove", { try self.mpd.run("playlistmove \"morning list\" 1 0") }),
            ("playlistdelete", { try self.mpd.run("playlistdelete \"morning list\" 0") }),
            ("mpc rm", { try self.runClient("mpc", ["rm", "morning list"]).assertSucceeded() }),
        ]
        for (what, edit) in edits {
            // mpd announces an edit before it answers it: an idling client has heard of it by
            // the time the edit's OK is read (the folder's watch would tell it 50 ms later, or,
            // for a song added within the same second, not at all).
            try watcher.sendWithoutAnswer("idle stored_playlist")
            try edit()
            XCTAssertTrue(watcher.answerHasArrived, "no stored_playlist change announced by the time \(what) was answered")
            XCTAssertEqual(try watcher.readAnswer().values("changed"), ["stored_playlist"], "after \(what)")
            // mpc idleloop hears of it too (and perhaps twice: the folder's watch tells again).
            try idle.waitForAnotherLine("stored_playlist", after: what)
        }
    }
}

/// `mpc idle`/`mpc idleloop` in the background, stopped by PID.
private final class IdleClient: CustomStringConvertible {
    let process: Subprocess
    private let port: Int
    private var seen = 0

    init(port: Int, arguments: [String]) throws {
        self.port = port
        process = try Subprocess("mpc", ["-h", "127.0.0.1", "-p", String(port)] + arguments, environment: ["LC_ALL": "C.UTF-8"])
    }

    /// Waits until the daemon has accepted mpc's connection: from then on every change is
    /// kept for it until its `idle` (as mpd keeps them), so none made after this is missed,
    /// whether mpc's `idle` is already in or still on its way.
    func waitUntilIdle(on test: MPDClientTestCase) throws {
        try eventually("the daemon accepted mpc's connection (\(self))", timeout: Sanitizer.scaled(5)) {
            try LoopbackConnections.accepted(by: test.daemon.pid, port: self.port, client: self.process.pid)
        }
    }

    /// Waits for the next line of output to be `change`; lines in `tolerated` may come first.
    func waitForLine(_ change: String, tolerating tolerated: Set<String> = [],
                     file: StaticString = #filePath, line: UInt = #line) throws {
        let found = process.stdout.waitForLine(from: seen, timeout: Sanitizer.scaled(5)) { !tolerated.contains($0) || $0 == change }
        XCTAssertEqual(found?.line, change, "mpc idleloop's next line (\(self))", file: file, line: line)
        guard let found else { throw DaemonError("mpc idleloop reported nothing: \(self)") }
        seen = found.index + 1
    }

    /// Waits for a line `change` beyond those seen so far (lines repeating it may come first).
    func waitForAnotherLine(_ change: String, after what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let found = process.stdout.waitForLine(from: seen, timeout: Sanitizer.scaled(5)) { $0 == change }
        XCTAssertNotNil(found, "mpc \(process.arguments.last ?? "") reported no \(change) after \(what) (\(self))", file: file, line: line)
        if let found { seen = found.index + 1 }
    }

    func stop() {
        _ = process.stop(grace: 1)
    }

    var description: String {
        "pid \(process.pid), stdout \(process.stdout.lines), stderr \(process.stderr.text.debugDescription)"
    }
}
