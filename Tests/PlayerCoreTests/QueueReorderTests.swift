@testable import PlayerCore
import Testing

/// MPD's queue commands: move, swap, delete many, shuffle a range, priorities, play or seek a
/// given entry, insert at a position.
@Suite struct QueueReorderTests {
    @Test func moveTakesABlockToAPositionOfTheQueueLeftBehind() {
        var player = Player(tracks: 5)
        let ids = player.ids
        let effects = player.send(.moveEntries([ids[0], ids[1]], toPosition: 2))
        #expect(player.ids == [ids[2], ids[3], ids[0], ids[1], ids[4]])
        #expect(effects.trackListChanges == [.reordered])
        #expect(player.state.queue.playOrder == player.ids, "unshuffled, the play order is the queue's")
        // Not consecutive, or out of range: nothing happens.
        #expect(player.send(.moveEntries([ids[2], ids[4]], toPosition: 0)).isEmpty)
        #expect(player.send(.moveEntries([ids[4]], toPosition: 9)).isEmpty)
    }

    @Test func movingWhileShuffledKeepsThePlayOrder() {
        var player = Player(tracks: 5, shuffle: true)
        let order = player.state.queue.playOrder
        player.send(.moveEntries([player.ids[4]], toPosition: 0))
        #expect(player.state.queue.playOrder == order)
    }

    @Test func swapExchangesTwoEntries() {
        var player = Player(tracks: 3)
        let ids = player.ids
        player.send(.swapEntries(ids[0], ids[2]))
        #expect(player.ids == [ids[2], ids[1], ids[0]])
    }

    @Test(arguments: Start.allCases)
    func removingSeveralWithTheCurrentMovesOnToTheFirstThatStays(_ start: Start) {
        var player = Player(tracks: 5, start: start)
        player.send(.next, at: 1)                        // current: e[1]
        let ids = player.ids
        let effects = player.send(.removeEntries([ids[1], ids[2], ids[4]]), at: 2)
        #expect(player.ids == [ids[0], ids[3]])
        #expect(player.currentID == ids[3])
        #expect(player.status == (start == .stopped ? .stopped : start == .playing ? .playing : .paused))
        #expect(effects.trackListChanges.contains(.removedSeveral([ids[2], ids[4]])))
        #expect(effects.trackListChanges.contains(.removed(ids[1])))
    }

    @Test func shufflingARangeKeepsTheCurrentEntryFirst() {
        var player = Player(tracks: 10, start: .playing)
        player.send(.playEntry(player.ids[5]), at: 1)
        let ids = player.ids
        player.send(.shuffleQueue(3..<10), at: 2)
        #expect(Array(player.ids[0..<3]) == Array(ids[0..<3]))
        #expect(player.ids[3] == ids[5], "the entry playing goes to the start of its range")
        #expect(Set(player.ids) == Set(ids))
        #expect(player.ids != ids)
    }

    @Test func withShuffleOnAHigherPriorityPlaysFirstThenDropsBackToZero() {
        var player = Player(tracks: 8, shuffle: true, start: .playing, seed: 7)
        let current = player.currentID!
        let favourite = player.ids.first { $0 != current }!
        player.send(.setPriority([favourite], 200), at: 1)
        #expect(player.state.queue.entry(favourite)?.priority == 200)
        let order = player.state.queue.playOrder
        #expect(order[order.firstIndex(of: current)! + 1] == favourite)
        #expect(player.send(.outputNeedsNext(after: current), at: 99).enqueued?.id == favourite)
        player.send(.outputStarted(favourite), at: 100)
        #expect(player.state.queue.entry(favourite)?.priority == 0)
    }

    @Test func playEntryPlaysWhateverTheStatus() {
        var player = Player(tracks: 3, start: .paused)
        let effects = player.send(.playEntry(player.ids[2]), at: 1)
        #expect(effects.actions == [.output(.play(player.entry(2), from: 0, playing: true))])
        #expect(player.status == .playing)
    }

    @Test func seekEntryMovesToAnotherTrackPausedOrPlaying() {
        var paused = Player(tracks: 3, start: .paused)
        paused.send(.seekEntry(paused.ids[1], to: seconds(30)), at: 1)
        #expect(paused.currentID == paused.ids[1])
        #expect(paused.status == .paused)
        #expect(paused.position == seconds(30))
        var stopped = Player(tracks: 3)
        stopped.send(.seekEntry(stopped.ids[2], to: seconds(10)), at: 1)
        #expect(stopped.status == .playing)
        #expect(stopped.position(at: 1) == seconds(10))
        // Past the end, or before 0: nothing.
        #expect(stopped.send(.seekEntry(stopped.ids[0], to: seconds(500)), at: 2).isEmpty)
    }

    @Test func tracksGoInAtAPositionOfTheQueue() {
        var player = Player(tracks: 3)
        let ids = player.ids
        player.send(.addTracks([track(10)], at: .position(1), makeCurrent: false))
        #expect(player.entries.map(\.track.path) == ["/music/0.mp3", "/music/10.mp3", "/music/1.mp3", "/music/2.mp3"])
        player.send(.addTracks([track(11)], at: .position(0), makeCurrent: false))
        #expect(player.entry(0).track.path == "/music/11.mp3")
        player.send(.addTracks([track(12)], at: .position(99), makeCurrent: false))
        #expect(player.entries.last?.track.path == "/music/12.mp3")
        #expect(player.ids.prefix(1) != ids.prefix(1))
    }
}
