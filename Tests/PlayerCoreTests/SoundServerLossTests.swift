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
