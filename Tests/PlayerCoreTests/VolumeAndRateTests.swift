@testable import PlayerCore
import Testing

/// Volume (clamped to 0…maximumVolume, NaN ignored) and Rate (only 0 means anything: Pause).
@Suite struct VolumeAndRateTests {
    struct VolumeCase: Sendable, CustomTestStringConvertible {
        var level: Double
        /// The volume afterwards; a command for the output is expected when it changed from 1.0.
        var result: Double
        var testDescription: String { "\(level) → \(result)" }
    }

    static let volumes: [VolumeCase] = [
        VolumeCase(level: 0.5, result: 0.5),
        VolumeCase(level: 0, result: 0),
        VolumeCase(level: -0.5, result: 0),
        VolumeCase(level: -.infinity, result: 1.0),    // not finite: ignored
        VolumeCase(level: 1.2, result: 1.2),
        VolumeCase(level: PlayerState.maximumVolume, result: PlayerState.maximumVolume),
        VolumeCase(level: 2, result: PlayerState.maximumVolume),
        VolumeCase(level: .infinity, result: 1.0),
        VolumeCase(level: .nan, result: 1.0),
        VolumeCase(level: 1.0, result: 1.0),           // the same volume: no command
    ]

    @Test(arguments: volumes)
    func setVolume(_ c: VolumeCase) {
        var player = Player(tracks: 1, start: .playing)
        #expect(player.snapshot.volume == 1.0)
        let effects = player.send(.setVolume(c.level), at: 1)
        #expect(effects == (c.result == 1.0 ? [] : [.output(.setVolume(c.result))]))
        #expect(player.snapshot.volume == c.result)
        #expect(player.status == .playing)
    }

    @Test func clampedToTheSameValueGivesNoCommand() {
        var player = Player()
        #expect(player.send(.setVolume(-1)) == [.output(.setVolume(0))])
        #expect(player.send(.setVolume(-2)).isEmpty)
        #expect(player.send(.setVolume(0)).isEmpty)
        #expect(player.send(.setVolume(9)) == [.output(.setVolume(PlayerState.maximumVolume))])
        #expect(player.send(.setVolume(10)).isEmpty)
    }

    @Test(arguments: [(0.3, 0.3), (0, 0), (1.5, 1.5), (-1, 0), (Double.nan, 1.0)])
    func outputVolumeChangedUpdatesTheSnapshotOnly(level: Double, result: Double) {
        var player = Player(tracks: 1, start: .playing)
        #expect(player.send(.outputVolumeChanged(level), at: 1).isEmpty, "no command back to the output")
        #expect(player.snapshot.volume == result)
        // Setting the volume the mixer already set is no change either.
        #expect(player.send(.setVolume(result), at: 2).isEmpty)
    }

    // MARK: Rate

    @Test(arguments: Start.allCases)
    func rateZeroActsLikePause(_ start: Start) {
        var player = Player(tracks: 1, start: start)
        let effects = player.send(.setRate(0), at: 10)
        switch start {
        case .playing:
            #expect(effects == [.output(.pause)])
            #expect(player.status == .paused)
            #expect(player.position(at: 50) == seconds(10))
        case .paused, .stopped:
            #expect(effects.isEmpty)
            #expect(player.status == start.status)
        }
    }

    @Test(arguments: [1.0, 0.5, 2.0, -1.0, .nan, .infinity, -0.0], Start.allCases)
    func otherRatesChangeNothing(rate: Double, start: Start) {
        var player = Player(tracks: 1, start: start)
        let before = player.state
        let effects = player.send(.setRate(rate), at: 10)
        if rate == 0 {   // -0.0 == 0: it is zero
            #expect(effects == (start == .playing ? [.output(.pause)] : []))
        } else {
            #expect(effects.isEmpty)
            #expect(player.state == before)
        }
    }
}

extension Start {
    var status: PlaybackStatus {
        switch self {
        case .stopped: .stopped
        case .playing: .playing
        case .paused: .paused
        }
    }
}
