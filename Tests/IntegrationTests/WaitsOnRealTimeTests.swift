import Foundation
@testable import TestSupport
import Testing

/// `.waitsOnRealTime` runs its tests side by side however many cores there are: 32 test cases
/// that each wait until all 32 have arrived. On the cooperative pool (one thread per core) only
/// as many as there are cores would arrive, and each would wait out its timeout.
@Suite(.waitsOnRealTime) struct WaitsOnRealTimeTests {
    static let cases = 32
    static let arrivals = Arrivals()

    @Test(arguments: 0..<cases)
    func testsThatWaitRunSideBySide(_ index: Int) {
        let arrived = Self.arrivals.arriveAndWait(for: Self.cases, timeout: 10)
        #expect(arrived, "case \(index): only \(Self.arrivals.count) of \(Self.cases) cases were running at once")
    }
}

/// A count that cases raise on arrival, and wait on until it reaches a number.
final class Arrivals: @unchecked Sendable {
    private let condition = NSCondition()
    private var arrived = 0

    var count: Int { condition.withLock { arrived } }

    func arriveAndWait(for expected: Int, timeout: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        condition.broadcast()
        while arrived < expected {
            if !condition.wait(until: deadline) { return arrived >= expected }
        }
        return true
    }
}
