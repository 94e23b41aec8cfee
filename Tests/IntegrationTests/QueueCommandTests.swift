import Foundation
import XCTest
@testable import TestSupport

/// The queue verbs of the command line: add, queue, remove, clear, save, playlists, load, status.
/// Exit 0 ok, 1 failure, 64 usage; usage errors are found before the daemon is contacted.
final class QueueCommandTests: AubadeTestCase {
    private func assertExit(_ result: CommandResult, _ status: Int32, _ what: String,
                            file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status, status, "aubade \(what): \(result)", file: file, line: line)
        XCTAssertFalse(result.timedOut, "aubade \(what) timed out", file: file, line: line)
    }

    // MARK: Without a daemon

    func testUsageErrorsExit64WithoutContactingTheDaemon() throws {
        // No daemon runs: a verb that got as far as the bus would fail with 1 instead.
        XCTAssertFalse(try Bus.nameHasOwner(Daemon.busName))
        for arguments in [["remove", "x"], ["remove"], ["remove", "0"], ["remove", "1", "2"], ["save"], ["load"],
                          ["add"], ["queue", "extra"], ["clear", "now"], ["playlists", "all"]] {
            let result = try Shell.run(try Daemon.binaryPath(), arguments)
            assertExit(result, 64, arguments.joined(separator: " "))
            XCTAssertFalse(result.stderr.isEmpty, "aubade \(arguments.joined(separator: " ")) said nothing on stderr")
            XCTAssertFalse(result.stderr.contains("not running"), "usage error checked after the bus: \(result)")
        }
    }

    func testVerbsExit1WhenTheDaemonIsNotRunning() throws {
        XCTAssertFalse(try Bus.nameHasOwner(Daemon.busName))
        for arguments in [["status"], ["queue"], ["add", fixtures.alpha.path], ["remove", "1"], ["clear"],
                          ["save", "x"], ["playlists"], ["load", "x"]] {
            let result = try Shell.run(try Daemon.binaryPath(), arguments)
            assertExit(result, 1, arguments.joined(separator: " "))
            XCTAssertTrue(result.stderr.contains("aubade is not running"), "aubade \(arguments.joined(separator: " ")): \(result)")
        }
    }

    // MARK: With a daemon

    func testAddThenQueueListsNumberedEntriesWithTheCurrentMarked() throws {
        try startPlaying([fixtures.long])
        // A relative path (from the caller's folder), a folder and a playlist, in one call.
        let result = try aubade("add", "b.mp3", fixtures.albumDirectory.path, fixtures.playlist.path, in: fixtures.directory)
        assertExit(result, 0, "add")
        XCTAssertEqual(try queueTitles(), ["Long One", "Beta", "Two", "Ten", "Alpha", "Beta"])
        XCTAssertEqual(try title(), "Long One", "add changed the current track")

        let queue = try aubade("queue")
        assertExit(queue, 0, "queue")
        let lines = queue.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 6, "aubade queue:\n\(queue.stdout)")
        guard lines.count == 6 else { return }
        for (index, title) in ["Long One", "Beta", "Two", "Ten", "Alpha", "Beta"].enumerated() {
            let line = lines[index]
            XCTAssertTrue(line.contains(title), "line \(index + 1) lacks \(title): \(line)")
            let number = line.drop { !$0.isNumber }.prefix { $0.isNumber }
            XCTAssertEqual(Int(number), index + 1, "line \(index + 1) is not numbered: \(line)")
        }
        XCTAssertTrue(lines[0].contains("▶"), "the current entry is not marked: \(lines[0])")
        XCTAssertEqual(lines.filter { $0.contains("▶") }.count, 1, "aubade queue:\n\(queue.stdout)")
    }

    func testQueueMarksTheCurrentEntryAfterNext() throws {
        try startPlaying([fixtures.long, fixtures.long2])
        try playerctl("next")
        try waitForTitle("Long Two")
        let lines = try aubade("queue").stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(lines.firstIndex { $0.contains("▶") }, 1, "\(lines)")
    }

    func testAddOfAMissingFileFailsAndChangesNothing() throws {
        try startPlaying([fixtures.long])
        let before = try tracks()
        let result = try aubade("add", fixtures.missing.path)
        assertExit(result, 1, "add missing")
        XCTAssertFalse(result.stderr.isEmpty)
        XCTAssertEqual(try tracks(), before)
    }

    func testRemoveTakesAnEntryNumber() throws {
        try startPlaying([fixtures.long, fixtures.long2, fixtures.alpha])
        let ids = try tracks()
        assertExit(try aubade("remove", "2"), 0, "remove 2")
        XCTAssertEqual(try tracks(), [ids[0], ids[2]])
        let outOfRange = try aubade("remove", "9")
        assertExit(outOfRange, 1, "remove 9")
        XCTAssertEqual(try tracks(), [ids[0], ids[2]])
        assertExit(try aubade("remove", "1"), 0, "remove 1 (the current)")
        try waitForTitle("Alpha")
    }

    func testClearEmptiesTheQueue() throws {
        try startPlaying([fixtures.long, fixtures.long2])
        assertExit(try aubade("clear"), 0, "clear")
        try waitForStatus("Stopped")
        XCTAssertEqual(try tracks(), [])
        let queue = try aubade("queue")
        assertExit(queue, 0, "queue (empty)")
        XCTAssertFalse(queue.stdout.contains("Long"), "\(queue.stdout)")
    }

    func testSavePlaylistsAndLoad() throws {
        let folder = try makeDirectory("playlists")
        try startDaemon([fixtures.alpha.path, fixtures.beta.path], environment: ["AUBADE_PLAYLISTS_DIR": folder.path])
        try waitForStatus("Playing")
        assertExit(try aubade("save", "Mine"), 0, "save Mine")
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Mine.m3u8").path),
                      "no Mine.m3u8 in \((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])")
        var listed = ""
        try eventually("aubade playlists to list Mine", timeout: 3) {
            listed = try aubade("playlists").stdout
            return listed.split(separator: "\n").contains("Mine")
        }
        assertExit(try aubade("clear"), 0, "clear")
        XCTAssertEqual(try tracks(), [])
        assertExit(try aubade("load", "Mine"), 0, "load Mine")
        XCTAssertEqual(try queueTitles(), ["Alpha", "Beta"])
        try waitForStatus("Playing")
        let missing = try aubade("load", "Nope")
        assertExit(missing, 1, "load Nope")
        XCTAssertEqual(try queueTitles(), ["Alpha", "Beta"])
    }

    func testStatusShowsTitleArtistPositionStateAndRoute() throws {
        try startPlaying([fixtures.alpha])
        let result = try aubade("status")
        assertExit(result, 0, "status")
        let text = result.stdout
        XCTAssertTrue(text.contains("Alpha — Ann"), "aubade status:\n\(text)")
        XCTAssertTrue(text.contains("Playing"), "aubade status:\n\(text)")
        XCTAssertTrue(text.contains("/ 0:03"), "no length in aubade status:\n\(text)")
        XCTAssertNotNil(text.range(of: #"0:0[0-3] / 0:03"#, options: .regularExpression), "no position/length:\n\(text)")
        XCTAssertTrue(text.contains("headphones"), "no route in aubade status:\n\(text)")
        try playerctl("pause")
        try waitForStatus("Paused")
        XCTAssertTrue(try aubade("status").stdout.contains("Paused"))
    }
}
