import Foundation
@testable import TestSupport

/// One measured figure over the runs: its samples in milliseconds and, if it has one, its target.
struct Figure {
    var key: String
    var name: String
    var samples: [Double]
    /// Met when the median is at most this (ms).
    var targetMedianAtMost: Double?
    /// How the figure was measured, for the table.
    var how: String
    /// Runs that produced no sample, with why.
    var failures: [String] = []

    private var sorted: [Double] { samples.sorted() }
    func percentile(_ p: Double) -> Double? {
        let values = sorted
        guard !values.isEmpty else { return nil }
        // Nearest rank.
        let rank = Int((p * Double(values.count)).rounded(.up)) - 1
        return values[min(max(rank, 0), values.count - 1)]
    }
    var median: Double? {
        let values = sorted
        guard !values.isEmpty else { return nil }
        let middle = values.count / 2
        return values.count % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2
    }
    var met: Bool? {
        guard let target = targetMedianAtMost else { return nil }
        guard let median else { return false }
        return median <= target
    }
    var targetText: String {
        guard let target = targetMedianAtMost else { return "no target" }
        return "target median ≤ \(format(target)) ms: \(met == true ? "met" : "NOT met")"
    }

    /// `BENCHMARK <name>: median X ms, p90 Y ms, min …, max … over N runs (target …: met/NOT met)`
    func line(server: String) -> String {
        let failed = failures.isEmpty ? "" : ", \(failures.count) runs without a figure"
        guard let median, let p90 = percentile(0.9), let low = sorted.first, let high = sorted.last else {
            return "BENCHMARK [\(server)] \(name): no figure in any run\(failed) (\(targetText))"
        }
        return "BENCHMARK [\(server)] \(name): median \(format(median)) ms, p90 \(format(p90)) ms, "
            + "min \(format(low)) ms, max \(format(high)) ms over \(samples.count) runs\(failed) (\(targetText))"
    }

    var json: [String: Any] {
        var object: [String: Any] = ["key": key, "name": name, "unit": "ms", "how": how,
                                     "runs": samples.count, "samples": samples.map(round3)]
        if let median { object["median"] = round3(median) }
        if let p90 = percentile(0.9) { object["p90"] = round3(p90) }
        if let low = sorted.first { object["min"] = round3(low) }
        if let high = sorted.last { object["max"] = round3(high) }
        if let target = targetMedianAtMost { object["targetMedianAtMost"] = target }
        if let met { object["met"] = met }
        if !failures.isEmpty { object["failures"] = failures }
        return object
    }
}

