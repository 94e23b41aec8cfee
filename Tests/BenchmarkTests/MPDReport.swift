import Foundation
@testable import TestSupport

/// The MPD benchmark's figures: one table per part, a row per figure, a column per server
/// (Aubade, mpd; or Aubade before and after), each cell the median of its samples with their
/// range (and p90 where asked), or why there is no figure. A row may have a goal for the first
/// column against another column or a number. Written to `.build/bench/mpd.{md,json}`, each
/// part replacing its own section (the parts are test methods that can run apart).
struct MPDTable {
    enum Goal {
        /// The first column's median at most this column's (as fast, as small).
        case atMostColumn(String)
        /// The first column's median at most this value.
        case atMost(Double)
        /// The first column's median at most this column's plus `slack`.
        case unchangedFrom(String, slack: Double)
    }

    struct Row {
        var key: String
        var measure: String
        var unit: String
        var goal: Goal?
        var showP90 = false
        var values: [String: [Double]] = [:]
        /// Text instead of a figure (no samples), or after it.
        var notes: [String: String] = [:]
        var how: String
    }

    var part: String
    var title: String
    var columns: [String]
    /// The benchmark's name in `BENCHMARK` lines and its files' (`.build/bench/<file>.{md,json}`);
    /// the web benchmark's tables are written with the same code.
    var file = "mpd"
    var rows: [Row] = []
    var notes: [String] = []
    /// Date, machine, load, versions: printed above the table.
    var context: [String] = []

    mutating func row(_ key: String, _ measure: String, unit: String, goal: Goal? = nil, showP90: Bool = false, how: String) {
        guard !rows.contains(where: { $0.key == key }) else { return }
        rows.append(Row(key: key, measure: measure, unit: unit, goal: goal, showP90: showP90, how: how))
    }

    mutating func add(_ key: String, _ column: String, _ value: Double?) {
        guard let index = rows.firstIndex(where: { $0.key == key }) else { preconditionFailure("no row \(key)") }
        if let value { rows[index].values[column, default: []].append(value) }
    }

    mutating func note(_ key: String, _ column: String, _ text: String) {
        guard let index = rows.firstIndex(where: { $0.key == key }) else { preconditionFailure("no row \(key)") }
        rows[index].notes[column] = text
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted[min(max(Int((p * Double(sorted.count)).rounded(.up)) - 1, 0), sorted.count - 1)]
    }

    static func format(_ value: Double, _ unit: String) -> String {
        switch unit {
        case "ms": return value >= 100 ? String(format: "%.0f ms", value) : value >= 10 ? String(format: "%.1f ms", value)
            : String(format: "%.2f ms", value)
        case "s": return String(format: "%.1f s", value)
        case "MB": return String(format: "%.1f MB", value)
        case "KiB": return String(format: "%.1f KiB", value)
        case "bytes": return value >= 1e6 ? String(format: "%.2f MB", value / 1e6) : value >= 1e4 ? String(format: "%.0f kB", value / 1e3)
            : String(format: "%.0f B", value)
        default: return String(format: "%.3g %@", value, unit)
        }
    }

    func cell(_ row: Row, _ column: String) -> String {
        guard let values = row.values[column], let median = Self.median(values) else { return row.notes[column] ?? "—" }
        var text = Self.format(median, row.unit)
        if values.count > 1 {
            if row.showP90, let p90 = Self.percentile(values, 0.9) {
                text = "median \(text), p90 \(Self.format(p90, row.unit)) (\(Self.format(values.min()!, row.unit))–"
                    + "\(Self.format(values.max()!, row.unit)), \(values.count) samples)"
            } else {
                text += " (\(Self.format(values.min()!, row.unit))–\(Self.format(values.max()!, row.unit)))"
            }
        }
        if let note = row.notes[column] { text += "; \(note)" }
        return text
    }

    /// The goal's text and whether it was met (nil: cannot tell).
    func goal(_ row: Row) -> (text: String, met: Bool?)? {
        guard let goal = row.goal else { return nil }
        let first = row.values[columns[0]].flatMap(Self.median)
        switch goal {
        case .atMostColumn(let other):
            let theirs = row.values[other].flatMap(Self.median)
            guard let first, let theirs else { return ("≤ \(other)'s", nil) }
            return ("≤ \(other)'s", first <= theirs)
        case .atMost(let limit):
            guard let first else { return ("≤ \(Self.format(limit, row.unit))", nil) }
            return ("≤ \(Self.format(limit, row.unit))", first <= limit)
        case .unchangedFrom(let other, let slack):
            let theirs = row.values[other].flatMap(Self.median)
            let text = "≤ \(other) + \(Self.format(slack, row.unit))"
            guard let first, let theirs else { return (text, nil) }
            return (text, first <= theirs + slack)
        }
    }

