@testable import PlayerCore
import Testing

/// The sound server going away while playing (issue 10, finding 3): before, MPRIS said Playing
/// the whole time, the position ran on, and the music came back later in the track.
@Suite struct SoundServerLossTests {
    @Test func losingTheServerPausesWithThePositionFrozen() {
        var player = Player(tracks: 2, start: .playing)
        player.send(.soundServerLost(reason: "Connection terminated"), at: 12)
        #expect(player.status == .paused)
        #expect(player.snapshot.pauseReason == .noSoundServer)
        #expect(player.position == seconds(12))
        #expect(player.position(at: 30) == seconds(12), "frozen during the outage")
    }

    @Test func theServerComingBackResumesWhereTheAudioStopped() {
        var player = Player(tracks: 2, start: .playing)
        player.send(.soundServerLost(reason: "gone"), at: 12)
        let effects = player.send(.outputReconnected, at: 14)
        #expect(effects.actions.contains(.output(.play(player.entry(0), from: seconds(12), playing: true))))
        #expect(player.status == .playing)
        #expect(player.snapshot.pauseReason == .none)
        #expect(player.position(at: 15) == seconds(13))
    }

    @Test func aPauseDuringTheOutageIsKept() {
        var player = Player(tracks: 2, start: .playing)
        player.send(.soundServerLost(reason: "gone"), at: 12)
        player.send(.pause, at: 13)
        #expect(player.snapshot.pauseReason == .user)
        let effects = player.send(.outputReconnected, at: 14)
        #expect(effects.actions.contains(.output(.play(player.entry(0), from: seconds(12), playing: false))))
        #expect(player.status == .paused)
    }

    @Test func playDuringTheOutageWaitsForTheServer() {
        var player = Player(tracks: 2, start: .paused)
        player.send(.soundServerLost(reason: "gone"), at: 1)
        let effects = player.send(.play, at: 2)
        #expect(effects.actions.isEmpty, "nothing can be heard: no output command, no clock")
        #expect(player.status == .paused)
        #expect(player.snapshot.pauseReason == .noSoundServer)
        player.send(.outputReconnected, at: 3)
        #expect(player.status == .playing)
    }

    @Test func playFromStoppedDuringTheOutageWaitsToo() {
        var player = Player(tracks: 2)
        player.send(.soundServerLost(reason: "gone"), at: 1)
        player.send(.play, at: 2)
        #expect(player.status == .paused)
        #expect(player.snapshot.pauseReason == .noSoundServer)
        #expect(player.position(at: 10) == 0)
        player.send(.outputReconnected, at: 11)
        #expect(player.status == .playing)
    }

    @Test func theSleepInhibitorIsReleased() {
        var player = Player(tracks: 1)
        var policy = AudioSessionPolicy()
        policy.inhibitSleepWhilePlaying = true
        player.send(.setPolicy(policy))
        player.send(.play, at: 0)
        let effects = player.send(.soundServerLost(reason: "gone"), at: 1)
        #expect(effects.contains(.keepAwake(false)))
        #expect(player.send(.outputReconnected, at: 2).contains(.keepAwake(true)))
    }

    @Test func aStreamLostOnceIsPlayedAgainFromWhereItStopped() {
        var player = Player(tracks: 1, start: .playing)
        let effects = player.send(.outputStreamLost(reason: "killed"), at: 7)
        #expect(effects.actions.contains(.output(.play(player.entry(0), from: seconds(7), playing: true))))
        #expect(player.status == .playing)
    }

    @Test func aStreamLostAgainSoonPauses() {
        var player = Player(tracks: 1, start: .playing)
        player.send(.outputStreamLost(reason: "killed"), at: 7)
        player.send(.outputStreamLost(reason: "killed"), at: 8)
        #expect(player.status == .paused)
        #expect(player.snapshot.pauseReason == .streamLost)
        #expect(player.position(at: 20) == seconds(8))
    }

