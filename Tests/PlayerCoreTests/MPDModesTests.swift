@testable import PlayerCore
import Testing

/// MPD's repeat, single and consume on the one player: repeat and single are the LoopStatus,
/// single without repeat pauses at the next track, oneshot turns itself off, consume removes
/// what has played.
@Suite struct MPDModesTests {
    @Test(arguments: [
        (repeats: false, single: SingleMode.off, loop: LoopStatus.none),
        (repeats: true, single: .off, loop: .playlist),
        (repeats: true, single: .on, loop: .track),
        (repeats: false, single: .on, loop: .none),
        (repeats: true, single: .oneshot, loop: .track),
    ])
    func repeatAndSingleAreTheLoopStatus(repeats: Bool, single: SingleMode, loop: LoopStatus) {
        var player = Player(tracks: 3)
        player.send(.setSingle(single))
        player.send(.setRepeat(repeats))
        #expect(player.snapshot.loopStatus == loop)
        #expect(player.snapshot.single == single)
        // The other order of the two commands comes to the same.
        var other = Player(tracks: 3)
        other.send(.setRepeat(repeats))
        other.send(.setSingle(single))
        #expect(other.snapshot.loopStatus == loop)
        #expect(other.snapshot.single == single)
    }

    @Test func anMPRISLoopStatusSetsSingleToMatch() {
        var player = Player(tracks: 3)
        player.send(.setSingle(.on))            // repeat off, single on: "pause after this track"
        player.send(.setLoopStatus(.none))       // an MPRIS client asks for no loop
        #expect(player.snapshot.single == .off, "None is no loop and no pause after the track")
        player.send(.setLoopStatus(.track))
        #expect(player.snapshot.single == .on)
        player.send(.setLoopStatus(.playlist))
        #expect(player.snapshot.single == .off)
    }

    @Test func singleWithoutRepeatPausesAtTheStartOfTheNextTrack() {
        var player = Player(tracks: 3, start: .playing)
        player.send(.setSingle(.on))
        let first = player.entry(0).id
        // Nothing is joined gaplessly: the output plays out the track…
        #expect(player.send(.outputNeedsNext(after: first), at: 99).actions == [.output(.endOfQueue)])
        // …and when it has, the next track waits, paused at its start.
        let effects = player.send(.outputFinished(first), at: 100)
        #expect(effects.actions == [.output(.play(player.entry(1), from: 0, playing: false))])
        #expect(player.status == .paused)
        #expect(player.currentID == player.entry(1).id)
        #expect(player.snapshot.single == .on, "single stays on")
    }

    @Test func oneshotTurnsItselfOffAfterOneTrack() {
        var player = Player(tracks: 3, start: .playing)
        player.send(.setSingle(.oneshot))
        player.send(.outputFinished(player.entry(0).id), at: 100)
        #expect(player.status == .paused)
        #expect(player.snapshot.single == .off)
        // With repeat, the track plays once more, then the queue goes on.
        var repeating = Player(tracks: 3, start: .playing)
        repeating.send(.setRepeat(true))
        repeating.send(.setSingle(.oneshot))
        #expect(repeating.snapshot.loopStatus == .track)
        let first = repeating.entry(0).id
        #expect(repeating.send(.outputNeedsNext(after: first), at: 99).enqueued?.id == first)
        repeating.send(.outputStarted(first), at: 100)
        #expect(repeating.snapshot.single == .off)
        #expect(repeating.snapshot.loopStatus == .playlist)
    }

    @Test func consumeRemovesEachTrackOnceItHasPlayed() {
        var player = Player(tracks: 3, start: .playing)
        player.send(.setConsume(true))
        let ids = player.ids
        // Gapless: the next track starts, the first leaves the queue.
        #expect(player.send(.outputNeedsNext(after: ids[0]), at: 99).enqueued?.id == ids[1])
        let effects = player.send(.outputStarted(ids[1]), at: 100)
        #expect(effects.trackListChanges == [.removed(ids[0])])
        #expect(player.ids == [ids[1], ids[2]])
        // Next leaves the skipped track behind too.
        player.send(.next, at: 110)
        #expect(player.ids == [ids[2]])
        #expect(player.currentID == ids[2])
        // The last one, played out, leaves an empty queue and a stopped player.
        player.send(.outputNeedsNext(after: ids[2]), at: 209)
        player.send(.outputFinished(ids[2]), at: 210)
        #expect(player.ids.isEmpty)
        #expect(player.status == .stopped)
    }

    @Test func consumeKeepsATrackThatRepeats() {
        var player = Player(tracks: 2, loop: .track, start: .playing)
        player.send(.setConsume(true))
        let first = player.entry(0).id
        player.send(.outputNeedsNext(after: first), at: 99)
        player.send(.outputStarted(first), at: 100)
        #expect(player.ids.contains(first))
    }

    @Test func aDisabledOutputIsMutedAndPlaybackGoesOn() {
        var player = Player(tracks: 1, start: .playing)
        #expect(player.send(.setOutputEnabled(false), at: 1).actions == [.output(.setMuted(true))])
        #expect(player.status == .playing)
        #expect(player.snapshot.outputEnabled == false)
        #expect(player.send(.setOutputEnabled(false), at: 2).actions.isEmpty)
        #expect(player.send(.setOutputEnabled(true), at: 3).actions == [.output(.setMuted(false))])
    }

    @Test func theReplayGainModeChangesAtRunTime() {
        var player = Player(tracks: 1)
        player.send(.setReplayGainMode(.album))
        #expect(player.snapshot.policy.replayGain == .album)
    }
}
