import Foundation
@testable import TestSupport

/// The players of the peer benchmark, in table order.
enum Peer: String, CaseIterable {
    case aubade, mpg123, mpv, mpd

    var title: String {
        switch self {
        case .aubade: "Aubade"
        case .mpg123: "mpg123 -o pulse"
        case .mpv: "mpv + mpv-mpris"
        case .mpd: "mpd + mpDris2"
        }
    }

    /// Its MPRIS name; nil for mpg123 (no D-Bus at all).
    var busName: String? {
        switch self {
        case .aubade: "org.mpris.MediaPlayer2.aubade"
        case .mpg123: nil
        case .mpv: "org.mpris.MediaPlayer2.mpv"
        case .mpd: "org.mpris.MediaPlayer2.mpd"
        }
    }
}

/// One row of the peer table: every player's samples of one figure, and Aubade's target.
struct PeerFigure {
    enum Target {
        case none
        case atMost(Double)
        case atLeast(Double)
        /// Aubade's median at most `factor` × that peer's median.
        case atMostTimes(Double, Peer)
        /// Aubade's median at least `factor` × that peer's median.
        case atLeastTimes(Double, Peer)
        /// Aubade's median at most this far from zero, either side (a signed offset).
        case within(Double)
    }

    var key: String
    var name: String
    var unit: String
    var decimals: Int
    var target: Target
    var how: String
    /// Whether Aubade's ratio to each peer is shown (not for signed offsets or counts).
    var showsRatio = true
    var samples: [Peer: [Double]] = [:]
    /// Why a player has no figure (no MPRIS, not installed…).
    var notApplicable: [Peer: String] = [:]
    var failures: [Peer: [String]] = [:]

    init(key: String, name: String, unit: String, decimals: Int, target: Target, how: String) {
        self.key = key
        self.name = name
        self.unit = unit
        self.decimals = decimals
        self.target = target
        self.how = how
    }

    mutating func add(_ peer: Peer, _ value: Double) { samples[peer, default: []].append(value) }
    mutating func fail(_ peer: Peer, _ why: String) { failures[peer, default: []].append(why) }

    func median(_ peer: Peer) -> Double? {
        let values = (samples[peer] ?? []).sorted()
        guard !values.isEmpty else { return nil }
        let middle = values.count / 2
        return values.count % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2
    }

    func spread(_ peer: Peer) -> (min: Double, max: Double)? {
        guard let values = samples[peer], let low = values.min(), let high = values.max() else { return nil }
        return (low, high)
    }

    func text(_ value: Double) -> String {
        let number = String(format: "%.\(decimals)f", value)
        return unit.isEmpty ? number : "\(number) \(unit)"
    }

    /// "0.31 s (0.29–0.34)"
    func cell(_ peer: Peer) -> String? {
        guard let median = median(peer), let (low, high) = spread(peer) else { return nil }
        let range = samples[peer]!.count > 1
            ? " (\(String(format: "%.\(decimals)f", low))–\(String(format: "%.\(decimals)f", high)))" : ""
        return text(median) + range
    }

    /// Aubade's median ÷ this peer's median.
    func ratio(_ peer: Peer) -> Double? {
        guard showsRatio, peer != .aubade, let ours = median(.aubade), let theirs = median(peer), theirs != 0 else { return nil }
        return ours / theirs
    }

    /// "1.07×", "0.0026×"
    static func ratioText(_ ratio: Double) -> String {
        abs(ratio) >= 0.1 ? String(format: "%.2f×", ratio) : String(format: "%.2g×", ratio)
    }

    var lowerIsBetter: Bool {
        switch target {
        case .atLeast, .atLeastTimes: false
        default: true
        }
    }

    /// The bound Aubade's median must meet, when it can be known.
    var bound: Double? {
        switch target {
        case .none: nil
        case .atMost(let value), .atLeast(let value), .within(let value): value
        case .atMostTimes(let factor, let peer), .atLeastTimes(let factor, let peer): median(peer).map { $0 * factor }
        }
    }

    var targetText: String {
        switch target {
        case .none: "–"
        case .atMost(let value): "≤ \(text(value))"
        case .within(let value): "within ±\(text(value))"
        case .atLeast(let value): "≥ \(text(value))"
        case .atMostTimes(let factor, let peer): "≤ \(String(format: "%g", factor)) × \(peer.title)"
        case .atLeastTimes(let factor, let peer): "≥ \(String(format: "%g", factor)) × \(peer.title)"
        }
    }

    var met: Bool? {
        guard let bound, let ours = median(.aubade) else { return nil }
        if case .within = target { return abs(ours) <= bound }
        return lowerIsBetter ? ours <= bound : ours >= bound
    }

    /// "met (0.31 s ≤ 0.39 s)" or "NOT met by 0.05 s (13 %)".
    var verdict: String {
        if case .none = target { return "no target" }
        guard let ours = median(.aubade) else { return "no Aubade figure" }
        guard let bound else { return "target unknown (no \(peerOfTarget?.title ?? "peer") figure)" }
        if case .within = target {
            if met == true { return "met (\(text(ours)), within ±\(text(bound)))" }
            let miss = abs(ours) - bound
            return "NOT met by \(text(miss)) (\(String(format: "%.0f", miss / bound * 100)) %): \(text(ours)) vs within ±\(text(bound))"
        }
        let sign = lowerIsBetter ? "≤" : "≥"
        if met == true { return "met (\(text(ours)) \(sign) \(text(bound)))" }
        let miss = abs(ours - bound)
        let percent = bound != 0 ? String(format: " (%.0f %%)", miss / abs(bound) * 100) : ""
        return "NOT met by \(text(miss))\(percent): \(text(ours)) vs \(sign) \(text(bound))"
    }

