import Foundation
import XCTest

/// A benchmark, not a check: how long from a PlayPause call until PropertiesChanged(PlaybackStatus)
/// reaches a client. Printed for the README's comparison (mpd + mpDris2 3–4 ms, mpv-mpris ≈ 49 ms);
/// no assertion on the figure.
final class LatencyBenchmarkTests: AubadeTestCase {
    func testPlayPauseToPropertiesChangedLatency() throws {
        try startPlaying([fixtures.long])
        let client = try LibDBusClient()
        try client.addMatch("type='signal',sender='\(Daemon.busName)',path='\(Bus.objectPath)',"
            + "interface='\(Bus.propertiesInterface)',member='PropertiesChanged'")
        var latencies: [Double] = []
        var missed = 0
        for _ in 0..<50 {
            let sent = DispatchTime.now()
            try client.send(destination: Daemon.busName, path: Bus.objectPath,
                            interface: Bus.playerInterface, member: "PlayPause")
            let deadline = Date(timeIntervalSinceNow: 2)
            var arrived: DispatchTime?
            while arrived == nil, Date() < deadline {
                guard let message = client.nextMessage(timeout: deadline.timeIntervalSinceNow) else { break }
                if message.changedInterface == Bus.playerInterface, message.changed["PlaybackStatus"] != nil {
                    arrived = message.receivedAt
                }
            }
            if let arrived {
                latencies.append(Double(arrived.uptimeNanoseconds - sent.uptimeNanoseconds) / 1e6)
            } else {
                missed += 1
            }
        }
        XCTAssertFalse(latencies.isEmpty, "no PropertiesChanged(PlaybackStatus) after any of 50 PlayPause calls")
        guard !latencies.isEmpty else { return }
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        print(String(format: "BENCHMARK PlayPause → PropertiesChanged(PlaybackStatus): median %.2f ms, p90 %.2f ms, "
                     + "min %.2f ms, max %.2f ms over %d toggles (%d without a signal)",
                     percentile(0.5), percentile(0.9), sorted.first!, sorted.last!, sorted.count, missed))
    }
}
