import Foundation
@testable import TestSupport

/// The `headphones` null sink of scripts/audio-session, which the unplug benchmarks unload and
/// put back (`AudioSessionBenchmarkTests`, `GuardRound`).
enum HeadphonesSink {
    /// The module that made it.
    static func module() throws -> Int {
        for line in try pactl(["list", "short", "modules"]).split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 3, fields[1] == "module-null-sink", fields[2].contains("sink_name=headphones"),
                  let index = Int(fields[0]) else { continue }
            return index
        }
        throw DaemonError("no module-null-sink with sink_name=headphones")
    }

    /// The sink as the harness made it, and the default sink; `timeline` learns its new index.
    static func ensure(refreshing timeline: PulseTimeline) throws {
        let sinks = try pactl(["list", "short", "sinks"])
        if !sinks.split(separator: "\n").contains(where: { $0.split(separator: "\t").dropFirst().first == "headphones" }) {
            try pactl(["load-module", "module-null-sink", "sink_name=headphones",
                       "sink_properties=\"device.form_factor=headphone device.description=Headphones\""])
        }
        let deadline = Date(timeIntervalSinceNow: 10)
        while (try? pactl(["get-default-sink"])) != "headphones" {
            guard Date() < deadline else { throw DaemonError("the default sink is not headphones") }
            try pactl(["set-default-sink", "headphones"])
            Thread.sleep(forTimeInterval: 0.1)
        }
        timeline.refreshSinkNames()
    }

    @discardableResult
    static func pactl(_ arguments: [String]) throws -> String {
        let result = try Shell.run("pactl", arguments)
        guard result.succeeded else { throw BusError("pactl \(arguments.joined(separator: " ")) failed: \(result)") }
        return result.trimmedOutput
    }
}
