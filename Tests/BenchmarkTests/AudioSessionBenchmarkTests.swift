import Foundation
import XCTest

/// The audio-session benchmark of issue 3 (`make bench`): skipped unless `AUBADE_BENCH=1`.
final class AudioSessionBenchmarkTests: XCTestCase {
    func testAudioSession() throws {
        guard ProcessInfo.processInfo.environment["AUBADE_BENCH"] == "1" else {
            throw XCTSkip("a benchmark: run it with `make bench` (AUBADE_BENCH=1)")
        }
    }
}