    @Test func aStreamLostLongAfterTheLastIsPlayedAgain() {
        var player = Player(tracks: 1, start: .playing)
        player.send(.outputStreamLost(reason: "killed"), at: 7)
        player.send(.outputStreamLost(reason: "killed"), at: 30)
        #expect(player.status == .playing)
    }
}

/// Every way of starting playback waits for the server, and the server's return is compared
/// with what it said before it went.
@Suite struct SoundServerLossPathsTests {
    @Test(arguments: ["goTo", "open", "addAndMakeCurrent", "enqueueAndPlay", "replaceQueue"])
    func anythingThatWouldPlayWaitsForTheServer(_ path: String) {
        var player = Player(tracks: 3)
        player.send(.soundServerLost(reason: "gone"), at: 1)
        switch path {
        case "goTo": player.send(.goTo(player.entry(2).id), at: 2)
        case "open": player.send(.open(tracks(1, from: 10)), at: 2)
        case "addAndMakeCurrent": player.send(.addTracks(tracks(1, from: 10), at: .atEnd, makeCurrent: true), at: 2)
        case "enqueueAndPlay":
            player = Player()
            player.send(.soundServerLost(reason: "gone"), at: 1)
            player.send(.enqueue(tracks(2), play: true), at: 2)
        default: player.send(.replaceQueue(tracks(2, from: 20), play: true), at: 2)
        }
        #expect(player.status == .paused, "nothing can be heard")
        #expect(player.snapshot.pauseReason == .noSoundServer)
        #expect(player.position(at: 10) == 0, "the clock does not run")
        player.send(.outputReconnected, at: 11)
        #expect(player.status == .playing)
        #expect(player.position == 0, "plays from where it would have started")
    }

    @Test func aStateRestoredBeforeTheServerIsThereStaysPaused() {
        var player = Player()
        player.send(.soundServerLost(reason: "no server yet"), at: 0)
        let memento = PlayerMemento(tracks: tracks(2), currentIndex: 1, position: seconds(30), volume: 1,
                                    loopStatus: .none, shuffle: false, playOrder: [0, 1])
        player.send(.restore(memento), at: 1)
        player.send(.outputReconnected, at: 2)
        #expect(player.status == .paused)
        #expect(player.position == seconds(30))
    }

    @Test func aCallThatEndedDuringTheOutageEndsTheInterruption() {
        var player = Player(tracks: 1)
        player.send(.soundServerChanged(Readings.onHeadphones()), at: 0)
        player.send(.play, at: 0)
        player.send(.soundServerChanged(Readings.onHeadphones(phones: 1)), at: 1)
        #expect(player.snapshot.pauseReason == .interruption)
        player.send(.soundServerLost(reason: "gone"), at: 2)
        player.send(.outputReconnected, at: 3)
        player.send(.soundServerChanged(Readings.onHeadphones(phones: 0)), at: 3.1)
        #expect(player.status == .playing, "the call is over: the interrupted music resumes")
    }
}

/// The clock follows what is heard: a start delayed by a slow disk moves it back.
@Suite struct StartDelayTests {
    @Test func aLateFirstSampleMovesTheClockBackAndSaysSo() {
        var player = Player(tracks: 2)
        player.send(.play, at: 0)
        let effects = player.send(.outputStarted(player.entry(0).id), at: 2.5)
        #expect(effects.contains(.seeked(0)))
        #expect(player.position == 0)
        #expect(player.position(at: 3.5) == seconds(1))
    }

    @Test func anOrdinaryStartIsLeftAlone() {
        var player = Player(tracks: 2)
        player.send(.play, at: 0)
        let effects = player.send(.outputStarted(player.entry(0).id), at: 0.3)
        #expect(!effects.contains { if case .seeked = $0 { true } else { false } })
        #expect(player.position == seconds(0.3))
    }

    @Test func aLateStartAfterASeekGoesBackToTheSeekTarget() {
        var player = Player(tracks: 1, start: .playing)
        player.send(.seek(by: seconds(40)), at: 10)
        player.send(.outputStarted(player.entry(0).id), at: 12)
        #expect(player.position == seconds(50))
    }
}
