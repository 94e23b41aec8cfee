import Dispatch
import Handoff
@testable import aubade
import PlayerCore
import XCTest
@testable import TestSupport

/// The guard's timers in virtual time (`VirtualScheduler`): the 2 s check of a Pause the guard
/// sent, and the 1 s a sleep waits for the players' answers, without waiting either out.
/// (Their rules are SessionGuard's and SleepRounds', tested in PlayerCoreTests; the integration
/// suites test the wiring to real players and a real sound server.)
final class GuardTimersTests: XCTestCase {
    private let queue = DispatchQueue(label: "test.guard")
    private let clock = VirtualScheduler()
    private var decisions: [PlayerCore.GuardDecision] = []

    private let mpv = OtherPlayer(name: "org.mpris.MediaPlayer2.mpv", status: .playing, trackID: "/mpv/1", processID: 100)

    private func facts(phones: Int) -> SoundServerFacts {
        SoundServerFacts(sinks: [SinkFacts(name: "speakers", description: "Speakers", portType: .builtInSpeaker)],
                         defaultSinkName: "speakers", ourSinkName: nil, phoneStreamCount: phones,
                         otherStreams: [PlaybackStreamFacts(index: 1, sinkName: "speakers", processID: 100, ancestors: [],
                                                            processBinary: "mpv", role: nil)])
    }

    /// Runs on the guard's queue, as its timers do.
    private func onQueue(_ work: () -> Void) { queue.sync(execute: work) }

    private func driver() -> GuardDriver {
        let driver = GuardDriver(queue: queue, timers: clock) { [unowned self] in decisions.append($0) }
        onQueue {
            driver.handle(GuardEvent.playerChanged(mpv))
            driver.handle(GuardEvent.soundServerChanged(facts(phones: 0)))
        }
        return driver
    }

    func testAPauseThePlayerIgnoredIsReportedTwoSecondsLaterNotBefore() {
        let driver = driver()
        onQueue { driver.handle(GuardEvent.soundServerChanged(facts(phones: 1))) }
        XCTAssertEqual(decisions.map(\.reason), [PlayerCore.GuardDecision.Reason.callBegan], "the call pauses mpv")
        onQueue { clock.advance(by: 1.999) }
        XCTAssertEqual(decisions.count, 1, "no report before the check is due")
        onQueue { clock.advance(by: 0.001) }
        XCTAssertEqual(decisions.last?.reason, PlayerCore.GuardDecision.Reason.ignoredPause, "mpv still plays when the check is due")
    }

    func testAPauseThatWorkedIsNotReported() {
        let driver = driver()
        onQueue { driver.handle(GuardEvent.soundServerChanged(facts(phones: 1))) }
        var paused = mpv
        paused.status = .paused
        onQueue {
            driver.handle(GuardEvent.playerChanged(paused))
            clock.advance(by: 10)
        }
        XCTAssertFalse(decisions.contains { $0.reason == PlayerCore.GuardDecision.Reason.ignoredPause }, "\(decisions)")
    }

    /// A player that never answers the sleep's Pause: the machine is let sleep a second later.
    func testASleepWaitsOneSecondForAPlayerThatDoesNotAnswer() {
        let driver = driver()
        var ready = false
        onQueue { driver.prepareForSleep { ready = true } }
        XCTAssertFalse(ready)
        onQueue { clock.advance(by: 0.999) }
        XCTAssertFalse(ready, "before the second is over")
        onQueue { clock.advance(by: 0.001) }
        XCTAssertTrue(ready, "a second at most")
    }
}
