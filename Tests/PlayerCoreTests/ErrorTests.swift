@testable import PlayerCore
import Testing

/// Files that cannot be opened and decoding that fails half-way.
@Suite struct ErrorTests {
    @Test(arguments: Start.allCases)
    func anUnplayableCurrentEntryIsDroppedAndPlaybackMovesOn(_ start: Start) {
        var player = Player(tracks: 3, start: start)
        let e = player.entries
        let effects = player.send(.trackUnplayable(e[0].id, reason: "no such file"), at: 1)
        #expect(player.ids == [e[1].id, e[2].id])
        #expect(player.currentID == e[1].id)
        #expect(player.status == start.status, "playing stays playing, paused stays paused")
        switch start {
        case .stopped: #expect(effects.actions.isEmpty)
        case .playing, .paused:
            #expect(effects.actions == [.output(.play(e[1], from: 0, playing: start == .playing))])
        }
        #expect(effects.logs.map(\.0) == [.warning])
        #expect(effects.logs.first?.1.contains("/music/0.mp3") == true)
        #expect(effects.logs.first?.1.contains("no such file") == true)
    }

    @Test(arguments: [(LoopStatus.none, false), (.playlist, true), (.track, true)])
    func anUnplayableLastEntry(loop: LoopStatus, wraps: Bool) {
        var player = Player(tracks: 3, loop: loop)
        player.send(.next); player.send(.next)
        player.send(.play, at: 0)
        let e = player.entries
        let effects = player.send(.trackUnplayable(e[2].id, reason: "bad header"), at: 1)
        if wraps {
            #expect(effects.actions == [.output(.play(e[0], from: 0, playing: true))])
            #expect(player.status == .playing)
        } else {
            #expect(effects.actions == [.output(.stop)])
            #expect(player.status == .stopped)
        }
        #expect(player.currentID == e[0].id)
        #expect(player.ids == [e[0].id, e[1].id])
    }

    @Test func anUnplayableUpcomingEntryReanswersTheOutput() {
        var player = Player(tracks: 3, start: .playing)
        let e = player.entries
        #expect(player.send(.outputNeedsNext(after: e[0].id), at: 98) == [.output(.enqueue(e[1]))])
        let effects = player.send(.trackUnplayable(e[1].id, reason: "gone"), at: 98.5)
        #expect(effects.actions == [.output(.enqueue(e[2]))])
        #expect(player.currentID == e[0].id, "the current track plays on")
        #expect(player.status == .playing)
        #expect(player.send(.outputStarted(e[2].id), at: 100).isEmpty)
        #expect(player.currentID == e[2].id)
    }

    @Test func anUnplayableUpcomingLastEntryEndsTheQueue() {
        var player = Player(tracks: 2, start: .playing)
        let e = player.entries
        player.send(.outputNeedsNext(after: e[0].id), at: 98)
        #expect(player.send(.trackUnplayable(e[1].id, reason: "gone"), at: 98.5).actions == [.output(.endOfQueue)])
        #expect(player.send(.outputFinished(e[0].id), at: 100).actions == [.output(.stop)])
        #expect(player.status == .stopped)
        #expect(player.ids == [e[0].id])
    }

    /// LoopStatus Track: the output was handed the current entry again, and now its file cannot
    /// be opened (deleted while playing). It is both current and upcoming.
    @Test func anUnplayableRepeatOfTheCurrentEntry() {
        var player = Player(tracks: 3, loop: .track, start: .playing)
        let e = player.entries
        #expect(player.send(.outputNeedsNext(after: e[0].id), at: 98) == [.output(.enqueue(e[0]))])
        let effects = player.send(.trackUnplayable(e[0].id, reason: "deleted"), at: 99)
        #expect(player.ids == [e[1].id, e[2].id])
        #expect(player.snapshot.current != nil, "Playing always has a current track")
        let handsOverNext = effects.actions.contains { effect in
            effect == .output(.enqueue(e[1])) || effect == .output(.play(e[1], from: 0, playing: true))
        }
        #expect(handsOverNext)
    
    }

