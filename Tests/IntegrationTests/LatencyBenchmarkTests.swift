import DBusKit
import Foundation
import XCTest
@testable import TestSupport

/// How long from a PlayPause call until PropertiesChanged(PlaybackStatus) reaches a client, for
/// Aubade only (the peers are measured by `make bench`, PeerBenchmarkTests). Prints one BENCHMARK
/// line with the figures; asserts no figure (the machine may be busy, or run under a sanitizer),
/// but fails unless every one of the 50 toggles brought its signal, with the status it should
/// carry (Paused, Playing, Paused, …): a lost signal is a bug, not a slow sample.
final class LatencyBenchmarkTests: AubadeTestCase {
    private static let toggles = 50

    func testPlayPauseToPropertiesChangedLatency() throws {
        try startPlaying([fixtures.long])
        let client = try BusClient(label: "aubade.tests.latency")
        try client.watchSignals(matching: "type='signal',sender='\(Daemon.busName)',path='\(Bus.objectPath)',"
            + "interface='\(Bus.propertiesInterface)',member='PropertiesChanged'")
        var latencies: [Double] = []
        var missed: [String] = []
        for toggle in 1...Self.toggles {
            // Started Playing: odd toggles pause, even ones resume.
            let expected = toggle % 2 == 1 ? "Paused" : "Playing"
            let mark = client.signalMark
            var seen: [String] = []
            let sent = DispatchTime.now()
            try client.send(path: Bus.objectPath, interface: Bus.playerInterface, member: "PlayPause")
            // Woken by each signal as it arrives; its arrival time is taken then.
            let arrived = client.waitForReceived(after: mark, timeout: 2) { message in
                guard let arguments = try? message.arguments(), arguments.first?.asString == Bus.playerInterface,
                      let status = arguments.dropFirst().first?.asVardict?["PlaybackStatus"] else { return false }
                let value = status.unwrapped.asString ?? "(not a string)"
                seen.append(value)
                return value == expected
            }
            if let arrived {
                latencies.append(Double(arrived.at.uptimeNanoseconds - sent.uptimeNanoseconds) / 1e6)
            } else {
                missed.append("toggle \(toggle) (expected \(expected), PlaybackStatus changes seen: \(seen))")
            }
        }
        XCTAssertTrue(missed.isEmpty, "\(missed.count) of \(Self.toggles) PlayPause calls brought no "
                      + "PropertiesChanged(PlaybackStatus) with the new status within 2 s: "
                      + missed.joined(separator: "; "))
        guard !latencies.isEmpty else { return }
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        print(String(format: "BENCHMARK Aubade PlayPause → PropertiesChanged(PlaybackStatus) at a client: "
                     + "median %.2f ms, p90 %.2f ms, min %.2f ms, max %.2f ms over %d toggles (%d without a signal)",
                     percentile(0.5), percentile(0.9), sorted.first!, sorted.last!, sorted.count, missed.count))
    }
}
