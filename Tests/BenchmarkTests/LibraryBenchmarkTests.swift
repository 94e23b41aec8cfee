import DBusKit
import Foundation
import XCTest
@testable import TestSupport

/// The library benchmark of issue 12, run by `make bench BENCH=library` on PulseAudio
/// (skipped unless `AUBADE_BENCH=1`). Aubade is the binary in `AUBADE_BINARY` (`make bench`
/// builds a release one), started as `aubade serve` with an empty queue and its own HOME.
///
/// On the generated 500-track library (`LibraryFixture`, cached in `.build/bench/library`):
/// - cold: page cache dropped (`PageCache.drop`), then OpenUri(file:///…/library/): the time
///   to the reply and to Tracks holding every track the build can play (OpenUri answers once
///   the folder is queued; Tracks is polled after it in case a build queues in steps), bytes
///   read meanwhile (/proc/PID/io deltas), the first audio at `headphones.monitor` after the call;
/// - warm: the daemon stopped (SIGTERM) and started again with the same HOME (whatever index
///   or state it keeps), the page cache dropped again, the same OpenUri; then once more
///   without dropping anything (index and page cache both warm);
/// - mpd (`mpd --no-daemon`, a private config with this music_directory and a null output):
///   `mpc update --wait` after a cache drop, then a rescan of the unchanged folder, cold too;
/// - decode CPU per minute of audio, in this process (`AudioDecoders.open` + reads) beside
///   `flac -d -c`, `opusdec` and `mpg123 -t` (child rusage);
/// - VmRSS of a fresh daemon before and after AddTrack of 10,000 hard links to the base files.
/// Prints `BENCHMARK [library] …` lines; writes `library.json` and `library.md`.
/// A benchmark, not a test: it fails only when it cannot measure Aubade at all.
final class LibraryBenchmarkTests: XCTestCase {
    private var work: URL!
    private var aubadeBinary = ""
    private var fixture: LibraryFixture!
    private var live: [Spawned] = []
    private var linkFolder: URL?
    private var notes: [String] = []
    private var figures: [LibraryFigure] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard ProcessInfo.processInfo.environment["AUBADE_BENCH"] == "1" else {
            throw XCTSkip("a benchmark: run it with `make bench BENCH=library` (AUBADE_BENCH=1)")
        }
        try AudioSession.require()
        if try Bus.nameHasOwner(Daemon.busName) {
            throw DaemonError("\(Daemon.busName) is already owned: another aubade runs on this bus")
        }
        aubadeBinary = try Daemon.binaryPath()
        work = TestRunDirectory.url.appendingPathComponent("library", isDirectory: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let count = Int(ProcessInfo.processInfo.environment["AUBADE_BENCH_LIBRARY_TRACKS"] ?? "").flatMap { $0 >= 25 ? $0 : nil } ?? 500
        fixture = LibraryFixture(directory: BenchmarkFiles.directory.appendingPathComponent("library", isDirectory: true),
                                 count: count)
    }

    override func tearDown() {
        for process in live.reversed() { process.stop(grace: 5) }
        live.removeAll()
        if let linkFolder { try? FileManager.default.removeItem(at: linkFolder) }
        if let work { try? FileManager.default.removeItem(at: work) }
        super.tearDown()
    }

