import DBusKit
import Dispatch
import Synchronization
import Foundation
import XCTest

/// Queueing a library folder of full-size MP3s (issue 12), run by `make bench BENCH=library`
/// (skipped unless `AUBADE_BENCH=1`), with the RELEASE daemon (`AUBADE_BINARY`):
/// - 200 distinct files of ~5 MB (AUBADE_BENCH_LIBRARY_FILES to change): a third CBR 192 kb/s
///   with a LAME Info frame, a third CBR without one (`lame -t`: the length is estimated), a
///   third VBR (-V 0 with a Xing frame); each with its own ID3v2 tag in front of one of three
///   encoded streams (encoding 200 × 3.5 minutes would take longer than the benchmark);
/// - evicted from the page cache (fsync + posix_fadvise DONTNEED per file: no root needed);
/// - the daemon's own /proc/<pid>/io deltas around AddTrack of the folder: read_bytes (what
///   came from the disk), rchar (what read(2) returned, cache or not) and syscr, per file,
///   and the AddTrack round trip;
/// - then the same folder again with a new daemon in the same home, the files evicted again:
///   the tag index answers, no audio file is opened.
/// Prints BENCHMARK lines and writes `library.json` beside the other benchmark files.
/// A benchmark, not a test: it fails only when it cannot measure at all.
final class LibraryBenchmarkTests: XCTestCase {
    private static let fileCount = Int(ProcessInfo.processInfo.environment["AUBADE_BENCH_LIBRARY_FILES"] ?? "") ?? 200
    private var workDirectory: URL!
    private var daemons: [Daemon] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard ProcessInfo.processInfo.environment["AUBADE_BENCH"] == "1" else {
            throw XCTSkip("a benchmark: run it with `make bench BENCH=library` (AUBADE_BENCH=1)")
        }
        try AudioSession.require()
        if try Bus.nameHasOwner(Daemon.busName) {
            throw DaemonError("\(Daemon.busName) is already owned: another aubade runs on this bus")
        }
        workDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("aubade-library-bench-\(getpid())", isDirectory: true)
        try? FileManager.default.removeItem(at: workDirectory)
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        for daemon in daemons { daemon.stop() }
        daemons.removeAll()
        if let workDirectory { try? FileManager.default.removeItem(at: workDirectory) }
        super.tearDown()
    }

    private struct Counters {
        var readBytes = 0, rchar = 0, syscr = 0

        static func of(_ pid: Int32) throws -> Counters {
            let text = try String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8)
            var values: [String: Int] = [:]
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: ":")
                if parts.count == 2 { values[String(parts[0])] = Int(parts[1].trimmingCharacters(in: .whitespaces)) }
            }
            return Counters(readBytes: values["read_bytes"] ?? 0, rchar: values["rchar"] ?? 0, syscr: values["syscr"] ?? 0)
        }

        static func - (a: Counters, b: Counters) -> Counters {
            Counters(readBytes: a.readBytes - b.readBytes, rchar: a.rchar - b.rchar, syscr: a.syscr - b.syscr)
        }
    }

    func testQueueingALibraryFolder() throws {
        let count = Self.fileCount
        let setupStart = Date()
        let (folder, totalBytes) = try makeLibrary(count: count)
        let setupSeconds = Date().timeIntervalSince(setupStart)
        let home = workDirectory.appendingPathComponent("home", isDirectory: true)
        let index = home.appendingPathComponent(".cache/aubade/tags.index")

        try evict(folder)
        let (cold, coldSeconds) = try add(folder, count: count, home: home)
        let deadline = Date(timeIntervalSinceNow: 30)
        while !FileManager.default.fileExists(atPath: index.path), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: index.path), "the tag index was not saved")
        for daemon in daemons { daemon.stop() }
        daemons.removeAll()

        try evict(folder)
        let (warm, warmSeconds) = try add(folder, count: count, home: home)
        let indexBytes = (try? FileManager.default.attributesOfItem(atPath: index.path)[.size] as? Int) ?? 0

        let mib = Double(totalBytes) / 1_048_576
        func perFile(_ c: Counters) -> String {
            String(format: "read_bytes %.1f KiB, rchar %.1f KiB, %.1f read calls per file",
                   Double(c.readBytes) / 1024 / Double(count), Double(c.rchar) / 1024 / Double(count), Double(c.syscr) / Double(count))
        }
        var lines = [
            String(format: "library: %d MP3s, %.0f MiB (%.1f MiB each; CBR+Info, CBR without Info, VBR+Xing), made in %.0f s",
                   count, mib, mib / Double(count), setupSeconds),
            String(format: "library: cold page cache, first add: AddTrack %.0f ms (%.2f ms per file); %@; %.1f MiB read_bytes in all (%.2f%% of the files)",
                   coldSeconds * 1000, coldSeconds * 1000 / Double(count), perFile(cold), Double(cold.readBytes) / 1_048_576,
                   Double(cold.readBytes) * 100 / Double(totalBytes)),
            String(format: "library: cold page cache, tag index warm (new daemon): AddTrack %.0f ms (%.2f ms per file); %@; index %.0f KiB; %.1f× faster",
                   warmSeconds * 1000, warmSeconds * 1000 / Double(count), perFile(warm), Double(indexBytes) / 1024,
                   coldSeconds / max(warmSeconds, 1e-6)),
            "library: target ≤ 256 KiB read per file: \(cold.readBytes / count <= 256 * 1024 && cold.rchar / count <= 256 * 1024 ? "met" : "NOT met")",
        ]
        if cold.readBytes == 0 {
            lines.append("library: read_bytes stayed 0: this kernel does no block I/O accounting here; rchar is the figure")
        }
        for line in lines { print("BENCHMARK \(line)") }
        try write([
            "files": count, "totalBytes": totalBytes, "setupSeconds": setupSeconds,
            "cold": ["addMs": coldSeconds * 1000, "readBytes": cold.readBytes, "rchar": cold.rchar, "syscr": cold.syscr],
            "warmIndex": ["addMs": warmSeconds * 1000, "readBytes": warm.readBytes, "rchar": warm.rchar, "syscr": warm.syscr,
                          "indexBytes": indexBytes],
            "date": ISO8601DateFormatter().string(from: Date()),
        ])
        XCTAssertGreaterThan(cold.rchar, 0, "no reads counted at all")
    }

    // MARK: Steps

    /// A fresh daemon in `home`, AddTrack of `folder`: the daemon's counters' deltas and the round trip.
    private func add(_ folder: URL, count: Int, home: URL) throws -> (Counters, Double) {
        let daemon = try Daemon(serve: [], home: home)
        daemons.append(daemon)
        try daemon.waitForBusName()
        let client = try NativeBusClient(label: "library")
        Thread.sleep(forTimeInterval: 0.5)
        let before = try Counters.of(daemon.pid)
        let (_, seconds) = try client.call("org.mpris.MediaPlayer2.TrackList", "AddTrack",
                                           [.string(folder.absoluteString), .objectPath("/org/mpris/MediaPlayer2/TrackList/NoTrack"),
                                            .boolean(false)], timeoutMilliseconds: 600_000)
        let after = try Counters.of(daemon.pid)
        return (after - before, seconds)
    }

    /// Three ~5 MB encodings (no tags), then `count` files: an ID3v2.4 tag of their own + one
    /// of the three streams. Returns the folder and its total size.
    private func makeLibrary(count: Int) throws -> (URL, Int) {
        let seconds = "210"
        let tone = workDirectory.appendingPathComponent("tone.wav"), noise = workDirectory.appendingPathComponent("noise.wav")
        try Self.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", tone.path, "synth", seconds, "sine", "440", "vol", "0.5"])
        try Self.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", noise.path, "synth", seconds, "pinknoise", "vol", "0.3"])
        let encodings = [(["-b", "192"], tone), (["-b", "192", "-t"], tone), (["-V", "0"], noise)].enumerated().map { n, job in
            (job.0, job.1, workDirectory.appendingPathComponent("stream\(n).mp3"))
        }
        // The three encoders side by side.
        let failures = Mutex([String]())
        DispatchQueue.concurrentPerform(iterations: encodings.count) { n in
            let (options, source, target) = encodings[n]
            do { try Self.run("lame", ["--quiet"] + options + [source.path, target.path]) } catch { failures.withLock { $0.append("\(error)") } }
        }
        if let failure = failures.withLock({ $0.first }) { throw DaemonError(failure) }
        let streams = try encodings.map { try Data(contentsOf: $0.2) }
        for file in [tone, noise] + encodings.map(\.2) { try? FileManager.default.removeItem(at: file) }

        let folder = workDirectory.appendingPathComponent("library", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var total = 0
        for number in 1...count {
            let tag = Self.id3v2([("TIT2", "Track \(number)"), ("TPE1", "Artist \(number % 17)"),
                                  ("TALB", "Album \(number / 12)"), ("TRCK", "\(number % 12 + 1)")])
            let data = Data(tag) + streams[number % streams.count]
            try data.write(to: folder.appendingPathComponent(String(format: "%04d.mp3", number)))
            total += data.count
        }
        return (folder, total)
    }

    /// Writes back and drops every file of `folder` from the page cache.
    private func evict(_ folder: URL) throws {
        let script = """
        import os, sys
        for name in os.listdir(sys.argv[1]):
            fd = os.open(os.path.join(sys.argv[1], name), os.O_RDONLY)
            os.fsync(fd)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            os.close(fd)
        """
        try Self.run("python3", ["-c", script, folder.path])
    }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let result = try Shell.run(tool, arguments, timeout: 300)
        guard result.succeeded else { throw DaemonError("\(tool) \(arguments.prefix(4)): \(result)") }
    }

    /// An ID3v2.4 tag of UTF-8 text frames.
    private static func id3v2(_ frames: [(String, String)]) -> [UInt8] {
        func syncsafe(_ n: Int) -> [UInt8] { [UInt8((n >> 21) & 0x7F), UInt8((n >> 14) & 0x7F), UInt8((n >> 7) & 0x7F), UInt8(n & 0x7F)] }
        var body: [UInt8] = []
        for (id, value) in frames {
            let text = [UInt8(3)] + Array(value.utf8)
            body += Array(id.utf8) + syncsafe(text.count) + [0, 0] + text
        }
        return Array("ID3".utf8) + [4, 0, 0] + syncsafe(body.count) + body
    }

    private func write(_ figures: [String: Any]) throws {
        let directory = BenchmarkFiles.directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("library.json")
        var root = figures
        root["benchmark"] = "queueing a library folder (issue 12)"
        root["machine"] = BenchmarkFiles.machine()
        try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys]).write(to: file)
        print("BENCHMARK written to \(file.path)")
    }
}
