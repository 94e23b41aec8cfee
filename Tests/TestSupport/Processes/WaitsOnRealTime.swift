import Dispatch
import Testing

/// A Swift Testing trait for tests that wait on real time: a live station, a helper process, a
/// server's answer. Such a test runs on a thread of its own instead of one of Swift's cooperative
/// pool, which has one thread per core: two on CI, where two synchronous tests waiting on
/// stations held both, and the other 500 unit tests waited their turn behind them (every unit
/// test "took" 143 s; the run took 151 s of which the CPU was busy a third).
///
/// With it, such tests wait side by side; the rest of the run goes on on the pool. Put it on the
/// suite (`@Suite(.waitsOnRealTime)`): it applies to each of the suite's tests and test cases.
/// Tests that compute (a fuzz run, a parser) leave it out: they would only contend for the cores.
struct WaitsOnRealTime: TestTrait, SuiteTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        // The suite's own scope holds no test body: only test cases need the thread.
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(OwnThreadExecutor()) { try await function() }
    }
}

extension Trait where Self == WaitsOnRealTime {
    /// See `WaitsOnRealTime`.
    static var waitsOnRealTime: Self { Self() }
}

/// A task executor whose jobs run on a serial dispatch queue of its own: an overcommitting
/// queue, which gets a thread even when every other thread is blocked, unlike the cooperative
/// pool. The task keeps its task-local values (the running test, for `#expect`), which a bare
/// `Thread` would lose.
final class OwnThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "aubade.tests.waits-on-real-time")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