    var peerOfTarget: Peer? {
        switch target {
        case .atMostTimes(_, let peer), .atLeastTimes(_, let peer): peer
        default: nil
        }
    }

    /// The `BENCHMARK peers …` line (`BENCHMARK <benchmark> …`).
    func line(players: [Peer], benchmark: String = "peers") -> String {
        let parts = players.map { peer -> String in
            if let cell = cell(peer) {
                return "\(peer.title) \(cell)" + (ratio(peer).map { " [Aubade \(PeerFigure.ratioText($0))]" } ?? "")
            }
            return "\(peer.title) n/a" + (notApplicable[peer].map { " (\($0))" } ?? failures[peer].map { " (\($0.first ?? ""))" } ?? "")
        }
        return "BENCHMARK \(benchmark) \(name): " + parts.joined(separator: " | ") + "; target \(targetText): \(verdict)"
    }

    func json(players: [Peer]) -> [String: Any] {
        var perPlayer: [String: Any] = [:]
        for peer in players {
            var entry: [String: Any] = ["samples": (samples[peer] ?? []).map(round3)]
            if let median = median(peer) { entry["median"] = round3(median) }
            if let (low, high) = spread(peer) {
                entry["min"] = round3(low)
                entry["max"] = round3(high)
            }
            if let ratio = ratio(peer) { entry["aubadeRatio"] = round3(ratio) }
            if let why = notApplicable[peer] { entry["notApplicable"] = why }
            if let failed = failures[peer] { entry["failures"] = failed }
            perPlayer[peer.rawValue] = entry
        }
        var object: [String: Any] = ["key": key, "name": name, "unit": unit, "how": how, "target": targetText,
                                     "verdict": verdict, "players": perPlayer]
        if let met { object["met"] = met }
        if let bound { object["bound"] = round3(bound) }
        return object
    }
}

/// `.build/bench/peers.md` and `peers.json` (or `<basename>.md` and `.json`, with its own title:
/// the stream benchmark writes `streams.md` and `streams.json` the same way).
enum PeerReportFiles {
    static func write(figures: [PeerFigure], players: [Peer], header: [String: Any], notes: [String],
                      skipped: [String], basename: String = "peers", title: String = "Aubade beside its peers",
                      benchmark: String = "Aubade beside its peers (issue 6)") throws -> (markdown: String, directory: URL) {
        let directory = BenchmarkFiles.directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var root = header
        root["benchmark"] = benchmark
        root["players"] = players.map(\.rawValue)
        root["skipped"] = skipped
        root["figures"] = figures.map { $0.json(players: players) }
        root["notes"] = notes
        let data = try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: directory.appendingPathComponent("\(basename).json"))

        var out = "# \(title)\n\n"
        out += "\(header["date"] as? String ?? "?") · \(header["machine"] as? String ?? "?") · "
            + "\(header["server"] as? String ?? "?") · \(header["runs"] as? Int ?? 0) repetitions, players alternating · "
            + "\(header["file"] as? String ?? "")\n\n"
        if let versions = header["versions"] as? [String: String] {
            out += "Players: " + players.map { "\($0.title) (\(versions[$0.rawValue] ?? "?"))" }.joined(separator: ", ") + "\n\n"
        }
        for line in skipped { out += "Skipped: \(line)\n\n" }
        out += "Median (min–max) over the repetitions; beside each peer, Aubade's median ÷ that peer's.\n\n"
        out += "| figure | target for Aubade | " + players.map(\.title).joined(separator: " | ") + " | Aubade vs target |\n"
        out += "|---|---|" + players.map { _ in "---|" }.joined() + "---|\n"
        for figure in figures {
            var row = "| \(figure.name) | \(figure.targetText) |"
            for peer in players {
                if let cell = figure.cell(peer) {
                    row += " \(cell)" + (figure.ratio(peer).map { " · Aubade \(PeerFigure.ratioText($0))" } ?? "") + " |"
                } else {
                    // A reason may quote a log line: a bare | would split the cell.
                    row += " n/a" + (figure.notApplicable[peer].map { " (\($0.replacingOccurrences(of: "|", with: "\\|")))" } ?? "") + " |"
                }
            }
            let verdict = figure.met == false ? "**\(figure.verdict)**" : figure.verdict
            row += " \(verdict) |\n"
            out += row
        }
        out += "\nHow each figure is measured:\n\n"
        for figure in figures { out += "- *\(figure.name)*: \(figure.how)\n" }
        if !notes.isEmpty {
            out += "\nNotes:\n\n"
            for note in notes { out += "- \(note)\n" }
        }
        try out.write(to: directory.appendingPathComponent("\(basename).md"), atomically: true, encoding: .utf8)
        return (out, directory)
    }
}
