import Foundation
import PlayerCore
import Testing
@testable import Persistence
@testable import TestSupport

/// The state files against what the disk and a hostile file can do (issue 10, finding 6):
/// which of the two files wins, how large a file may be, and numbers out of any range.
@Suite struct StateHardeningTests {
    // MARK: position.json against a newer state.json

    /// A seek back to 0:00 was saved in full, but the rewrite of position.json that goes with it
    /// failed (a full disk after the big file): the older position file must not win.
    @Test func anOlderPositionFileNeverWinsOverANewerState() throws {
        let dir = try Fixtures.makeDirectory()
        let paths = try makeFiles(["a.mp3", "b.mp3"], in: dir)
        let store = StateStore(directory: dir)
        try store.save(memento(paths, current: 0, position: 10_000_000))
        try store.savePosition(currentIndex: 0, path: paths[0], position: 180_000_000)
        let stalePosition = try Fixtures.contents(of: store.positionPath)
        let newer = memento(paths, current: 0, position: 0)
        try store.save(newer)
        // As if the position file of this save had not been written.
        try Fixtures.write(stalePosition, to: store.positionPath)
        #expect(store.load() == .restored(newer, dropped: []))
    }

    /// The position file written after the state (the timer while playing) still wins.
    @Test func aNewerPositionFileStillWins() throws {
        let dir = try Fixtures.makeDirectory()
        let paths = try makeFiles(["a.mp3", "b.mp3"], in: dir)
        let store = StateStore(directory: dir)
        try store.save(memento(paths, current: 0, position: 10_000_000))
        try store.savePosition(currentIndex: 1, path: paths[1], position: 3_000_000)
        #expect(store.load() == .restored(memento(paths, current: 1, position: 3_000_000), dropped: []))
        // A new store (the next run) goes on from the sequence it read: its saves are newer.
        let next = StateStore(directory: dir)
        _ = next.load()
        try next.save(memento(paths, current: 0, position: 1_000_000))
        #expect(next.load() == .restored(memento(paths, current: 0, position: 1_000_000), dropped: []))
    }

    /// Files written before sequence numbers existed keep the old rule: a matching position wins.
    @Test func filesWithoutSequenceNumbersKeepTheOldRule() throws {
        let dir = try Fixtures.makeDirectory()
        let paths = try makeFiles(["a.mp3"], in: dir)
        let store = StateStore(directory: dir)
        try store.save(memento(paths, current: 0, position: 1_000_000))
        for path in [store.statePath, store.positionPath] {
            var json = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
            json["sequence"] = nil
            if path == store.positionPath { json["position"] = 2_000_000 }
            try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
        }
        #expect(StateStore(directory: dir).load() == .restored(memento(paths, current: 0, position: 2_000_000), dropped: []))
    }

    // MARK: Size

    @Test func aStateFileAboveTheLimitIsKeptAsideUnread() throws {
        let dir = try Fixtures.makeDirectory()
        let store = StateStore(directory: dir)
        // Sparse: the size without the disk space.
        let fd = open(store.statePath, O_WRONLY | O_CREAT, 0o600)
        #expect(ftruncate(fd, off_t(StateStore.maximumStateSize + 1)) == 0)
        close(fd)
        guard case .corrupt(let reason, let keptAs) = store.load() else { Issue.record("not set aside"); return }
        #expect(reason.contains("larger than 128 MiB"), "\(reason)")
        #expect(keptAs.hasPrefix(store.statePath + ".corrupt-"))
        #expect((try? FileManager.default.attributesOfItem(atPath: keptAs)[.size] as? Int) == StateStore.maximumStateSize + 1)
        #expect(store.load() == .empty)
    }

    @Test(.timeLimit(.minutes(1)))
    func aFIFOOrADeviceInPlaceOfTheFileIsRefusedWithoutBlocking() throws {
        let dir = try Fixtures.makeDirectory()
        let store = StateStore(directory: dir)
        #expect(mkfifo(store.statePath, 0o600) == 0)
        guard case .corrupt(let fifoReason, let fifoKept) = store.load() else { Issue.record("FIFO not set aside"); return }
        #expect(fifoReason.contains("not a regular file"), "\(fifoReason)")
        #expect(fileExists(fifoKept))
        try FileManager.default.createSymbolicLink(atPath: store.statePath, withDestinationPath: "/dev/zero")
        guard case .corrupt(let zeroReason, _) = store.load() else { Issue.record("/dev/zero not set aside"); return }
        #expect(zeroReason.contains("not a regular file"), "\(zeroReason)")
        #expect(FileManager.default.fileExists(atPath: "/dev/zero"))
    }

    /// The store never writes a file it would refuse to read back.
    @Test func aStateAboveTheLimitIsNotWritten() throws {
        let dir = try Fixtures.makeDirectory()
        let paths = try makeFiles(["a.mp3"], in: dir)
        let store = StateStore(directory: dir, maximumStateSize: 4096)
        let small = memento(paths, current: 0)
        try store.save(small)
        let big = memento(Array(repeating: paths[0], count: 100), current: 0)
        let error = #expect(throws: PersistenceError.self) { try store.save(big) }
        #expect(error?.reason.contains("limit") == true, "\(String(describing: error))")
        #expect(store.load() == .restored(small, dropped: []))
    }

