@testable import PlayerCore
import Testing

/// Play, Pause, PlayPause and Stop from each status.
@Suite struct TransportTests {
    enum Output: String, Sendable { case none, playFirst, pause, resume, stop }

    struct Case: Sendable, CustomTestStringConvertible {
        var start: Start
        var event: Event
        var output: Output
        var after: PlaybackStatus
        var testDescription: String { "\(start) + \(event) → \(output.rawValue), \(after.rawValue)" }
    }

    static let cases: [Case] = [
        Case(start: .stopped, event: .play, output: .playFirst, after: .playing),
        Case(start: .stopped, event: .playPause, output: .playFirst, after: .playing),
        Case(start: .stopped, event: .pause, output: .none, after: .stopped),
        Case(start: .stopped, event: .stop, output: .none, after: .stopped),
        Case(start: .playing, event: .play, output: .none, after: .playing),
        Case(start: .playing, event: .pause, output: .pause, after: .paused),
        Case(start: .playing, event: .playPause, output: .pause, after: .paused),
        Case(start: .playing, event: .stop, output: .stop, after: .stopped),
        Case(start: .paused, event: .play, output: .resume, after: .playing),
        Case(start: .paused, event: .playPause, output: .resume, after: .playing),
        Case(start: .paused, event: .pause, output: .none, after: .paused),
        Case(start: .paused, event: .stop, output: .stop, after: .stopped),
    ]

    @Test(arguments: cases)
    func transport(_ c: Case) {
        var player = Player(tracks: 3, start: c.start)
        let first = player.entry(0)
        let effects = player.send(c.event, at: 10)
        let expected: [Effect] = switch c.output {
        case .none: []
        case .playFirst: [.output(.play(first, from: 0, playing: true))]
        case .pause: [.output(.pause)]
        case .resume: [.output(.resume)]
        case .stop: [.output(.stop)]
        }
        #expect(effects == expected)
        #expect(player.status == c.after)
        #expect(player.snapshot.status == c.after)
        #expect(player.snapshot.current == first, "the transport commands never change the track")
    }

    @Test func playPauseTogglesBackAndForth() {
        var player = Player(tracks: 2)
        var statuses: [PlaybackStatus] = []
        for time in stride(from: 0.0, through: 40, by: 10) {
            player.send(.playPause, at: time)
            statuses.append(player.status)
        }
        #expect(statuses == [.playing, .paused, .playing, .paused, .playing])
    }

    @Test func stopResetsThePositionAndKeepsTheTrackSelected() {
        var player = Player(tracks: 3, start: .playing)
        player.send(.next, at: 5)
        player.send(.seek(by: seconds(30)), at: 10)   // 5 s into the second track, + 30 s
        #expect(player.position == seconds(35))
        #expect(player.send(.stop, at: 20) == [.output(.stop)])
        #expect(player.status == .stopped)
        #expect(player.position == 0)
        #expect(player.position(at: 500) == 0)
        #expect(player.snapshot.current == player.entry(1))
        // Play starts the selected track again from its start.
        #expect(player.send(.play, at: 30) == [.output(.play(player.entry(1), from: 0, playing: true))])
    }

    @Test(arguments: [Event.play, .playPause, .pause, .stop, .next, .previous, .seek(by: seconds(5))])
    func emptyQueueDoesNothing(_ event: Event) {
        var player = Player()
        #expect(player.send(event, at: 1).isEmpty)
        #expect(player.status == .stopped)
        let snapshot = player.snapshot
        #expect(snapshot.current == nil)
        #expect(!snapshot.canPlay && !snapshot.canPause && !snapshot.canSeek)
        #expect(!snapshot.canGoNext && !snapshot.canGoPrevious)
    }

    /// CanPlay / CanPause / CanSeek depend on having a track, not on the status.
    @Test(arguments: Start.allCases)
    func capabilitiesDoNotDependOnStatus(_ start: Start) {
        let player = Player(tracks: 1, start: start)
        #expect(player.snapshot.canPlay && player.snapshot.canPause && player.snapshot.canSeek)
    }

    @Test func quitStopsTheOutputAndQuits() {
        var player = Player(tracks: 1, start: .playing)
        #expect(player.send(.quit, at: 1) == [.output(.stop), .quit])
    }
}