    func testLibrary() throws {
        let disk = (try? Shell.run("df", ["-h", BenchmarkFiles.directory.deletingLastPathComponent().path]))?.trimmedOutput ?? "?"
        print("BENCHMARK [library] disk before: \(disk.split(separator: "\n").last.map(String.init) ?? disk)")
        let prepared = try fixture.prepare()
        print("BENCHMARK [library] \(prepared)")
        notes.append(prepared)
        let files = fixture.files
        let total = fixture.totalBytes()
        let library = String(format: "%d tracks of %d s (%d MP3 in 5 kinds, %d FLAC, %d Opus), %.2f GB", files.count,
                             fixture.seconds, files.filter { $0.pathExtension == "mp3" }.count,
                             files.filter { $0.pathExtension == "flac" }.count, files.filter { $0.pathExtension == "opus" }.count,
                             Double(total) / 1e9)
        print("BENCHMARK [library] library: \(library)")
        let how = try PageCache.drop(files: files)
        print("BENCHMARK [library] cold cache: \(how)")
        notes += ["Library: \(library)", "Cold cache: \(how)", "Aubade binary: \(aubadeBinary)"
                  + ((ProcessInfo.processInfo.environment["AUBADE_BINARY"] ?? "").isEmpty ? " (not AUBADE_BINARY: probably a debug build)" : "")]

        let client = try BusClient(label: "library-bench")
        let recorder = try MonitorRecorder(logPath: work.appendingPathComponent("parec.log").path)
        live.append(recorder.process)
        try recorder.waitUntilFlowing()
        let session = LibrarySession(binary: aubadeBinary, work: work, client: client, recorder: recorder,
                                     register: { [unowned self] in live.append($0) })

        let home = work.appendingPathComponent("home-aubade", isDirectory: true)
        var daemon = try session.start(home: home)
        let cold = try session.queue(fixture.directory, daemon: daemon, expected: files.count, dropping: files)
        print("BENCHMARK [library] Aubade cold detail: \(cold.detail)")
        let rssLibrary = ProcAccounting.statusKilobytes(daemon.pid, "VmRSS") ?? 0
        daemon.stop(grace: 10)
        daemon = try session.start(home: home)
        let warm = try session.queue(fixture.directory, daemon: daemon, expected: files.count, dropping: files)
        print("BENCHMARK [library] Aubade warm (restarted) detail: \(warm.detail)")
        let hot = try session.queue(fixture.directory, daemon: daemon, expected: files.count, dropping: nil)
        print("BENCHMARK [library] Aubade hot (re-added) detail: \(hot.detail)")
        daemon.stop(grace: 10)

        var mpd: MPDScan?
        if (try? Shell.which("mpd")) == nil || (try? Shell.which("mpc")) == nil {
            notes.append("mpd: not installed (apt-get install mpd mpc); no mpd figures")
        } else {
            do {
                mpd = try LibraryMPD(work: work, register: { [unowned self] in live.append($0) }).scan(fixture.directory, files: files)
            } catch {
                notes.append("mpd: failed, no mpd figures: \(error)")
            }
        }
        for note in notes where note.hasPrefix("mpd:") { print("BENCHMARK [library] \(note)") }
        addQueueFigures(cold: cold, warm: warm, hot: hot, mpd: mpd, files: files.count, rssLibrary: rssLibrary)

        for figure in LibraryDecodeCPU(work: work, aubade: aubadeBinary).measure(fixture: fixture) { figures.append(figure) }
        if let figure = try? memoryFigure(session: session) { figures.append(figure) }
        recorder.stop()
        for figure in figures { print(figure.line) }
        try LibraryReport.write(figures: figures, notes: notes, facts: ["tracks": files.count, "libraryBytes": total])
        XCTAssertGreaterThan(cold.queued, 0, "Aubade queued nothing of the library")
    }

    // MARK: Figures

