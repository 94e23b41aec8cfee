import Testing
@testable import PlayerCore

/// Editing the queue from outside: MPRIS TrackList (AddTrack, RemoveTrack, GoTo), playlists
/// replacing the queue, and restoring a saved state.
@Suite struct TrackListTests {
    @Test func addAtTheStartAfterAnEntryAndAtTheEnd() {
        var player = Player(tracks: 2)
        let e = player.entries
        let atStart = player.send(.addTracks(tracks(1, from: 10), at: .atStart, makeCurrent: false))
        #expect(player.entries.first?.track.path == "/music/10.mp3")
        #expect(atStart.trackListChanges == [.added([player.entries[0].id], after: nil)])
        let after = player.send(.addTracks(tracks(2, from: 20), at: .after(e[0].id), makeCurrent: false))
        #expect(player.entries.map(\.track.path) == ["/music/10.mp3", "/music/0.mp3", "/music/20.mp3", "/music/21.mp3", "/music/1.mp3"])
        #expect(after.trackListChanges == [.added([player.entries[2].id, player.entries[3].id], after: e[0].id)])
        player.send(.addTracks(tracks(1, from: 30), at: .atEnd, makeCurrent: false))
        #expect(player.entries.last?.track.path == "/music/30.mp3")
        #expect(player.currentID == e[0].id, "adding never moves the current entry")
    }

    @Test(arguments: [Start.stopped, .playing, .paused])
    func addAsCurrentPlays(_ start: Start) {
        var player = Player(tracks: 2, start: start)
        let effects = player.send(.addTracks(tracks(1, from: 10), at: .atEnd, makeCurrent: true), at: 3)
        let added = player.entries[2]
        #expect(player.currentID == added.id)
        #expect(effects.actions == [.output(.play(added, from: 0, playing: start != .paused))])
    }

    @Test func removingAnotherEntryKeepsPlaying() {
        var player = Player(tracks: 3, start: .playing)
        let e = player.entries
        let effects = player.send(.removeTrack(e[2].id), at: 4)
        #expect(effects.trackListChanges == [.removed(e[2].id)])
        #expect(effects.actions.isEmpty)
        #expect(player.ids == [e[0].id, e[1].id])
    }

    @Test func removingTheCurrentEntryMovesToTheNext() {
        var player = Player(tracks: 3, start: .playing)
        let e = player.entries
        let effects = player.send(.removeTrack(e[0].id), at: 4)
        #expect(effects.actions == [.output(.play(e[1], from: 0, playing: true))])
        #expect(player.currentID == e[1].id)
    }

    @Test func removingTheLastRemainingEntryStops() {
        var player = Player(tracks: 1, start: .playing)
        player.send(.removeTrack(player.entries[0].id), at: 4)
        #expect(player.status == .stopped)
        #expect(player.snapshot.current == nil)
    }

    @Test func removingTheEntryTheOutputAlreadyHoldsReloadsTheCurrentTrack() {
        var player = Player(tracks: 3, start: .playing)
        let e = player.entries
        #expect(player.send(.outputNeedsNext(after: e[0].id), at: 98) == [.output(.enqueue(e[1]))])
        let effects = player.send(.removeTrack(e[1].id), at: 98.5)
        #expect(effects.actions == [.output(.play(e[0], from: seconds(98.5), playing: true))])
        #expect(player.send(.outputNeedsNext(after: e[0].id), at: 99) == [.output(.enqueue(e[2]))])
    }

    @Test func unknownIdsChangeNothing() {
        var player = Player(tracks: 2, start: .playing)
        let before = player.state
        #expect(player.send(.removeTrack(EntryID(99))).isEmpty)
        #expect(player.send(.goTo(EntryID(99))).isEmpty)
        #expect(player.state == before)
    }

    @Test(arguments: [Start.stopped, .playing, .paused])
    func goToKeepsPlayingOrPausedAndStartsWhenStopped(_ start: Start) {
        var player = Player(tracks: 3, start: start)
        let e = player.entries
        let effects = player.send(.goTo(e[2].id), at: 5)
        #expect(player.currentID == e[2].id)
        #expect(effects.actions == [.output(.play(e[2], from: 0, playing: start != .paused))])
    }

    @Test func replacingTheQueueGivesNewIdsAndPlays() {
        var player = Player(tracks: 3, start: .playing)
        let old = player.ids
        let effects = player.send(.replaceQueue(tracks(2, from: 50), play: true), at: 5)
        #expect(effects.trackListChanges == [.replaced])
        #expect(Set(player.ids).isDisjoint(with: old))
        #expect(player.status == .playing)
        #expect(player.snapshot.current?.track.path == "/music/50.mp3")
    }

    @Test func aMementoRoundTripsAndRestoresPausedAtThePosition() {
        var player = Player(tracks: 4, loop: .playlist, shuffle: true, start: .playing)
        player.send(.setVolume(0.6), at: 1)
        player.send(.goTo(player.entries[2].id), at: 2)
        let memento = player.state.memento(at: at(32))
        #expect(memento.currentIndex == 2)
        #expect(memento.position == seconds(30))

        var restored = Player()
        let effects = restored.send(.restore(memento), at: 100)
        #expect(restored.status == .paused)
        #expect(restored.snapshot.pauseReason == .none)
        #expect(restored.position == seconds(30))
        #expect(restored.snapshot.current?.track == player.entries[2].track)
        #expect(restored.snapshot.volume == 0.6)
        #expect(restored.snapshot.loopStatus == .playlist)
        #expect(restored.snapshot.shuffle)
        #expect(restored.state.queue.playOrder.map { id in restored.ids.firstIndex(of: id)! } == memento.playOrder)
        #expect(effects.contains(.seeked(seconds(30))))
        #expect(effects.contains(.output(.play(restored.entries[2], from: seconds(30), playing: false))))
        // Nothing plays until asked; then it resumes where it was.
        #expect(restored.send(.play, at: 101) == [.output(.resume)])
    }

    @Test func aMementoWithBadIndicesStillRestores() {
        let memento = PlayerMemento(tracks: tracks(2), currentIndex: 7, position: -5, volume: .nan,
                                    loopStatus: .none, shuffle: false, playOrder: [3, 3])
        var player = Player()
        player.send(.restore(memento), at: 1)
        #expect(player.currentIndex == 0)
        #expect(player.position == 0)
        #expect(player.state.queue.playOrder == player.ids)
    }
}
