import Foundation
import XCTest
import AudioOutput
import PlayerCore

/// The test support's EventLog is filled from libpulse's thread while a test waits on it from
/// its own. CI's ThreadSanitizer run failed on it (a "Swift access race" between `append` and
/// `waitForFacts`) when it was guarded by `Synchronization.Mutex`: on Linux that is a
/// priority-inheriting futex, and when the kernel hands a contended lock to its waiter no
/// user-space atomic marks it, so ThreadSanitizer sees no order between the two sides.
/// This contends for the log on purpose, as many times as a whole test run does in one place.
final class EventLogTests: XCTestCase {
    func testAppendsFromOtherThreadsWhileATestWaitsAreOrdered() {
        let log = EventLog()
        let writers = 4, eventsEach = 3_000
        let done = DispatchGroup()
        for writer in 0..<writers {
            DispatchQueue.global().async(group: done) {
                for event in 0..<eventsEach {
                    if event % 3 == 0 {
                        log.append(SoundServerEvent.changed(SoundServerFacts()))
                    } else {
                        log.append(.volumeChanged(Double(writer)))
                    }
                }
            }
        }
        // The reader side, as the tests use it: polling for facts and events while they arrive
        // (at least once: on a quick machine the writers may be done before the first look).
        var sawFacts = false
        repeat {
            sawFacts = log.waitForFacts(timeout: 0.001) { _ in true } != nil || sawFacts
            _ = log.wait(timeout: 0.001) { $0 == .serverConnected }
            _ = log.events.count
        } while done.wait(timeout: .now()) == .timedOut
        sawFacts = sawFacts || log.waitForFacts(timeout: 0.001) { _ in true } != nil
        XCTAssertTrue(sawFacts)
        // The facts are kept apart from the output's events (they come from the connection).
        XCTAssertEqual(log.events.count + log.facts.count, writers * eventsEach)
        XCTAssertEqual(log.facts.count, writers * ((eventsEach + 2) / 3))
    }
}