func round3(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

func format(_ value: Double) -> String {
    abs(value) >= 100 ? String(format: "%.0f", value) : String(format: "%.1f", value)
}

/// `.build/bench/audio-session.json` and `.md`: one section per sound server, so the PulseAudio
/// and PipeWire runs of `make bench` (two test processes) end up in one file each.
enum BenchmarkFiles {
    static var directory: URL {
        if let configured = ProcessInfo.processInfo.environment["AUBADE_BENCH_DIR"], !configured.isEmpty {
            return URL(fileURLWithPath: configured, isDirectory: true)
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent(".build/bench", isDirectory: true)
    }

    /// Replaces this server's section of the JSON file and rewrites the Markdown from it.
    static func write(server: String, section: [String: Any]) throws {
        let root = try replaceSection(of: server, with: section, in: "audio-session", benchmark: "audio session (issue 3)")
        try markdown(root).write(to: directory.appendingPathComponent("audio-session.md"),
                                 atomically: true, encoding: .utf8)
    }

    /// Replaces `server`'s section of `.build/bench/<name>.json` (each sound server's run is a
    /// test process of its own) and returns the whole file's object, for its Markdown.
    static func replaceSection(of server: String, with section: [String: Any], in name: String,
                               benchmark: String) throws -> [String: Any] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let jsonURL = directory.appendingPathComponent("\(name).json")
        var root: [String: Any] = [:]
        if let data = try? Data(contentsOf: jsonURL),
           let existing = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            root = existing
        }
        var servers = root["servers"] as? [String: Any] ?? [:]
        servers[server] = section
        root["servers"] = servers
        root["benchmark"] = benchmark
        root["machine"] = machine()
        let data = try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: jsonURL)
        return root
    }

    static func machine() -> String {
        var name = utsname()
        uname(&name)
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let cpus = ProcessInfo.processInfo.activeProcessorCount
        var model = ""
        if let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
           let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
           let colon = line.firstIndex(of: ":") {
            model = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces) + ", "
        }
        return "\(text(name.sysname)) \(text(name.release)) \(text(name.machine)), \(model)\(cpus) CPUs"
    }

    static func markdown(_ root: [String: Any]) -> String {
        var out = "# Aubade audio-session benchmark\n\n"
        out += "Machine: \(root["machine"] as? String ?? "?")\n\n"
        let servers = root["servers"] as? [String: Any] ?? [:]
        for server in ["pulseaudio", "pipewire"] + servers.keys.sorted().filter({ $0 != "pulseaudio" && $0 != "pipewire" }) {
            guard let section = servers[server] as? [String: Any] else { continue }
            out += "## \(section["serverName"] as? String ?? server)\n\n"
            out += "\(section["date"] as? String ?? "?"), \(section["runs"] as? Int ?? 0) runs per figure, "
                + "fresh daemon per run, 60 s 440 Hz MP3 at 192 kb/s.\n\n"
            out += "| figure | median | p90 | min | max | runs | target | |\n|---|---|---|---|---|---|---|---|\n"
            for figure in section["figures"] as? [[String: Any]] ?? [] {
                func cell(_ key: String) -> String { (figure[key] as? Double).map { "\(format($0)) ms" } ?? "–" }
                let target = (figure["targetMedianAtMost"] as? Double).map { "≤ \(format($0)) ms" } ?? ""
                let met = (figure["met"] as? Bool).map { $0 ? "met" : "**NOT met**" } ?? ""
                out += "| \(figure["name"] as? String ?? "?") | \(cell("median")) | \(cell("p90")) | \(cell("min")) "
                    + "| \(cell("max")) | \(figure["runs"] as? Int ?? 0) | \(target) | \(met) |\n"
            }
            out += "\n"
            let peers = section["peers"] as? [[String: Any]] ?? []
            if !peers.isEmpty {
                out += "Same situations, other players:\n\n| player | situation | result |\n|---|---|---|\n"
                for peer in peers {
                    out += "| \(peer["player"] as? String ?? "?") | \(peer["situation"] as? String ?? "?") "
                        + "| \(peer["result"] as? String ?? "?") |\n"
                }
                out += "\n"
            }
            for figure in section["figures"] as? [[String: Any]] ?? [] {
                out += "- *\(figure["name"] as? String ?? "?")*: \(figure["how"] as? String ?? "")\n"
            }
            out += "\n"
        }
        return out
    }
}

/// Sound in a recording of a sink's monitor (s16le stereo 44.1 kHz), in 5 ms windows.
struct Loudness {
    static let framesPerWindow = 220  // 5 ms at 44.1 kHz
    static let windowMilliseconds = 5.0
    /// Our tones are at half amplitude (RMS ≈ 11 600); a null sink's silence is 0.
    static let threshold = 500.0

    /// Per window: true when its RMS is above the threshold.
    static func windows(_ recording: Data) -> [Bool] {
        var result: [Bool] = []
        recording.withUnsafeBytes { buffer in
            let samples = buffer.count / 2
            let perWindow = framesPerWindow * 2
            var start = 0
            while start + perWindow <= samples {
                var sum = 0.0
                for i in start..<(start + perWindow) {
                    let value = Double(Int16(littleEndian: buffer.loadUnaligned(fromByteOffset: i * 2, as: Int16.self)))
                    sum += value * value
                }
                result.append((sum / Double(perWindow)).squareRoot() > threshold)
                start += perWindow
            }
        }
        return result
    }

    /// From the first loud window to the last (ms), and how many windows were loud (ms).
    static func span(_ loud: [Bool]) -> (span: Double, loud: Double, first: Int?) {
        guard let first = loud.firstIndex(of: true), let last = loud.lastIndex(of: true) else { return (0, 0, nil) }
        return (Double(last - first + 1) * windowMilliseconds,
                Double(loud.filter { $0 }.count) * windowMilliseconds, first)
    }
}
