#if canImport(Glibc)
import Glibc
#endif

/// The one thread every helper is spawned from, alive as long as the daemon.
///
/// Why: a helper asks to die with its parent (`PR_SET_PDEATHSIG`), and Linux takes "parent" to
/// mean the *thread* that made the child. Spawned from a Dispatch worker, a helper was killed
/// (SIGKILL) whenever the pool retired that thread — an HLS station's helper, seconds or minutes
/// into playing, then a reconnect. This thread never ends, so only the daemon's death kills them.
///
/// A pthread mutex and condition (not Dispatch semaphores) hand the work over: ThreadSanitizer
/// sees their order.
final class SpawnThread: @unchecked Sendable {
    static let shared = SpawnThread()

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by `mutex`: the job waiting to run, and how many jobs have run.
    private var job: (() -> Void)?
    private var finished: UInt64 = 0

    private init() {
        mutex.initialize(to: pthread_mutex_t())
        changed.initialize(to: pthread_cond_t())
        // Only fail for lack of resources at the first spawn: a programmer error at this size.
        precondition(pthread_mutex_init(mutex, nil) == 0 && pthread_cond_init(changed, nil) == 0)
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { _ in
            SpawnThread.shared.serve()
        }, nil)
        precondition(created == 0, "pthread_create failed: \(created)")
        pthread_detach(thread)
    }

    /// Runs `body` on the spawn thread and returns what it returned; one caller at a time.
    func run<T>(_ body: () -> T) -> T {
        withoutActuallyEscaping(body) { body in
            var result: T?
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            while job != nil { pthread_cond_wait(changed, mutex) }
            let ticket = finished + 1
            job = { result = body() }
            pthread_cond_broadcast(changed)
            while finished < ticket { pthread_cond_wait(changed, mutex) }
            return result!
        }
    }

    private func serve() -> Never {
        pthread_mutex_lock(mutex)
        while true {
            guard let work = job else {
                pthread_cond_wait(changed, mutex)
                continue
            }
            work()
            job = nil
            finished += 1
            pthread_cond_broadcast(changed)
        }
    }
}
