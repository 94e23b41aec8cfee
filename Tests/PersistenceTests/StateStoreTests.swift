import Foundation
import PlayerCore
import Testing
@testable import Persistence
@testable import TestSupport

@Suite struct StateStoreTests {
    @Test func roundTripWithUnicodePaths() throws {
        let dir = try Fixtures.makeDirectory()
        let paths = try makeFiles(["Música/Ünïcödé ✓.mp3", "日本語/曲 #1.mp3", "with\nnewline.mp3", "plain.mp3"], in: dir)
        var saved = memento(paths, current: 2, position: 42_000_000, order: [3, 1, 0, 2], shuffle: true)
        saved.tracks[3] = Track(path: paths[3])   // untagged: every optional absent
        let store = StateStore(directory: dir + "/state/aubade")
        try store.save(saved)
        #expect(store.load() == .restored(saved, dropped: []))
        #expect(files(in: dir + "/state/aubade") == ["position.json", "state.json"])

        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: store.statePath))) as? [String: Any]
        #expect(json?["version"] as? Int == 1)
        #expect(json?["loopStatus"] as? String == "Playlist")
        let firstTrack = (json?["tracks"] as? [[String: Any]])?.first
        #expect(firstTrack?["albumArtists"] as? [String] == ["Björk"])
        #expect(firstTrack?["length"] as? Int == 123_456_789)
    }

    @Test func anEstimatedLengthStaysAnEstimate() throws {
        let dir = try Fixtures.makeDirectory()
        let paths = try makeFiles(["estimated.mp3", "exact.mp3"], in: dir)
        var saved = memento(paths, current: 0)
        saved.tracks[0].lengthIsEstimate = true
        let store = StateStore(directory: dir + "/state")
        try store.save(saved)
        guard case .restored(let restored, _) = store.load() else { Issue.record("not restored"); return }
        #expect(restored.tracks.map(\.lengthIsEstimate) == [true, false])
        let json = try String(contentsOfFile: store.statePath, encoding: .utf8)
        #expect(json.components(separatedBy: "lengthIsEstimate").count == 2, "written for the estimated track only")
    }

    @Test func emptyQueueAndNoFile() throws {
        let dir = try Fixtures.makeDirectory()
        let store = StateStore(directory: dir)
        #expect(store.load() == .empty)
        let empty = PlayerMemento(tracks: [], currentIndex: nil, position: 0, volume: 1, loopStatus: .none,
                                  shuffle: false, playOrder: [])
        try store.save(empty)
        #expect(store.load() == .restored(empty, dropped: []))
    }

    @Test func nonFiniteVolumeIsSavedAsFullVolume() throws {
        let dir = try Fixtures.makeDirectory()
        let store = StateStore(directory: dir)
        var saved = memento(try makeFiles(["a.mp3"], in: dir), current: 0)
        saved.volume = .nan
        try store.save(saved)
        guard case .restored(let restored, _) = store.load() else { Issue.record("not restored"); return }
        #expect(restored.volume == 1)
    }

    @Test func positionFileWinsWhenItMatches() throws {
        let dir = try Fixtures.makeDirectory()
        let paths = try makeFiles(["a.mp3", "b.mp3", "c.mp3"], in: dir)
        let store = StateStore(directory: dir)
        try store.save(memento(paths, current: 0, position: 1_000_000))
        // Playback went on to the next track; only position.json was written since.
        try store.savePosition(currentIndex: 1, path: paths[1], position: 61_000_000)
        var expected = memento(paths, current: 1, position: 61_000_000)
        #expect(store.load() == .restored(expected, dropped: []))

        // A position file about another queue (path mismatch, index out of range) is ignored.
        try store.savePosition(currentIndex: 1, path: dir + "/other.mp3", position: 7)
        expected = memento(paths, current: 0, position: 1_000_000)
        #expect(store.load() == .restored(expected, dropped: []))
        try store.savePosition(currentIndex: 9, path: paths[1], position: 7)
        #expect(store.load() == .restored(expected, dropped: []))
        // So is a broken one, which is not kept aside (it is only ever a copy).
        try Fixtures.write(Array("{\"version\":1,\"curr".utf8), to: store.positionPath)
        #expect(store.load() == .restored(expected, dropped: []))
        #expect(files(in: dir).filter { $0.contains("corrupt") }.isEmpty)
    }

    @Test func savingTheStateRewritesThePosition() throws {
        let dir = try Fixtures.makeDirectory()
        let paths = try makeFiles(["a.mp3", "b.mp3"], in: dir)
        let store = StateStore(directory: dir)
        try store.savePosition(currentIndex: 0, path: paths[0], position: 180_000_000)
        // A seek back to the start was saved in full: the older position must not win.
        let saved = memento(paths, current: 0, position: 0)
        try store.save(saved)
        #expect(store.load() == .restored(saved, dropped: []))
    }

    @Test func vanishedFilesAreDroppedAndIndicesRemapped() throws {
        let dir = try Fixtures.makeDirectory()
        let paths = try makeFiles(["0.mp3", "1.mp3", "2.mp3", "3.mp3", "4.mp3"], in: dir)
        let store = StateStore(directory: dir)
        try store.save(memento(paths, current: 3, position: 9_000_000, order: [4, 2, 0, 3, 1], shuffle: true))
        try FileManager.default.removeItem(atPath: paths[0])
        try FileManager.default.removeItem(atPath: paths[2])
        guard case .restored(let restored, let dropped) = store.load() else { Issue.record("not restored"); return }
        #expect(dropped == [paths[0], paths[2]])
        #expect(restored.tracks.compactMap(\.path) == [paths[1], paths[3], paths[4]])
        #expect(restored.currentIndex == 1)           // "3.mp3" is still current, at its position
        #expect(restored.position == 9_000_000)
        #expect(restored.playOrder == [2, 1, 0])      // 4, 3, 1 in the new numbering
    }

    @Test func vanishedCurrentTrackGivesWayToTheNextInPlayOrder() throws {
        let dir = try Fixtures.makeDirectory()
        let paths = try makeFiles(["0.mp3", "1.mp3", "2.mp3", "3.mp3"], in: dir)
        let store = StateStore(directory: dir)
        try store.save(memento(paths, current: 2, position: 9_000_000, order: [2, 3, 0, 1], shuffle: true))
        try FileManager.default.removeItem(atPath: paths[2])
        try FileManager.default.removeItem(atPath: paths[3])
        guard case .restored(let restored, let dropped) = store.load() else { Issue.record("not restored"); return }
        #expect(dropped == [paths[2], paths[3]])
        #expect(restored.currentIndex == 0)           // "0.mp3" follows in play order
        #expect(restored.position == 0)
        #expect(restored.playOrder == [0, 1])

        // The last track in order vanishing wraps to the first remaining one.
        try store.save(memento([paths[0], paths[1]], current: 1, position: 5))
        try FileManager.default.removeItem(atPath: paths[1])
        guard case .restored(let wrapped, _) = store.load() else { Issue.record("not restored"); return }
        #expect(wrapped.currentIndex == 0)
        #expect(wrapped.position == 0)

        // Nothing left at all: an empty queue with the settings kept.
        try FileManager.default.removeItem(atPath: paths[0])
        guard case .restored(let none, let gone) = store.load() else { Issue.record("not restored"); return }
        #expect(gone == [paths[0], paths[1]])   // load never rewrites the file: both are still in it
        #expect(none.tracks.isEmpty && none.currentIndex == nil && none.playOrder.isEmpty)
        #expect(none.volume == 0.75 && none.loopStatus == .playlist)
    }

    @Test func aFailedWriteLeavesTheGoodFile() throws {
        let dir = try Fixtures.makeDirectory()
        let paths = try makeFiles(["a.mp3"], in: dir)
        let store = StateStore(directory: dir)
        let good = memento(paths, current: 0)
        try store.save(good)
        let before = try Fixtures.contents(of: store.statePath)
        // The last moment before the rename: the new file is complete but must not replace.
        let injected = PersistenceError(path: store.statePath, call: "test", reason: "injected")
        #expect(throws: injected) {
            try FileIO.writeAtomically(Array("garbage".utf8), to: store.statePath) { () throws(PersistenceError) in throw injected }
        }
        #expect(try Fixtures.contents(of: store.statePath) == before)
        #expect(files(in: dir) == ["a.mp3", "position.json", "state.json"])   // no temporary file left
        #expect(store.load() == .restored(good, dropped: []))
    }

    @Test(.enabled(if: getuid() != 0, "root writes into a read-only folder anyway"))
    func aReadOnlyFolderFailsWithoutDamage() throws {
        let dir = try Fixtures.makeDirectory()
        let paths = try makeFiles(["a.mp3"], in: dir)
        let store = StateStore(directory: dir + "/state")
        let good = memento(paths, current: 0)
        try store.save(good)
        chmod(store.directory, 0o500)
        defer { chmod(store.directory, 0o700) }
        let error = #expect(throws: PersistenceError.self) { try store.save(memento(paths, current: nil)) }
        #expect(error?.call == "open")
        #expect(error?.description.contains(store.directory) == true)
        #expect(store.load() == .restored(good, dropped: []))
    }

    @Test func tenThousandTracks() throws {
        let dir = try Fixtures.makeDirectory()
        let path = try makeFiles(["a.mp3"], in: dir)[0]
        let big = memento(Array(repeating: path, count: 10_000), current: 9_999, position: 1)
        let store = StateStore(directory: dir)
        try store.save(big)
        #expect(store.load() == .restored(big, dropped: []))
    }
}