    /// A PLS playlist is read whole too: above `FileIO.defaultReadLimit` it is refused with a
    /// problem naming it, not read into memory. (M3U playlists are read by Library.)
    @Test func aHugePLSPlaylistIsRefused() throws {
        let dir = try Fixtures.makeDirectory()
        let folder = PlaylistFolder(path: dir)
        let path = dir + "/Huge.pls"
        let fd = open(path, O_WRONLY | O_CREAT, 0o644)
        #expect(ftruncate(fd, off_t(FileIO.defaultReadLimit + 1)) == 0)
        close(fd)
        let info = try #require(try folder.list().first)
        let (tracks, problems) = folder.tracks(of: info)
        #expect(tracks.isEmpty)
        #expect(problems.first?.reason.contains("larger than 16 MiB") == true, "\(problems)")
    }

    // MARK: Numbers out of range

    /// Out-of-range numbers are saturated (the queue is kept), never trusted: a position of
    /// 9e18 µs times a sample rate overflows, and would do so at every start.
    @Test func outOfRangeNumbersAreSaturated() throws {
        let dir = try Fixtures.makeDirectory()
        let paths = try makeFiles(["a.mp3", "b.mp3"], in: dir)
        let store = StateStore(directory: dir)
        func restore(_ edit: (inout [String: Any]) -> Void) throws -> PlayerMemento? {
            try store.save(memento(paths, current: 0, position: 5_000_000))
            try? FileManager.default.removeItem(atPath: store.positionPath)
            var json = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: store.statePath))) as? [String: Any])
            edit(&json)
            try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: store.statePath))
            guard case .restored(let restored, _) = store.load() else { Issue.record("not restored: \(json)"); return nil }
            return restored
        }
        func editTrack(_ json: inout [String: Any], _ key: String, _ value: Any) {
            var tracks = json["tracks"] as? [[String: Any]] ?? []
            tracks[0][key] = value
            json["tracks"] = tracks
        }
        let huge: Int64 = 9_000_000_000_000_000_000
        #expect(try restore { $0["position"] = huge }?.position == 0)
        #expect(try restore { $0["position"] = -5 }?.position == 0)
        // Past the end of a track of known length: from the start.
        #expect(try restore { $0["position"] = 123_456_790 }?.position == 0)
        #expect(try restore { $0["position"] = 123_456_789 }?.position == 123_456_789)
        // Without a length, anything up to the longest time kept.
        #expect(try restore { editTrack(&$0, "length", NSNull()); $0["position"] = StoredState.maximumTime }?.position
                == StoredState.maximumTime)
        #expect(try restore { editTrack(&$0, "length", NSNull()); $0["position"] = StoredState.maximumTime + 1 }?.position == 0)
        #expect(try restore { editTrack(&$0, "length", huge) }?.tracks[0].length == nil)
        #expect(try restore { editTrack(&$0, "length", -1) }?.tracks[0].length == nil)
        #expect(try restore { editTrack(&$0, "trackNumber", Int64(1) << 40) }?.tracks[0].trackNumber == nil)
        #expect(try restore { editTrack(&$0, "discNumber", -3) }?.tracks[0].discNumber == nil)
        #expect(try restore { $0["volume"] = 1e300 }?.volume == 1)
        #expect(try restore { $0["volume"] = -1 }?.volume == 1)
        #expect(try restore { $0["volume"] = 1.5 }?.volume == 1.5)
    }

    @Test func anAbsurdPositionFileIsIgnored() throws {
        let dir = try Fixtures.makeDirectory()
        let paths = try makeFiles(["a.mp3"], in: dir)
        let store = StateStore(directory: dir)
        try store.save(memento(paths, current: 0, position: 5_000_000))
        for position: Int64 in [9_000_000_000_000_000_000, -1, 123_456_790] {
            try store.savePosition(currentIndex: 0, path: paths[0], position: 0)
            var json = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: store.positionPath))) as? [String: Any])
            json["position"] = position
            try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: store.positionPath))
            guard case .restored(let restored, _) = store.load() else { Issue.record("not restored"); return }
            #expect(restored.position == 5_000_000, "position.json with \(position)")
        }
    }
}

/// The figure behind `StateStore.maximumStateSize`: bytes a track takes in `state.json`.
@Suite struct StateSizeTests {
    /// A track as a real collection has them: a path four folders deep, the usual tags.
    static func typicalTrack(_ number: Int) -> Track {
        Track(path: FilePath("/home/someone/Music/The Artist Name/The Album Title (1999)/\(number) - A Song Title of Some Length.mp3")!,
              title: "A Song Title of Some Length \(number)", artists: ["The Artist Name"], album: "The Album Title",
              albumArtists: ["The Artist Name"], genres: ["Alternative Rock"], trackNumber: number % 20 + 1, discNumber: 1,
              date: "1999-04-12", length: 245_123_456)
    }

    @Test func aHundredThousandTypicalTracksFitWithRoomToSpare() throws {
        let tracks = (0..<1000).map(Self.typicalTrack)
        let one = PlayerMemento(tracks: tracks, currentIndex: 0, position: 0, volume: 1, loopStatus: .none, shuffle: false,
                                playOrder: Array(tracks.indices))
        let bytes = try JSONEncoder().encode(StoredState(one, sequence: 1)).count
        let perTrack = Double(bytes) / 1000
        let hundredThousand = perTrack * 100_000
        print(String(format: "state.json: %.0f bytes a typical track; 100,000 tracks ≈ %.1f MiB; limit %@",
                     perTrack, hundredThousand / 1_048_576, FileIO.describeSize(StateStore.maximumStateSize)))
        #expect(hundredThousand * 1.5 < Double(StateStore.maximumStateSize))
        // Heavily tagged tracks with long paths: 1,300 bytes each.
        #expect(1_300 * 100_000 < StateStore.maximumStateSize)
    }
}
