@testable import PlayerCore
import Testing

/// The queue advancing by itself, driven by the output's questions (gapless): outputNeedsNext →
/// enqueue / endOfQueue, outputStarted → current, outputFinished → stopped.
@Suite struct QueueAdvanceTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var loop: LoopStatus
        /// The queue indices that become audible, in order, from the first.
        var order: [Int]
        /// Whether the queue ends (outputFinished) within `order`.
        var ends: Bool
        var testDescription: String { "LoopStatus \(loop.rawValue)" }
    }

    static let cases: [Case] = [
        Case(loop: .none, order: [0, 1, 2], ends: true),
        Case(loop: .track, order: [0, 0, 0, 0, 0], ends: false),
        Case(loop: .playlist, order: [0, 1, 2, 0, 1, 2, 0], ends: false),
    ]

    @Test(arguments: cases)
    func advancesByItself(_ c: Case) {
        var player = Player(tracks: 3, loop: c.loop, start: .playing)
        let played = player.playOut(limit: c.ends ? 100 : c.order.count)
        #expect(played == c.order.map { player.ids[$0] })
        if c.ends {
            #expect(player.status == .stopped)
            #expect(player.snapshot.current == player.entry(0), "the first track is selected for the next Play")
            #expect(player.position == 0)
        } else {
            #expect(player.status == .playing)
            #expect(player.currentID == player.ids[c.order.last!])
        }
    }

    @Test func stepByStepWithLoopNone() {
        var player = Player(tracks: 2, start: .playing)
        let (a, b) = (player.entry(0), player.entry(1))

        // The output has written all of a; b is handed over but not audible yet.
        #expect(player.send(.outputNeedsNext(after: a.id), at: 98) == [.output(.enqueue(b))])
        #expect(player.snapshot.current == a)
        #expect(player.position(at: 99) == seconds(99))

        // b's first sample is audible: it is current, from 0.
        #expect(player.send(.outputStarted(b.id), at: 100).isEmpty)
        #expect(player.snapshot.current == b)
        #expect(player.position == 0)
        #expect(player.position(at: 105) == seconds(5))
        #expect(player.status == .playing)

        // Nothing follows b.
        #expect(player.send(.outputNeedsNext(after: b.id), at: 198) == [.output(.endOfQueue)])
        #expect(player.status == .playing, "the buffered end of b still plays")
        let finished = player.send(.outputFinished(b.id), at: 200)
        #expect(finished.actions == [.output(.stop)])
        #expect(player.status == .stopped)
        #expect(player.snapshot.current == a)
        #expect(player.position == 0)
    }

    @Test func trackLoopRepeatsTheSameEntry() {
        var player = Player(tracks: 3, loop: .track, start: .playing)
        let a = player.entry(0)
        #expect(player.send(.outputNeedsNext(after: a.id), at: 99) == [.output(.enqueue(a))])
        player.send(.outputStarted(a.id), at: 100)
        #expect(player.snapshot.current == a)
        #expect(player.position(at: 130) == seconds(30), "the repeat starts from 0")
    }

    @Test func playlistLoopWrapsToTheFirst() {
        var player = Player(tracks: 2, loop: .playlist, start: .playing)
        player.send(.next, at: 1)
        #expect(player.send(.outputNeedsNext(after: player.ids[1]), at: 99) == [.output(.enqueue(player.entry(0)))])
    }

    @Test func positionIsZeroWhenTheNextTrackStartsWhilePaused() {
        // The last samples of a track can still reach the speakers right after a pause.
        var player = Player(tracks: 2, start: .playing)
        player.send(.outputNeedsNext(after: player.ids[0]), at: 99)
        player.send(.pause, at: 99.5)
        player.send(.outputStarted(player.ids[1]), at: 100)
        #expect(player.currentID == player.ids[1])
        #expect(player.position(at: 200) == 0)
    }

    /// LoopStatus set to Playlist during the last seconds, after the output was told nothing follows.
    @Test func loopTurnedOnAfterTheOutputWasToldTheQueueEnds() {
        var player = Player(tracks: 2, start: .playing)
        let e = player.entries
        player.send(.next, at: 1)
        #expect(player.send(.outputNeedsNext(after: e[1].id), at: 99) == [.output(.endOfQueue)])
        player.send(.setLoopStatus(.playlist), at: 99.5)
        #expect(player.snapshot.canGoNext)
        let finished = player.send(.outputFinished(e[1].id), at: 101)
        #expect(finished.actions == [.output(.play(e[0], from: 0, playing: true))])
        #expect(player.status == .playing)
    
    }

    /// LoopStatus Track set after the next entry was handed to the output (a track shorter
    /// than the output's buffer): the current track is reloaded where it is, so the handed-over
    /// entry is not heard, and the repeat follows.
    @Test func loopTrackAfterTheNextEntryWasHandedOverReloadsTheCurrentTrack() {
        var player = Player(tracks: 3, start: .playing)
        let e = player.entries
        #expect(player.send(.outputNeedsNext(after: e[0].id), at: 98) == [.output(.enqueue(e[1]))])
        let effects = player.send(.setLoopStatus(.track), at: 98.5)
        #expect(effects == [.output(.play(e[0], from: seconds(98.5), playing: true))])
        #expect(player.send(.outputNeedsNext(after: e[0].id), at: 99) == [.output(.enqueue(e[0]))])
        #expect(player.send(.outputStarted(e[0].id), at: 100) == [.seeked(0)], "the repeat starts over under the same track id")
        #expect(player.currentID == e[0].id)
    }

    /// A loop change that leaves the handed-over entry right (None → Playlist mid-queue) reloads nothing.
    @Test func loopChangeThatKeepsTheNextEntryReloadsNothing() {
        var player = Player(tracks: 3, start: .playing)
        let e = player.entries
        player.send(.outputNeedsNext(after: e[0].id), at: 98)
        #expect(player.send(.setLoopStatus(.playlist), at: 98.5).isEmpty)
    }

    @Test func aReconnectedOutputGetsTheCurrentTrackBackWhereItWas() {
        var player = Player(tracks: 2, start: .playing)
        let e = player.entries
        #expect(player.send(.outputReconnected, at: 10) == [.output(.play(e[0], from: seconds(10), playing: true))])
        player.send(.stop, at: 11)
        #expect(player.send(.outputReconnected, at: 12).isEmpty)
    }

    // MARK: Stale reports

    @Test func needsNextAboutAFlushedEntryIsIgnored() {
        var player = Player(tracks: 4, start: .playing)
        let e = player.entries
        #expect(player.send(.outputNeedsNext(after: e[0].id), at: 98) == [.output(.enqueue(e[1]))])
        // Next flushes the output: it now holds e[1] only, from its start.
        #expect(player.send(.next, at: 99) == [.output(.play(e[1], from: 0, playing: true))])
        // The output's question about e[0] was in flight: ignore it.
        #expect(player.send(.outputNeedsNext(after: e[0].id), at: 99.1).isEmpty)
        // The earlier gapless hand-over of e[1] was dropped with the flush.
        #expect(player.send(.outputStarted(e[1].id), at: 99.2).isEmpty)
        #expect(player.position(at: 100) == seconds(1), "a stale start does not reset the position")
        // The question about e[1] is current and is answered.
        #expect(player.send(.outputNeedsNext(after: e[1].id), at: 198) == [.output(.enqueue(e[2]))])
    }

    @Test func needsNextAboutTheCurrentEntryOnceTheFollowingWasHandedIsIgnored() {
        var player = Player(tracks: 3, start: .playing)
        let e = player.entries
        player.send(.outputNeedsNext(after: e[0].id), at: 98)
        #expect(player.send(.outputNeedsNext(after: e[0].id), at: 98.5).isEmpty, "asked twice: answered once")
    }

    @Test func staleFinishedIsIgnored() {
        var player = Player(tracks: 3, start: .playing)
        let e = player.entries
        player.send(.next, at: 10)
        #expect(player.send(.outputFinished(e[0].id), at: 11).isEmpty)
        #expect(player.status == .playing)
        #expect(player.currentID == e[1].id)
    }

    @Test func startedForAnEntryNotHandedOverIsIgnored() {
        var player = Player(tracks: 3, start: .playing)
        #expect(player.send(.outputStarted(player.ids[2]), at: 10).isEmpty)
        #expect(player.currentID == player.ids[0])
        #expect(player.position == seconds(10))
    }

    @Test func outputReportsWhileStoppedAreIgnored() {
        var player = Player(tracks: 3, start: .playing)
        player.send(.stop, at: 5)
        #expect(player.send(.outputNeedsNext(after: player.ids[0]), at: 6).isEmpty)
        #expect(player.send(.outputFinished(player.ids[0]), at: 7).isEmpty)
        #expect(player.status == .stopped)
    }
}
