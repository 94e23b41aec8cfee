import Dispatch
import Foundation
import Handoff
import Testing
import Persistence
@testable import TestSupport

/// The debounce rule in virtual time (`VirtualScheduler`): no test waits a real second.
@Suite struct DebouncedSaverTests {
    final class Counter: Sendable {
        let saves = LockedState<[Double]>([])
        var count: Int { saves.withLock { $0.count } }
        func record(at time: Double = 0) { saves.withLock { $0.append(time) } }
    }

    @Test func aBurstIsOneSave() {
        let counter = Counter(), clock = VirtualScheduler()
        let saver = DebouncedSaver(delay: 0.2, scheduler: clock) { counter.record(at: clock.now) }
        for _ in 0..<100 { saver.changed() }
        #expect(saver.hasPendingChanges)
        clock.advance(by: 0.199)
        #expect(counter.count == 0)
        clock.advance(by: 0.001)
        #expect(counter.count == 1)
        clock.advance(by: 10)
        #expect(counter.count == 1)
        #expect(!saver.hasPendingChanges)
    }

    /// A change every 20 ms for a second: a resetting debounce would never save; this one
    /// saves 0.2 s after the first change of each burst.
    @Test func aSteadyStreamStillSavesWithinTheDelay() {
        let counter = Counter(), clock = VirtualScheduler()
        let start = clock.now
        let saver = DebouncedSaver(delay: 0.2, scheduler: clock) { counter.record(at: clock.now) }
        for _ in 0..<50 {
            saver.changed()
            clock.advance(by: 0.02)
        }
        let saves = counter.saves.withLock { $0 }.map { $0 - start }
        #expect(saves.count == 5)
        #expect(abs((saves.first ?? 0) - 0.2) < 1e-9)
        for (earlier, later) in zip(saves, saves.dropFirst()) { #expect(later - earlier <= 0.2 + 0.02 + 1e-9) }
    }

    @Test func flushSavesWhatIsPendingAndOnlyThat() {
        let counter = Counter(), clock = VirtualScheduler()
        let saver = DebouncedSaver(delay: 0.3, scheduler: clock) { counter.record() }
        #expect(!saver.flush())
        #expect(counter.count == 0)
        saver.changed()
        saver.changed()
        #expect(saver.flush())
        #expect(counter.count == 1)
        #expect(!saver.flush())
        // The timer of the flushed burst finds nothing to do.
        clock.advance(by: 0.5)
        #expect(counter.count == 1)
        // A later change is saved on its own.
        saver.changed()
        clock.advance(by: 0.3)
        #expect(counter.count == 2)
    }

    /// At the end the final state is written by other means: the running timer must not save
    /// (it would take a snapshot of the stopped player and overwrite the final state).
    @Test func cancelLeavesTheRunningTimerNothingToDo() {
        let counter = Counter(), clock = VirtualScheduler()
        let saver = DebouncedSaver(delay: 0.1, scheduler: clock) { counter.record() }
        saver.changed()
        saver.cancel()
        #expect(!saver.hasPendingChanges)
        clock.advance(by: 1)
        #expect(counter.count == 0)
    }

    /// The wiring to real time: a queue's timer saves after the delay.
    @Test func onAQueueTheSaveComesAfterTheDelay() {
        let counter = Counter()
        let saver = DebouncedSaver(delay: 0.05, queue: DispatchQueue(label: "test.saver")) { counter.record() }
        saver.changed()
        #expect(eventually { counter.count == 1 })
    }

    /// Savers made and dropped on several threads at once reuse each other's memory. Under
    /// ThreadSanitizer this failed a CI run: the saving lock guarded `()`, whose access lies in
    /// the allocator's padding, where a reused slot kept the previous owner's access. The
    /// sanitized test run fails on any report, so this holds only with a value-less lock.
    @Test func saversOnManyThreadsAtOnceDoNotShareState() {
        let counter = Counter()
        let queue = DispatchQueue(label: "test.saver")
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<200 {
                let saver = DebouncedSaver(delay: 10, queue: queue) { counter.record() }
                saver.changed()
                saver.flush()
                saver.flush()
            }
        }
        #expect(counter.count == 8 * 200)
    }
}
