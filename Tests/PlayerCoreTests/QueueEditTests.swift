@testable import PlayerCore
import Testing

/// Enqueue and OpenUri, and the entry ids they hand out.
@Suite struct QueueEditTests {
    // MARK: Open (MPRIS OpenUri)

    @Test(arguments: Start.allCases)
    func openInsertsAfterTheCurrentEntryAndPlaysTheFirstOpened(_ start: Start) {
        var player = Player(tracks: 3, start: start)
        player.send(.next, at: 1)                      // current: e[1]
        let e = player.entries
        let effects = player.send(.open([track(10), track(11)]), at: 2)
        #expect(player.entries.map(\.track.path) == ["/music/0.mp3", "/music/1.mp3", "/music/10.mp3",
                                                     "/music/11.mp3", "/music/2.mp3"])
        let opened = player.entry(2)
        #expect(effects.actions == [.output(.play(opened, from: 0, playing: true))])
        #expect(player.currentID == opened.id)
        #expect(player.status == .playing, "OpenUri plays, whatever the status was")
        #expect(player.position(at: 12) == seconds(10))
        #expect(player.playOut() == [opened.id, player.ids[3], e[2].id])
    }

    @Test func openIntoAnEmptyQueuePlays() {
        var player = Player()
        let effects = player.send(.open([track(1)]), at: 1)
        #expect(effects.actions == [.output(.play(player.entry(0), from: 0, playing: true))])
        #expect(player.status == .playing)
    }

    @Test func openNothingDoesNothing() {
        var player = Player(tracks: 2, start: .playing)
        let before = player.state
        #expect(player.send(.open([]), at: 1).isEmpty)
        #expect(player.state == before)
    }

    @Test func openIntoAShuffledQueuePlaysTheOpenedTrackAndKeepsEveryEntryOnce() {
        var player = Player(tracks: 8, shuffle: true, start: .playing)
        player.send(.open([track(20), track(21)]), at: 5)
        #expect(player.snapshot.current?.track.path == "/music/20.mp3")
        ShuffleTests.expectPermutation(player.state.queue.playOrder, of: player.ids)
        #expect(player.ids.count == 10)
    }

    // MARK: Enqueue

    @Test func enqueueWithPlayWhenStoppedStartsPlaying() {
        var player = Player()
        let effects = player.send(.enqueue(tracks(3), play: true), at: 1)
        #expect(effects.actions == [.output(.play(player.entry(0), from: 0, playing: true))])
        #expect(effects.logs.map(\.0) == [.info])
        #expect(player.status == .playing)
        #expect(player.ids.count == 3)
    }

    @Test func enqueueWithoutPlaySelectsTheFirstAndStaysStopped() {
        var player = Player()
        let effects = player.send(.enqueue(tracks(3), play: false), at: 1)
        #expect(effects.actions.isEmpty)
        #expect(player.status == .stopped)
        #expect(player.currentID == player.ids[0])
        #expect(player.snapshot.canPlay)
        #expect(player.snapshot.canGoNext && !player.snapshot.canGoPrevious)
    }

    @Test(arguments: [Start.playing, .paused], [false, true])
    func enqueueWhilePlayingOrPausedAppendsOnly(_ start: Start, play: Bool) {
        var player = Player(tracks: 2, start: start)
        let current = player.currentID
        let effects = player.send(.enqueue([track(7)], play: play), at: 3)
        #expect(effects.actions.isEmpty)
        #expect(player.status == start.status)
        #expect(player.currentID == current)
        #expect(player.entries.last?.track.path == "/music/7.mp3")
        #expect(player.position == (start == .playing ? seconds(3) : 0))
    }

    @Test func enqueueNothingDoesNothing() {
        var player = Player()
        #expect(player.send(.enqueue([], play: true)).isEmpty)
        #expect(player.status == .stopped)
    }

    @Test func enqueuedTracksPlayAfterTheQueue() {
        var player = Player(tracks: 2, start: .playing)
        player.send(.enqueue(tracks(2, from: 10), play: false), at: 1)
        let order = player.playOut()
        #expect(order == player.ids)
        #expect(order.count == 4)
    }

    @Test(arguments: [UInt64(0x5EED), 3, 99])
    func enqueueIntoAShuffledQueueKeepsEveryEntryOnce(seed: UInt64) {
        var player = Player(tracks: 5, shuffle: true, start: .playing, seed: seed)
        let queueBefore = player.ids
        player.send(.enqueue(tracks(5, from: 10), play: false), at: 1)
        #expect(Array(player.ids.prefix(5)) == queueBefore, "appended at the end of the queue the user sees")
        ShuffleTests.expectPermutation(player.state.queue.playOrder, of: player.ids)
        // A full pass from the current entry plays all ten exactly once.
        ShuffleTests.expectPermutation(player.playOut(), of: player.ids)
    }

    @Test func enqueueIntoAnEmptyShuffledQueueSelectsAnEnqueuedEntry() {
        var player = Player()
        player.send(.setShuffle(true))
        player.send(.enqueue(tracks(6), play: true), at: 1)
        #expect(player.currentID == player.state.queue.playOrder.first)
        #expect(player.status == .playing)
        ShuffleTests.expectPermutation(player.playOut(), of: player.ids)
    }

    /// Tracks added while the last one plays out, after the output was told nothing follows.
    @Test func enqueueAfterTheOutputWasToldTheQueueEnds() {
        var player = Player(tracks: 1, start: .playing)
        let last = player.entry(0)
        #expect(player.send(.outputNeedsNext(after: last.id), at: 98) == [.output(.endOfQueue)])
        let enqueued = player.send(.enqueue([track(5)], play: true), at: 99)
        let added = player.entry(1)
        let finished = player.send(.outputFinished(last.id), at: 100)
        let handedOver = (enqueued + finished).actions.contains { effect in
            effect == .output(.enqueue(added)) || effect == .output(.play(added, from: 0, playing: true))
        }
        #expect(handedOver)
        #expect(player.status == .playing)
    
    }

    /// With an earlier queue played out (stopped, its first track selected), `enqueue(play: true)`
    /// should start the first of the tracks just added, as its doc comment says.
    @Test func enqueueWithPlayAfterAnEndedQueueStartsTheNewTracks() {
        var player = Player(tracks: 2, start: .playing)
        player.playOut()
        #expect(player.status == .stopped)
        let effects = player.send(.enqueue([track(9)], play: true), at: 1_000)
        #expect(player.status == .playing)
        #expect(player.snapshot.current?.track.path == "/music/9.mp3")
        #expect(effects.actions == [.output(.play(player.entry(2), from: 0, playing: true))])
    
    }

    // MARK: Entry ids

    @Test func idsAreUniqueAndNeverReused() {
        var player = Player(tracks: 3, start: .playing)
        var issued = Set(player.ids)
        player.send(.open([track(10), track(11)]), at: 1)
        player.send(.enqueue([track(0), track(0)], play: false), at: 2)   // the same file twice: two ids
        #expect(player.ids.count == 7)
        #expect(Set(player.ids).count == 7)
        issued.formUnion(player.ids)

        // Drop some entries, then add more: the new ids are new.
        for id in player.ids.prefix(4) {
            player.send(.trackUnplayable(id, reason: "gone"), at: 3)
        }
        #expect(player.ids.count == 3)
        player.send(.enqueue(tracks(4, from: 20), play: false), at: 4)
        let fresh = player.ids.suffix(4)
        #expect(Set(fresh).isDisjoint(with: issued), "ids of removed entries are not reused")
        issued.formUnion(fresh)
        #expect(issued.count == 11)
        #expect(Set(player.ids).count == player.ids.count)
    }

    @Test func idsOfOtherEntriesDoNotChangeOnEdits() {
        var player = Player(tracks: 4, start: .playing)
        let before = player.entries
        player.send(.trackUnplayable(before[2].id, reason: "gone"), at: 1)
        player.send(.open([track(9)]), at: 2)
        player.send(.setShuffle(true), at: 3)
        for entry in [before[0], before[1], before[3]] {
            #expect(player.state.queue.entry(entry.id) == entry)
        }
    }
}
