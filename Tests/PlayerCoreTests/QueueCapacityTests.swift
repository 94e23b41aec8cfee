@testable import PlayerCore
import Testing

/// Tracks come from outside (AddTrack of `/`, a huge playlist, a state file): the queue is
/// bounded, so memory is (issue 10: nothing from outside grows memory without bound).
@Suite struct QueueCapacityTests {
    static let full = tracks(PlayerState.queueCapacity)

    @Test func enqueueStopsAtTheCapacityAndSaysSo() {
        var player = Player()
        player.send(.enqueue(Self.full, play: false))
        let effects = player.send(.enqueue(tracks(5, from: PlayerState.queueCapacity), play: false))
        #expect(player.entries.count == PlayerState.queueCapacity)
        #expect(effects.logs.contains { $0.0 == .warning && $0.1.contains("5 of 5 not queued") })
    }

    @Test func addTrackAndOpenUriKeepWhatFits() {
        var player = Player()
        player.send(.enqueue(Array(Self.full.dropLast(2)), play: false))
        player.send(.addTracks(tracks(5, from: PlayerState.queueCapacity), at: .atEnd, makeCurrent: false))
        #expect(player.entries.count == PlayerState.queueCapacity)
        player.send(.open(tracks(3, from: 2 * PlayerState.queueCapacity)))
        #expect(player.entries.count == PlayerState.queueCapacity)
    }

    @Test func aHugeSavedQueueKeepsItsFirstTracks() {
        let saved = tracks(PlayerState.queueCapacity + 10)
        let memento = PlayerMemento(tracks: saved, currentIndex: PlayerState.queueCapacity + 3, position: 5 * second,
                                    volume: 1, loopStatus: .none, shuffle: false, playOrder: Array(saved.indices.reversed()))
        var player = Player()
        player.send(.restore(memento), at: 1)
        #expect(player.entries.count == PlayerState.queueCapacity)
        #expect(player.state.queue.playOrder.count == PlayerState.queueCapacity)
        #expect(player.currentIndex != nil)
    }

    @Test func replacingTheQueueKeepsWhatFits() {
        var player = Player()
        player.send(.replaceQueue(tracks(PlayerState.queueCapacity + 1), play: false))
        #expect(player.entries.count == PlayerState.queueCapacity)
    }
}
