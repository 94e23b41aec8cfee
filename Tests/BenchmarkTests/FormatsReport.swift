import Foundation
@testable import TestSupport

/// The formats benchmark's figures (issue 21): one table per part, a row per measure, a
/// column per player; a cell is the median of the runs (with their range), or why the player
/// has no figure ("cannot play it: …"). Written to `.build/bench/formats.{md,json}`, each part
/// replacing its own section, so `make bench BENCH=formats` parts can run apart.
struct FormatsTable {
    struct Row {
        var measure: String
        var unit: String
        var values: [String: [Double]] = [:]
        var notes: [String: String] = [:]
    }

    var title: String
    var players: [String]
    var rows: [Row] = []
    var notes: [String] = []

    init(title: String, players: [String]) {
        self.title = title
        self.players = players
    }

    mutating func add(_ measure: String, _ unit: String, _ player: String, _ value: Double?) {
        let index = rowIndex(measure, unit)
        if let value { rows[index].values[player, default: []].append(value) }
    }

    /// A player without a figure for `measure`, and why.
    mutating func cannot(_ measure: String, _ unit: String, _ player: String, _ why: String) {
        let index = rowIndex(measure, unit)
        if rows[index].values[player] == nil { rows[index].notes[player] = why }
    }

    private mutating func rowIndex(_ measure: String, _ unit: String) -> Int {
        if let index = rows.firstIndex(where: { $0.measure == measure }) { return index }
        rows.append(Row(measure: measure, unit: unit))
        return rows.count - 1
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    func cell(_ row: Row, _ player: String) -> String {
        if let values = row.values[player], let median = Self.median(values) {
            let text = Self.format(median, row.unit)
            return values.count > 1 ? "\(text) (\(Self.format(values.min()!, row.unit))–\(Self.format(values.max()!, row.unit)))" : text
        }
        return row.notes[player] ?? "—"
    }

    static func format(_ value: Double, _ unit: String) -> String {
        switch unit {
        case "ms": return String(format: "%.0f ms", value)
        case "s": return String(format: "%.2f s", value)
        case "MB": return String(format: "%.1f MB", value)
        case "KiB": return String(format: "%.0f KiB", value)
        case "s/min": return String(format: "%.2f s/min", value)
        default: return String(format: "%.3g %@", value, unit)
        }
    }

    var markdown: String {
        var text = "### \(title)\n\n| | " + players.joined(separator: " | ") + " |\n|---|" + players.map { _ in "---" }.joined(separator: "|") + "|\n"
        for row in rows { text += "| \(row.measure) | " + players.map { cell(row, $0) }.joined(separator: " | ") + " |\n" }
        if !notes.isEmpty { text += "\n" + notes.map { "- \($0)" }.joined(separator: "\n") + "\n" }
        return text
    }

    /// BENCHMARK lines for the log.
    func lines(part: String) -> [String] {
        rows.flatMap { row in
            players.map { "BENCHMARK formats \(part): \(row.measure): \($0): \(cell(row, $0))" }
        }
    }

    var json: [String: Any] {
        [
            "title": title,
            "players": players,
            "rows": rows.map { row -> [String: Any] in
                ["measure": row.measure, "unit": row.unit, "values": row.values, "notes": row.notes]
            },
            "notes": notes,
        ]
    }

    /// Replaces part `part` of formats.json and rewrites formats.md from every part there.
    func write(part: String) throws {
        let root = try BenchmarkFiles.replaceSection(of: part, with: json, in: "formats",
                                                     benchmark: "formats: M4A files, AAC and HLS stations, beside mpv and mpd (issue 21)")
        var text = "# Formats: M4A files, AAC and HLS stations (issue 21)\n\nMachine: \(root["machine"] ?? "?")\n\n"
        let parts = (root["servers"] as? [String: Any]) ?? [:]
        for name in parts.keys.sorted() {
            guard let section = parts[name] as? [String: Any] else { continue }
            text += Self.markdown(from: section) + "\n"
        }
        try text.write(to: BenchmarkFiles.directory.appendingPathComponent("formats.md"), atomically: true, encoding: .utf8)
    }

    private static func markdown(from section: [String: Any]) -> String {
        var table = FormatsTable(title: section["title"] as? String ?? "?", players: section["players"] as? [String] ?? [])
        for row in section["rows"] as? [[String: Any]] ?? [] {
            table.rows.append(Row(measure: row["measure"] as? String ?? "?", unit: row["unit"] as? String ?? "",
                                  values: row["values"] as? [String: [Double]] ?? [:], notes: row["notes"] as? [String: String] ?? [:]))
        }
        table.notes = section["notes"] as? [String] ?? []
        return table.markdown
    }
}
