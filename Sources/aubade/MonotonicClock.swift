import Glibc
import PlayerCore

/// Reads the monotonic clock for PlayerCore, which never reads a clock itself.
enum MonotonicClock {
    static func now() -> Instant {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Instant(microseconds: Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000)
    }

    /// Seconds on the same clock (rate limits).
    static func seconds() -> Double { Double(now().microseconds) / 1_000_000 }
}