    private func addQueueFigures(cold: QueueSample, warm: QueueSample, hot: QueueSample, mpd: MPDScan?,
                                 files: Int, rssLibrary: Int) {
        let perFile = Double(cold.io.readBytes) / Double(files)
        let coverage = cold.queued == files ? "all \(files) tracks" : "\(cold.queued) of \(files) tracks (the rest refused by this build)"
        figures.append(LibraryFigure(
            key: "coldQueue", text: String(format: "Aubade, cold cache, no index: OpenUri(folder) → %@ queued: %.0f ms (reply %.0f ms)",
                                           coverage, cold.queueMs, cold.replyMs),
            values: cold.json, target: mpd.map { (text: "≤ mpd's update, \(String(format: "%.0f", $0.update.ms)) ms", met: cold.queueMs <= $0.update.ms) }))
        figures.append(LibraryFigure(
            key: "coldBytes", text: String(format: "Aubade, cold: read_bytes %.1f KiB per file (%.1f MB in all), rchar %.1f KiB per file",
                                           perFile / 1024, Double(cold.io.readBytes) / 1e6, Double(cold.io.rchar) / Double(files) / 1024),
            values: ["readBytes": cold.io.readBytes, "rchar": cold.io.rchar, "files": files],
            target: (text: "≤ 256 KiB per file", met: perFile <= 256 * 1024)))
        figures.append(LibraryFigure(
            key: "coldFirstAudio", text: "Aubade, cold: OpenUri → first track audible at the sink: " + (cold.firstAudioMs.map { String(format: "%.0f ms", $0) } ?? "no audio"),
            values: ["ms": cold.firstAudioMs ?? -1], target: nil))
        let speedup = warm.queueMs > 0 ? cold.queueMs / warm.queueMs : 0
        figures.append(LibraryFigure(
            key: "warmQueue", text: String(format: "Aubade, restarted (its tag index on disk), cold page cache: %d queued in %.0f ms (reply %.0f ms), %.1f× faster than cold; read_bytes %.1f KiB, rchar %.1f KiB per file; first audio %@",
                                           warm.queued, warm.queueMs, warm.replyMs, speedup, Double(warm.io.readBytes) / Double(files) / 1024,
                                           Double(warm.io.rchar) / Double(files) / 1024, warm.firstAudioMs.map { String(format: "%.0f ms", $0) } ?? "none"),
            values: warm.json.merging(["speedup": speedup]) { $1 }, target: (text: "≥ 20× faster than cold", met: speedup >= 20)))
        figures.append(LibraryFigure(
            key: "hotQueue", text: String(format: "Aubade, same daemon, folder re-added, index and page cache warm: %d queued in %.0f ms, %.1f× faster than cold; read_bytes %.1f KiB, rchar %.1f KiB per file; first audio %@",
                                          hot.queued, hot.queueMs, hot.queueMs > 0 ? cold.queueMs / hot.queueMs : 0,
                                          Double(hot.io.readBytes) / Double(files) / 1024, Double(hot.io.rchar) / Double(files) / 1024,
                                          hot.firstAudioMs.map { String(format: "%.0f ms", $0) } ?? "none"),
            values: hot.json, target: nil))
        figures.append(LibraryFigure(
            key: "rssLibrary", text: String(format: "Aubade VmRSS with the library queued (cold run): %.1f MiB", Double(rssLibrary) / 1024),
            values: ["kiB": rssLibrary], target: nil))
        if let mpd {
            for (key, label, run) in [("mpdUpdate", "mpd, cold cache, empty database: mpc update --wait", mpd.update),
                                      ("mpdRescan", "mpd, cold cache, unchanged folder: mpc update --wait again", mpd.rescan)] {
                figures.append(LibraryFigure(
                    key: key, text: String(format: "%@: %.0f ms, %d songs in its database; read_bytes %.1f KiB, rchar %.1f KiB per file",
                                           label, run.ms, mpd.songs, Double(run.io.readBytes) / Double(files) / 1024,
                                           Double(run.io.rchar) / Double(files) / 1024),
                    values: ["ms": run.ms, "readBytes": run.io.readBytes, "rchar": run.io.rchar, "songs": mpd.songs], target: nil))
            }
            notes.append("mpd: \(mpd.version); its rchar stays near zero (its reads do not go through the read(2) calls "
                + "rchar counts), so compare read_bytes; \(mpd.songs) songs in its database after the scan")
        }
    }

    /// A fresh daemon's VmRSS before and after AddTrack of a folder of 10,000 hard links to the bases.
    private func memoryFigure(session: LibrarySession) throws -> LibraryFigure {
        let count = 10_000
        let fixture = self.fixture!
        let folder = BenchmarkFiles.directory.appendingPathComponent("library-10k-\(getpid())", isDirectory: true)
        linkFolder = folder
        defer { try? FileManager.default.removeItem(at: folder); linkFolder = nil }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for index in 0..<count {
            let base = LibraryFixture.baseIndex(of: index)
            let name = String(format: "%05d %@.%@", index + 1, LibraryFixture.bases[base].name, LibraryFixture.bases[base].ext)
            let target = folder.appendingPathComponent(name)
            guard link(fixture.base(base).path, target.path) == 0 else {
                throw DaemonError("link \(target.path): \(String(cString: strerror(errno)))")
            }
        }
        PageCache.warm((0..<LibraryFixture.bases.count).map { fixture.base($0) })
        let daemon = try session.start(home: work.appendingPathComponent("home-rss", isDirectory: true))
        defer { daemon.stop(grace: 10) }
        Thread.sleep(forTimeInterval: 1)
        let before = ProcAccounting.statusKilobytes(daemon.pid, "VmRSS") ?? 0
        let (_, seconds) = try session.client.call("org.mpris.MediaPlayer2.TrackList", "AddTrack",
                                                   [.string(folder.absoluteString), .objectPath("/org/mpris/MediaPlayer2/TrackList/NoTrack"),
                                                    .boolean(false)], timeoutMilliseconds: 900_000)
        let queued = try session.trackCount()
        Thread.sleep(forTimeInterval: 1)
        let after = ProcAccounting.statusKilobytes(daemon.pid, "VmRSS") ?? 0
        let perTrack = queued > 0 ? Double(after - before) * 1024 / Double(queued) : 0
        return LibraryFigure(
            key: "rss10k", text: String(format: "Aubade VmRSS %.1f MiB empty → %.1f MiB with %d of %d mixed tracks queued (hard links to the 7 bases, hot cache; AddTrack %.0f ms): %.0f bytes per track",
                                        Double(before) / 1024, Double(after) / 1024, queued, count, seconds * 1000, perTrack),
            values: ["rssBeforeKiB": before, "rssAfterKiB": after, "queued": queued, "links": count, "addMs": seconds * 1000],
            target: nil)
    }
}
