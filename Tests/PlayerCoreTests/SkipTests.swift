@testable import PlayerCore
import Testing

/// Next and Previous: do nothing at the ends with LoopStatus None, wrap with Playlist, keep the
/// playback status.
@Suite struct SkipTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var loop: LoopStatus
        var from: Int
        var forward: Bool
        /// The queue index that becomes current; nil when nothing happens.
        var to: Int?
        var testDescription: String {
            "\(forward ? "next" : "previous") from \(from), \(loop.rawValue) → \(to.map(String.init) ?? "nothing")"
        }
    }

    static let cases: [Case] = [
        Case(loop: .none, from: 0, forward: true, to: 1),
        Case(loop: .none, from: 1, forward: true, to: 2),
        Case(loop: .none, from: 2, forward: true, to: nil),
        Case(loop: .none, from: 2, forward: false, to: 1),
        Case(loop: .none, from: 0, forward: false, to: nil),
        Case(loop: .playlist, from: 2, forward: true, to: 0),
        Case(loop: .playlist, from: 0, forward: false, to: 2),
        Case(loop: .playlist, from: 1, forward: true, to: 2),
        Case(loop: .playlist, from: 1, forward: false, to: 0),
    ]

    /// A player with three tracks, the `index`-th current, in `start`.
    static func player(at index: Int, loop: LoopStatus, start: Start) -> Player {
        var player = Player(tracks: 3, loop: loop)
        for _ in 0..<index { player.send(.next) }   // while stopped: moves the selection
        switch start {
        case .stopped: break
        case .playing: player.send(.play)
        case .paused: player.send(.play); player.send(.pause)
        }
        #expect(player.currentIndex == index)
        return player
    }

    @Test(arguments: cases, Start.allCases)
    func skip(_ c: Case, start: Start) {
        var player = Self.player(at: c.from, loop: c.loop, start: start)
        if start != .stopped { player.send(.seek(by: seconds(30)), at: 5) }   // somewhere inside the track
        let before = player.snapshot
        #expect((c.forward ? before.canGoNext : before.canGoPrevious) == (c.to != nil))

        let status = player.status
        let effects = player.send(c.forward ? .next : .previous, at: 10)
        #expect(player.status == status, "skipping keeps the playback status")

        guard let to = c.to else {
            #expect(effects.isEmpty)
            #expect(player.currentIndex == c.from)
            return
        }
        #expect(player.currentIndex == to)
        switch status {
        case .stopped:
            #expect(effects.isEmpty, "stopped: only the selection moves")
            #expect(player.position == 0)
        case .playing, .paused:
            #expect(effects == [.output(.play(player.entry(to), from: 0, playing: status == .playing))])
            #expect(player.position == 0)
            #expect(player.position(at: 20) == (status == .playing ? seconds(10) : 0))
        }
    }

    @Test(arguments: LoopStatus.allCases)
    func canGoNextAndPreviousFollowTheQueue(_ loop: LoopStatus) {
        var player = Player(tracks: 3, loop: loop)
        let wraps = loop != .none
        var flags: [(Bool, Bool)] = []
        for _ in 0..<3 {
            flags.append((player.snapshot.canGoPrevious, player.snapshot.canGoNext))
            player.send(.next)
        }
        #expect(flags.map(\.0) == [wraps, true, true])
        #expect(flags.map(\.1) == [true, true, wraps])
    }

    @Test(arguments: LoopStatus.allCases)
    func aSingleTrackCanGoNowhereWithoutLooping(_ loop: LoopStatus) {
        let player = Player(tracks: 1, loop: loop)
        #expect(player.snapshot.canGoNext == (loop != .none))
        #expect(player.snapshot.canGoPrevious == (loop != .none))
    }
}