    @Test func anUnplayableEntryElsewhereIsOnlyDropped() {
        var player = Player(tracks: 4, start: .playing)
        let e = player.entries
        #expect(player.send(.trackUnplayable(e[2].id, reason: "gone"), at: 5).actions.isEmpty)
        #expect(player.ids == [e[0].id, e[1].id, e[3].id])
        #expect(player.position == seconds(5))
        #expect(player.playOut() == [e[0].id, e[1].id, e[3].id])
    }

    @Test func anUnknownEntryIsIgnored() {
        var player = Player(tracks: 2, start: .playing)
        let before = player.state
        #expect(player.send(.trackUnplayable(EntryID(77), reason: "?"), at: 1).isEmpty)
        #expect(player.state == before)
    }

    /// The output tries to open each file it is given and every one fails.
    @Test(arguments: LoopStatus.allCases, [false, true])
    func whenEveryTrackIsUnplayableThePlayerStops(loop: LoopStatus, shuffle: Bool) {
        var player = Player(tracks: 5, loop: loop, shuffle: shuffle)
        var pending = player.send(.play, at: 0)
        var rounds = 0
        while rounds < 50 {
            let handed = pending.compactMap { effect -> QueueEntry? in
                switch effect {
                case .output(.play(let entry, _, _)), .output(.enqueue(let entry)): entry
                default: nil
                }
            }
            guard let entry = handed.first else { break }
            pending = player.send(.trackUnplayable(entry.id, reason: "unreadable"), at: Double(rounds) + 1)
            rounds += 1
        }
        #expect(rounds == 5, "each file is tried once")
        #expect(player.status == .stopped)
        #expect(player.state.queue.isEmpty)
        #expect(player.state.queue.playOrder.isEmpty)
        #expect(player.snapshot.current == nil)
        #expect(player.position == 0)
        #expect(!player.snapshot.canPlay && !player.snapshot.canGoNext && !player.snapshot.canGoPrevious)
        #expect(player.send(.play, at: 100).isEmpty)
        #expect(player.send(.next, at: 101).isEmpty)
    }

    /// Same, but the files fail as gapless follow-ups after a playable first track.
    @Test func whenEveryFollowingTrackIsUnplayable() {
        var player = Player(tracks: 4, start: .playing)
        let e = player.entries
        var answer = player.send(.outputNeedsNext(after: e[0].id), at: 98).actions
        var dropped = 0
        while let next = answer.enqueued, dropped < 10 {
            answer = player.send(.trackUnplayable(next.id, reason: "unreadable"), at: 99).actions
            dropped += 1
        }
        #expect(dropped == 3)
        #expect(answer == [.output(.endOfQueue)])
        #expect(player.send(.outputFinished(e[0].id), at: 100).actions == [.output(.stop)])
        #expect(player.ids == [e[0].id])
        #expect(player.status == .stopped)
    }

    @Test func outputFailedLogsAWarningNamingTheFile() {
        var player = Player(tracks: 2, start: .playing)
        let before = player.state
        let effects = player.send(.outputFailed(player.ids[1], reason: "frame sync lost"), at: 3)
        #expect(effects.count == 1)
        #expect(effects.logs.map(\.0) == [.warning])
        #expect(effects.logs.first?.1.contains("/music/1.mp3") == true)
        #expect(effects.logs.first?.1.contains("frame sync lost") == true)
        #expect(player.state == before, "the output goes on as if the track had ended")
    }

    @Test func outputFailedForAnUnknownEntryStillLogs() {
        var player = Player()
        let effects = player.send(.outputFailed(EntryID(12), reason: "boom"))
        #expect(effects.logs.map(\.0) == [.warning])
        #expect(effects.logs.first?.1.contains("boom") == true)
    }
}
