@testable import FFmpegClient
import Foundation
import Handoff
import Testing

/// The daemon's watchdog over its FFmpeg helpers, with the memory reading and the kill as seams:
/// what it kills, and that why it killed is known the moment the helper dies.
@Suite struct HelperWatchdogTests {
    /// Whoever reaps a killed helper asks at once why it died. The reason was stored after the
    /// kill, so a quick reaper read none and logged "crashed (SIGKILL)".
    @Test func theReasonIsKnownWhenTheKillLands() {
        struct Kill { var happened = false; var reasonThen: String? }
        let kill = LockedState(Kill())
        let box = LockedState<HelperWatchdog?>(nil)
        let watchdog = HelperWatchdog(limit: 100, residentBytes: { _ in 500 * 1024 * 1024 }, kill: { pid in
            let reason = box.withLock { $0 }?.reason(for: pid)
            kill.withLock { $0 = Kill(happened: true, reasonThen: reason) }
        })
        box.withLock { $0 = watchdog }
        watchdog.watch(4242)
        watchdog.check()
        let seen = kill.withLock { $0 }
        #expect(seen.happened, "the watchdog never killed")
        #expect(seen.reasonThen?.contains("grew to 500 MB") == true, "at the kill the reason was \(String(describing: seen.reasonThen))")
        #expect(watchdog.forget(4242)?.contains("grew to 500 MB") == true)
        box.withLock { $0 = nil }
    }

    @Test func aHelperUnderTheLimitIsLeftAlone() {
        let kills = LockedState(0)
        let watchdog = HelperWatchdog(limit: 1024, residentBytes: { _ in 512 }, kill: { _ in kills.withLock { $0 += 1 } })
        watchdog.watch(4243)
        watchdog.check()
        #expect(kills.withLock { $0 } == 0)
        #expect(watchdog.forget(4243) == nil)
    }
}