    /// `BENCHMARK mpd <part>: <figure>: Aubade …; mpd … (goal …: met)`
    var lines: [String] {
        rows.map { row in
            let goal = self.goal(row).map { " (goal \($0.text): \($0.met.map { $0 ? "met" : "NOT met" } ?? "no figure"))" } ?? ""
            return "BENCHMARK \(file) \(part): \(row.measure): " + columns.map { "\($0) \(cell(row, $0))" }.joined(separator: "; ") + goal
        }
    }

    var json: [String: Any] {
        [
            "title": title,
            "columns": columns,
            "context": context,
            "notes": notes,
            "rows": rows.map { row -> [String: Any] in
                var object: [String: Any] = ["key": row.key, "measure": row.measure, "unit": row.unit, "how": row.how,
                                             "values": row.values.mapValues { $0.map(round3) }, "notes": row.notes]
                var medians: [String: Double] = [:]
                for (column, values) in row.values { medians[column] = Self.median(values).map(round3) }
                object["medians"] = medians
                if let goal = goal(row) {
                    object["goal"] = goal.text
                    if let met = goal.met { object["met"] = met }
                }
                return object
            },
        ]
    }

    /// Prints the lines, replaces this part's section of `<file>.json` and rewrites `<file>.md`
    /// from every section there.
    func write(benchmark: String = "mpd: the MPD front-end beside mpd 0.23 on a generated library",
               heading: String = "Aubade's MPD front-end beside mpd") throws {
        for line in lines { print(line) }
        let root = try BenchmarkFiles.replaceSection(of: part, with: json, in: file, benchmark: benchmark)
        var text = "# \(heading)\n\nMachine: \(root["machine"] ?? "?")\n\n"
        let sections = (root["servers"] as? [String: Any]) ?? [:]
        for name in sections.keys.sorted() {
            guard let section = sections[name] as? [String: Any] else { continue }
            text += Self.markdown(from: section, part: name) + "\n"
        }
        try text.write(to: BenchmarkFiles.directory.appendingPathComponent("\(file).md"), atomically: true, encoding: .utf8)
        print("BENCHMARK \(file) \(part): written to \(BenchmarkFiles.directory.path)/\(file).{md,json}")
    }

    /// A section of mpd.json as Markdown again (the goals as they were judged then).
    private static func markdown(from section: [String: Any], part: String) -> String {
        var text = "## \(section["title"] as? String ?? part)\n\n"
        let context = section["context"] as? [String] ?? []
        if !context.isEmpty { text += context.map { "- \($0)" }.joined(separator: "\n") + "\n\n" }
        let columns = section["columns"] as? [String] ?? []
        let rows = section["rows"] as? [[String: Any]] ?? []
        text += "| figure | goal | " + columns.joined(separator: " | ") + " | goal met |\n"
        text += "|---|---|" + columns.map { _ in "---" }.joined(separator: "|") + "|---|\n"
        var table = MPDTable(part: part, title: "", columns: columns)
        for object in rows {
            var row = Row(key: object["key"] as? String ?? "", measure: object["measure"] as? String ?? "?",
                          unit: object["unit"] as? String ?? "", how: object["how"] as? String ?? "")
            row.values = object["values"] as? [String: [Double]] ?? [:]
            row.notes = object["notes"] as? [String: String] ?? [:]
            row.showP90 = row.values.values.contains { $0.count >= 10 }
            table.rows.append(row)
            let met = (object["met"] as? Bool).map { $0 ? "met" : "**NOT met**" } ?? (object["goal"] != nil ? "no figure" : "")
            text += "| \(row.measure) | \(object["goal"] as? String ?? "–") | "
                + columns.map { table.cell(row, $0).replacingOccurrences(of: "|", with: "/") }.joined(separator: " | ") + " | \(met) |\n"
        }
        let notes = section["notes"] as? [String] ?? []
        if !notes.isEmpty { text += "\n" + notes.map { "- \($0)" }.joined(separator: "\n") + "\n" }
        text += "\nHow each figure is measured:\n\n"
            + rows.map { "- *\($0["measure"] as? String ?? "?")*: \($0["how"] as? String ?? "")" }.joined(separator: "\n") + "\n"
        return text
    }
}

/// The machine's load average now (1, 5, 15 minutes), as `uptime` prints it.
func loadAverage() -> String {
    let text = ProcAccounting.read("/proc/loadavg") ?? ""
    return text.split(separator: " ").prefix(3).joined(separator: ", ")
}
