import Foundation
import PlayerCore
import Testing
@testable import Library
@testable import TestSupport

/// One load is bounded in tracks and in directory entries looked at: AddTrack of `/` must not
/// build a track for every MP3 on the machine, nor walk forever.
@Suite struct LoadLimitTests {
    @Test func aLoadStopsAtItsTrackLimitAndSaysSoOnce() throws {
        let dir = try Fixtures.makeDirectory()
        try touch(dir, (1...12).map { "\($0).mp3" } + ["sub/a.mp3", "sub/b.mp3"])
        let session = LoadSession(reader: fakeReader)
        session.trackLimit = 5
        session.expand(FilePath(dir)!)
        #expect(session.tracks.count == 5)
        #expect(session.problems.count == 1)
        #expect(session.problems.first?.reason.contains("at most 5 tracks") == true)
    }

    @Test func aLoadStopsAtItsEntryLimit() throws {
        let dir = try Fixtures.makeDirectory()
        try touch(dir, (1...30).map { "d\($0)/x.mp3" })
        let session = LoadSession(reader: fakeReader)
        session.entryLimit = 10
        session.expand(FilePath(dir)!)
        #expect(session.tracks.count < 30)
        #expect(session.problems.contains { $0.reason.contains("at most 10 directory entries") })
    }

    @Test func theDefaultTrackLimitIsTheQueueCapacity() {
        #expect(LoadSession(reader: fakeReader).trackLimit == PlayerState.queueCapacity)
    }
}
