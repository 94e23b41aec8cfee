@testable import PlayerCore
import Testing

/// Shuffle changes the play order only: the queue the user sees keeps its order, and a
/// shuffled pass plays every entry exactly once.
@Suite struct ShuffleTests {
    static let seeds: [UInt64] = [0x5EED, 1, 42, 0xDEAD_BEEF]

    /// Checks that `order` plays each of `ids` exactly once.
    static func expectPermutation(_ order: [EntryID], of ids: [EntryID],
                                  sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(order.count == ids.count, sourceLocation: sourceLocation)
        #expect(Set(order) == Set(ids), sourceLocation: sourceLocation)
        #expect(Set(order).count == order.count, "no entry twice", sourceLocation: sourceLocation)
    }

    @Test(arguments: seeds)
    func aShuffledPassPlaysEveryEntryOnce(seed: UInt64) {
        var player = Player(tracks: 10, start: .playing, seed: seed)
        let queueOrder = player.ids
        let first = player.entry(0)

        #expect(player.send(.setShuffle(true), at: 3).isEmpty)
        #expect(player.snapshot.shuffle)
        #expect(player.snapshot.current == first, "turning shuffle on keeps the current entry")
        #expect(player.status == .playing)
        #expect(player.position == seconds(3), "and does not interrupt it")

        let order = player.playOut()
        Self.expectPermutation(order, of: queueOrder)
        #expect(order.first == first.id)
        #expect(player.ids == queueOrder, "the queue's own order never changes")
        #expect(player.status == .stopped)
        if seed == 0x5EED {
            #expect(order != queueOrder, "the fixed seed gives a different order")
        }
    }

    @Test(arguments: seeds)
    func shuffleOnMidQueueStillPlaysEveryEntryOnce(seed: UInt64) {
        var player = Player(tracks: 10, start: .playing, seed: seed)
        for _ in 0..<4 { player.send(.next) }
        let current = player.currentID
        player.send(.setShuffle(true), at: 1)
        #expect(player.currentID == current)
        Self.expectPermutation(player.playOut(), of: player.ids)
    }

    @Test func shuffleOnWhileStoppedCoversTheQueue() {
        var player = Player(tracks: 10)
        player.send(.setShuffle(true))
        #expect(player.currentID == player.ids[0], "the selection stays")
        player.send(.play, at: 1)
        Self.expectPermutation(player.playOut(), of: player.ids)
    }

    @Test func theSameSeedGivesTheSameOrder() {
        func order() -> [EntryID] {
            var player = Player(tracks: 10, shuffle: true, start: .playing, seed: 7)
            return player.playOut()
        }
        #expect(order() == order())
    }

    @Test func playlistLoopRepeatsTheShuffledPass() {
        var player = Player(tracks: 5, loop: .playlist, shuffle: true, start: .playing)
        let order = player.playOut(limit: 15)
        Self.expectPermutation(Array(order[0..<5]), of: player.ids)
        #expect(Array(order[5..<10]) == Array(order[0..<5]))
        #expect(Array(order[10..<15]) == Array(order[0..<5]))
    }

    @Test func nextAndPreviousFollowThePlayOrder() {
        var player = Player(tracks: 10, shuffle: true, start: .playing)
        let order = player.state.queue.playOrder
        player.send(.next, at: 1)
        player.send(.next, at: 2)
        #expect(player.currentID == order[2])
        player.send(.previous, at: 3)
        #expect(player.currentID == order[1])
    }

    @Test(arguments: [0, 3, 9])
    func shuffleOffRestoresQueueOrderFromTheCurrentEntry(steps: Int) {
        var player = Player(tracks: 10, start: .playing)
        player.send(.setShuffle(true), at: 1)
        // Play `steps` shuffled tracks through the output.
        player.playOut(limit: steps + 1)
        let current = player.currentID!
        let index = player.ids.firstIndex(of: current)!

        #expect(player.send(.setShuffle(false)).isEmpty)
        #expect(!player.snapshot.shuffle)
        #expect(player.currentID == current, "turning shuffle off keeps the current entry")
        #expect(player.state.queue.playOrder == player.ids)

        // From here on the queue plays in its own order.
        let rest = player.playOut()
        #expect(rest == Array(player.ids[index...]))
    }

    @Test func settingShuffleToWhatItIsChangesNothing() {
        var player = Player(tracks: 10, shuffle: true)
        let order = player.state.queue.playOrder
        #expect(player.send(.setShuffle(true)).isEmpty)
        #expect(player.state.queue.playOrder == order, "not reshuffled")
        var plain = Player(tracks: 3)
        #expect(plain.send(.setShuffle(false)).isEmpty)
        #expect(plain.state.queue.playOrder == plain.ids)
    }

    /// Shuffle turned on after the output was handed the following track (the last seconds of a
    /// track): the pass must still play every entry exactly once. (With seed 42 the handed-over
    /// entry lands 7th in the new play order; with the default seed it happens to land 2nd.)
    @Test func shuffleOnAfterTheNextTrackWasHandedOver() {
        var player = Player(tracks: 10, start: .playing, seed: 42)
        let e = player.entries
        #expect(player.send(.outputNeedsNext(after: e[0].id), at: 98) == [.output(.enqueue(e[1]))])
        player.send(.setShuffle(true), at: 99)
        player.send(.outputStarted(e[1].id), at: 100)
        let order = [e[0].id] + player.playOut()
        Self.expectPermutation(order, of: player.ids)
    
    }
}
