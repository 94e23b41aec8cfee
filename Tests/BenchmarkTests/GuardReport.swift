import Foundation
@testable import TestSupport

/// `.build/bench/guard.json` and `.md` (GuardBenchmarkTests): one section per sound server, so
/// the PulseAudio and PipeWire runs of `make bench BENCH=guard` (two test processes) end up in
/// one file each.
enum GuardReport {
    static func write(server: String, section: [String: Any]) throws {
        let root = try BenchmarkFiles.replaceSection(of: server, with: section, in: "guard",
                                                     benchmark: "aubade guard: other players paused on unplug (issue 13)")
        let directory = BenchmarkFiles.directory
        try markdown(root).write(to: directory.appendingPathComponent("guard.md"), atomically: true, encoding: .utf8)
    }

    static func markdown(_ root: [String: Any]) -> String {
        var out = "# Aubade guard benchmark: mpv + mpv-mpris when the headphones go\n\n"
        out += "Machine: \(root["machine"] as? String ?? "?")\n\n"
        let servers = root["servers"] as? [String: Any] ?? [:]
        for server in ["pulseaudio", "pipewire"] + servers.keys.sorted().filter({ $0 != "pulseaudio" && $0 != "pipewire" }) {
            guard let section = servers[server] as? [String: Any] else { continue }
            let versions = section["versions"] as? [String: String] ?? [:]
            out += "## \(section["serverName"] as? String ?? server)\n\n"
            out += "\(section["date"] as? String ?? "?"), \(section["runs"] as? Int ?? 0) rounds, each once with "
                + "`aubade guard` running and once without Aubade. mpv (\(versions["mpv"] ?? "?")) plays a 60 s 440 Hz "
                + "MP3 to the default sink `headphones` for \(format(section["settleMs"] as? Double ?? 0)) ms, then "
                + "`pactl unload-module` removes that null sink and the server moves the stream to `speakers`; every "
                + "time runs from the moment that command was issued. "
                + "Aubade: \(section["aubade"] as? String ?? "?") (\(versions["aubade"] ?? "?")).\n\n"
            out += "| figure | median | min | max | p90 | rounds |\n|---|---|---|---|---|---|\n"
            let figures = section["figures"] as? [[String: Any]] ?? []
            for figure in figures {
                func cell(_ key: String) -> String { (figure[key] as? Double).map { "\(format($0)) ms" } ?? "–" }
                let failures = (figure["failures"] as? [String])?.count ?? 0
                out += "| \(figure["name"] as? String ?? "?") | \(cell("median")) | \(cell("min")) | \(cell("max")) "
                    + "| \(cell("p90")) | \(figure["runs"] as? Int ?? 0)\(failures > 0 ? " (\(failures) without a figure)" : "") |\n"
            }
            out += "\n"
            for figure in figures {
                out += "- *\(figure["name"] as? String ?? "?")*: \(figure["how"] as? String ?? "")\n"
                for failure in figure["failures"] as? [String] ?? [] { out += "  - \(failure)\n" }
            }
            for note in section["strictnessNotes"] as? [String] ?? [] { out += "- not a single strict Pause: \(note)\n" }
            for note in section["retries"] as? [String] ?? [] { out += "- started once more: \(note)\n" }
            out += "\n"
        }
        return out
    }
}
