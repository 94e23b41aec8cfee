@testable import PlayerCore
import Testing

/// A station in the queue: no seeking, live facts in the entry, and the rule for resuming.
@Suite struct StreamTests {
    static let station = Track(stream: try! StreamURL(validating: "http://radio.example:8000/live"))

    /// A player with the station (and a file after it), playing the station since 0 s.
    static func playingStation() -> Player {
        var player = Player()
        player.send(.enqueue([station, track(1)], play: true), at: 0)
        player.send(.outputStarted(player.entry(0).id), at: 0.2)
        return player
    }

    @Test func aStationCannotSeek() {
        var player = Self.playingStation()
        #expect(!player.snapshot.canSeek)
        #expect(player.send(.seek(by: seconds(10)), at: 5).actions.isEmpty)
        #expect(player.send(.setPosition(player.entry(0).id, seconds(1)), at: 5).actions.isEmpty)
        #expect(player.status == .playing)
        // A file after it can.
        player.send(.next, at: 6)
        #expect(player.snapshot.canSeek)
    }

    @Test func positionCountsListeningTime() {
        var player = Self.playingStation()
        player.send(.pause, at: 10)
        player.now = at(12)
        #expect(player.position == seconds(10))
    }

    @Test func aShortPauseResumesFromTheBuffer() {
        var player = Self.playingStation()
        player.send(.pause, at: 10)
        let effects = player.send(.play, at: 10 + 9.9)
        #expect(effects.actions == [.output(.resume)])
    }

    @Test func aLongPauseJoinsLiveAgain() {
        var player = Self.playingStation()
        player.send(.pause, at: 10)
        let entry = player.entry(0)
        let effects = player.send(.play, at: 10 + 10.1)
        // Fetched afresh; the position goes on from where listening stopped.
        #expect(effects.actions == [.output(.play(entry, from: seconds(10), playing: true))])
        #expect(player.status == .playing)
        #expect(effects.logs.contains { $0.1.contains("joining live again") })
    }

    @Test func aLongCallJoinsLiveAgainToo() {
        var player = Self.playingStation()
        player.send(.corkRequested, at: 10)
        #expect(player.status == .paused)
        let effects = player.send(.uncorkRequested, at: 40)
        #expect(effects.actions.contains { if case .output(.play(_, _, playing: true)) = $0 { return true } else { return false } })
        #expect(player.status == .playing)
    }

    @Test func aFileIsNotSubjectToTheLiveRule() {
        var player = Player(tracks: 2, start: .playing)
        player.send(.pause, at: 10)
        #expect(player.send(.play, at: 100).actions == [.output(.resume)])
    }

    @Test func statusAndStationNameReachTheEntry() {
        var player = Self.playingStation()
        let id = player.entry(0).id
        var effects = player.send(.streamStatus(id, .connected(station: "Test FM", live: true)), at: 1)
        #expect(player.entry(0).live?.station == "Test FM")
        #expect(effects.trackListChanges == [.metadataChanged(id)])
        effects = player.send(.streamStatus(id, .reconnecting(attempt: 2, delay: 1_000_000, reason: "closed")), at: 2)
        #expect(effects.logs.contains { $0.0 == .warning && $0.1.contains("attempt 2") })
        #expect(player.entry(0).live?.station == "Test FM")  // kept while reconnecting
        #expect(player.status == .playing)  // the user still wants music
    }

    @Test func aTitleIsPublishedOnceAndForgottenWhenTheStationIsLeft() {
        var player = Self.playingStation()
        let id = player.entry(0).id
        let title = LiveTitle(announcement: "Artist - Song")
        #expect(player.send(.liveTitleHeard(id, title), at: 3).trackListChanges == [.metadataChanged(id)])
        #expect(player.send(.liveTitleHeard(id, title), at: 4).isEmpty)
        #expect(player.snapshot.current?.live?.title == title)
        player.send(.next, at: 5)
        #expect(player.entry(0).live == nil)
    }

    @Test func eventsForAnotherEntryAreIgnored() {
        var player = Self.playingStation()
        let other = player.entry(1).id
        #expect(player.send(.liveTitleHeard(other, LiveTitle(announcement: "X")), at: 1).isEmpty)
        #expect(player.send(.streamStatus(other, .connecting), at: 1).isEmpty)
        #expect(player.entry(1).live == nil)
    }

    @Test func announcementsSplitOnlyAroundASpacedDash() {
        #expect(LiveTitle(announcement: "AC/DC - T.N.T.").artist == "AC/DC")
        #expect(LiveTitle(announcement: "Jay-Z").artist == nil)
        #expect(LiveTitle(announcement: " - Title").artist == nil)
        #expect(LiveTitle(announcement: "Artist - ").title == "Artist -")
    }
}

/// A station is never joined gaplessly to its neighbours: the output drains, then it starts.
@Suite struct StreamBoundaryTests {
    @Test func aFileBeforeAStationEndsTheOutputsQueue() {
        var player = Player()
        player.send(.enqueue([track(0), StreamTests.station], play: true), at: 0)
        let file = player.entry(0).id
        player.send(.outputStarted(file), at: 0.1)
        #expect(player.send(.outputNeedsNext(after: file), at: 98).actions == [.output(.endOfQueue)])
        let effects = player.send(.outputFinished(file), at: 100)
        #expect(effects.actions == [.output(.play(player.entry(1), from: 0, playing: true))])
    }

    @Test func aStationThatEndsLetsTheNextFileStartAfresh() {
        var player = StreamTests.playingStation()
        let station = player.entry(0).id
        #expect(player.send(.outputNeedsNext(after: station), at: 50).actions == [.output(.endOfQueue)])
        #expect(player.send(.outputFinished(station), at: 51).actions == [.output(.play(player.entry(1), from: 0, playing: true))])
    }
}

/// A playlist of stations whose first is off the air: after a few attempts the next one plays.
@Suite struct DeadStationTests {
    static func queue(_ tracks: [Track]) -> Player {
        var player = Player()
        player.send(.enqueue(tracks, play: true), at: 0)
        return player
    }

    static func failing(_ attempt: Int) -> StreamStatus {
        .reconnecting(attempt: attempt, delay: 1_000_000, reason: "Couldn't connect to server")
    }

    @Test func aStationThatNeverAnsweredGivesWayToTheNext() {
        var player = Self.queue([StreamTests.station, track(1)])
        let dead = player.entry(0).id
        #expect(player.send(.streamStatus(dead, Self.failing(2)), at: 1).actions.isEmpty)
        let effects = player.send(.streamStatus(dead, Self.failing(3)), at: 2)
        #expect(effects.actions == [.output(.play(player.entry(1), from: 0, playing: true))])
        #expect(effects.logs.contains { $0.1.contains("not answering") })
        #expect(player.entries.count == 2)  // still queued
    }

    @Test func aStationThatPlayedIsWaitedFor() {
        var player = Self.queue([StreamTests.station, track(1)])
        let station = player.entry(0).id
        player.send(.streamStatus(station, .connected(station: "FM", live: true)), at: 1)
        #expect(player.send(.streamStatus(station, Self.failing(5)), at: 20).actions.isEmpty)
        #expect(player.currentID == station)
    }

    @Test func theLastStationIsRetriedForAsLongAsItTakes() {
        var player = Self.queue([StreamTests.station])
        let station = player.entry(0).id
        #expect(player.send(.streamStatus(station, Self.failing(9)), at: 60).actions.isEmpty)
        #expect(player.status == .playing)
    }
}
