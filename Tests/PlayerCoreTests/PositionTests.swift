@testable import PlayerCore
import Testing

/// Position is extrapolated like MPRIS clients do: it advances while Playing, holds otherwise,
/// and never passes the track's length.
@Suite struct PositionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var steps: [(Event, Double)]
        /// (moment, expected position), both in seconds.
        var checks: [(Double, Double)]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "advances while playing",
             steps: [(.play, 0)],
             checks: [(0, 0), (1, 1), (30.5, 30.5), (99, 99)]),
        Case(name: "starts from the moment of Play",
             steps: [(.play, 7)],
             checks: [(7, 0), (10, 3)]),
        Case(name: "never past the length",
             steps: [(.play, 0)],
             checks: [(100, 100), (100.001, 100), (1_000, 100)]),
        Case(name: "holds while paused",
             steps: [(.play, 0), (.pause, 40)],
             checks: [(40, 40), (60, 40), (1_000, 40)]),
        Case(name: "resumes from where it was paused",
             steps: [(.play, 0), (.pause, 40), (.play, 100)],
             checks: [(100, 40), (110, 50)]),
        Case(name: "several pauses add up",
             steps: [(.play, 0), (.pause, 10), (.play, 20), (.pause, 25), (.playPause, 50)],
             checks: [(50, 15), (55, 20)]),
        Case(name: "zero while stopped",
             steps: [],
             checks: [(0, 0), (50, 0)]),
        Case(name: "zero after stop",
             steps: [(.play, 0), (.stop, 30)],
             checks: [(30, 0), (60, 0)]),
        Case(name: "pausing by rate 0 holds",
             steps: [(.play, 0), (.setRate(0), 12)],
             checks: [(12, 12), (40, 12)]),
        Case(name: "follows a seek",
             steps: [(.play, 0), (.seek(by: seconds(20)), 10)],
             checks: [(10, 30), (15, 35)]),
    ]

    @Test(arguments: cases)
    func extrapolation(_ c: Case) {
        var player = Player(tracks: 2)
        player.run(c.steps)
        for (moment, expected) in c.checks {
            #expect(player.position(at: moment) == seconds(expected), "at \(moment) s")
        }
    }

    @Test func aTrackOfUnknownLengthKeepsAdvancing() {
        var player = Player(tracks: 1, length: nil)
        player.send(.play, at: 0)
        #expect(player.position(at: 10_000) == seconds(10_000))
    }
}
