import Foundation
@testable import TestSupport

/// A process's I/O counters from /proc/PID/io: `rchar` (bytes asked of read-like calls, page
/// cache hits included) and `read_bytes` (bytes the process made the kernel fetch from the
/// block device: page-ins of its code and readahead included).
struct ProcIO {
    var rchar: Int
    var readBytes: Int

    static func read(_ pid: pid_t) throws -> ProcIO {
        guard let text = ProcAccounting.read("/proc/\(pid)/io") else { throw DaemonError("cannot read /proc/\(pid)/io") }
        var fields: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":")
            if parts.count == 2 { fields[String(parts[0])] = Int(parts[1].trimmingCharacters(in: .whitespaces)) }
        }
        guard let rchar = fields["rchar"], let readBytes = fields["read_bytes"] else {
            throw DaemonError("no rchar/read_bytes in /proc/\(pid)/io")
        }
        return ProcIO(rchar: rchar, readBytes: readBytes)
    }

    static func - (lhs: ProcIO, rhs: ProcIO) -> ProcIO {
        ProcIO(rchar: lhs.rchar - rhs.rchar, readBytes: lhs.readBytes - rhs.readBytes)
    }
}

/// Empties the page cache before a cold measurement.
enum PageCache {
    static var isRoot: Bool { geteuid() == 0 }

    /// As root: `sync; echo 3 > /proc/sys/vm/drop_caches` (the whole machine's clean pages,
    /// dentries and inodes: the players' own binaries and libraries too). Otherwise
    /// posix_fadvise(DONTNEED) on each of `files` after a sync: their data pages only, the
    /// directories and inodes stay cached. Returns how, for the report.
    @discardableResult
    static func drop(files: [URL]) throws -> String {
        sync()
        if isRoot {
            guard let handle = FileHandle(forWritingAtPath: "/proc/sys/vm/drop_caches") else {
                throw DaemonError("cannot open /proc/sys/vm/drop_caches")
            }
            defer { try? handle.close() }
            try handle.write(contentsOf: Data("3\n".utf8))
            return "root: sync; echo 3 > /proc/sys/vm/drop_caches before each cold measurement"
        }
        for file in files {
            let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            _ = posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_DONTNEED))
            close(descriptor)
        }
        return "NOT root: drop_caches unavailable; posix_fadvise(POSIX_FADV_DONTNEED) on each library file instead "
            + "(file data only: directories, inodes and the players' binaries stay cached, so cold figures are flattered)"
    }

    /// Reads each file once, so later reads hit the page cache.
    /// The data pages of `files` only (sync, then posix_fadvise(DONTNEED)): the music cold, the
    /// players' binaries and libraries warm — what `read_bytes` then counts is the music read.
    static func evict(_ files: [URL]) {
        sync()
        for file in files {
            let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            _ = posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_DONTNEED))
            close(descriptor)
        }
    }

    static func warm(_ files: [URL]) {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        for file in files {
            let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            while read(descriptor, buffer, 1 << 20) > 0 {}
            close(descriptor)
        }
    }
}

/// One line of the library report: a printed `BENCHMARK [library] …` line and its JSON entry.
struct LibraryFigure {
    var key: String
    var text: String
    var values: [String: Any]
    /// nil: no target; otherwise whether it was met and what it was.
    var target: (text: String, met: Bool)?

    var line: String {
        "BENCHMARK [library] \(text)" + (target.map { " (target \($0.text): \($0.met ? "met" : "NOT met"))" } ?? "")
    }

    var json: [String: Any] {
        var object = values
        object["key"] = key
        object["text"] = text
        if let target {
            object["target"] = target.text
            object["met"] = target.met
        }
        return object
    }
}

/// `library.json` and `library.md` in the bench folder.
enum LibraryReport {
    static func write(figures: [LibraryFigure], notes: [String], facts: [String: Any]) throws {
        let directory = BenchmarkFiles.directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var root = facts
        root["benchmark"] = "library: a generated folder beside mpd (issue 12)"
        root["machine"] = BenchmarkFiles.machine()
        root["date"] = ISO8601DateFormatter().string(from: Date())
        root["figures"] = figures.map(\.json)
        root["notes"] = notes
        let json = directory.appendingPathComponent("library.json")
        try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys]).write(to: json)
        var markdown = "# Aubade library benchmark\n\n"
        markdown += "Machine: \(root["machine"] as? String ?? "?"), \(root["date"] as? String ?? "?")\n\n"
        markdown += "| figure | target | |\n|---|---|---|\n"
        for figure in figures {
            let met = figure.target.map { $0.met ? "met" : "**NOT met**" } ?? ""
            markdown += "| \(figure.text.replacingOccurrences(of: "|", with: "/")) | \(figure.target?.text ?? "") | \(met) |\n"
        }
        markdown += "\n" + notes.map { "- \($0)\n" }.joined()
        try markdown.write(to: directory.appendingPathComponent("library.md"), atomically: true, encoding: .utf8)
        print("BENCHMARK [library] written to \(json.path) and library.md")
    }
}
