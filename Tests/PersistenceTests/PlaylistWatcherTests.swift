import Dispatch
import Foundation
import Handoff
import Testing
import Persistence
@testable import TestSupport

@Suite struct PlaylistWatcherTests {
    final class Calls: Sendable {
        let count = LockedState(0)
        var value: Int { count.withLock { $0 } }
    }

    @Test func seesPlaylistsComeAndGo() throws {
        let dir = try Fixtures.makeDirectory()
        let calls = Calls()
        let watcher = try PlaylistWatcher(folder: dir, queue: DispatchQueue(label: "test.watch")) {
            calls.count.withLock { $0 += 1 }
        }
        #expect(watcher.isWatching)

        let start = Date()
        try PlaylistFolder(path: dir).save(name: "New", tracks: [])
        #expect(eventually(timeout: 1) { calls.value >= 1 })
        #expect(Date().timeIntervalSince(start) < 1)
        usleep(200_000)
        // An atomic save (create, write, close, rename) is one coalesced call.
        #expect(calls.value == 1)

        // Files that are not playlists are not news.
        try Fixtures.write([1, 2, 3], to: dir + "/notes.txt")
        usleep(200_000)
        #expect(calls.value == 1)

        try FileManager.default.moveItem(atPath: dir + "/New.m3u8", toPath: dir + "/Renamed.m3u8")
        #expect(eventually(timeout: 1) { calls.value == 2 })
        try FileManager.default.removeItem(atPath: dir + "/Renamed.m3u8")
        #expect(eventually(timeout: 1) { calls.value == 3 })

        watcher.cancel()
        #expect(!watcher.isWatching)
        try PlaylistFolder(path: dir).save(name: "After", tracks: [])
        usleep(200_000)
        #expect(calls.value == 3)
    }

    @Test func aMissingFolderIsNotWatched() throws {
        let dir = try Fixtures.makeDirectory()
        let watcher = try PlaylistWatcher(folder: dir + "/nope", queue: DispatchQueue(label: "test.watch")) {}
        #expect(!watcher.isWatching)
        #expect(!fileExists(dir + "/nope"))
    }

    @Test func theFolderGoingAwayEndsTheWatch() throws {
        let dir = try Fixtures.makeDirectory() + "/lists"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let calls = Calls()
        let watcher = try PlaylistWatcher(folder: dir, queue: DispatchQueue(label: "test.watch")) {
            calls.count.withLock { $0 += 1 }
        }
        try FileManager.default.removeItem(atPath: dir)
        #expect(eventually(timeout: 1) { calls.value == 1 && !watcher.isWatching })
    }
}
