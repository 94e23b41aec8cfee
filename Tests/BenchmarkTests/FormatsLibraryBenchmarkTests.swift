import Foundation
import XCTest
@testable import TestSupport

/// 100 full-size M4A files (four minutes of AAC at 128 kbit/s each, tagged, a cover, the `moov`
/// atom at the end as ffmpeg writes it; made once and kept in `.build/bench/m4a-library`):
/// queueing the folder with a cold page cache — time and bytes read from the disk per file
/// (Aubade: the daemon and its tag-reading helper; mpd: `update`) — and one file playing:
/// first audio, CPU per minute, peak RSS of the process tree.
final class FormatsLibraryBenchmarkTests: FormatsBenchmarkCase {
    static let fileCount = 100

    /// The library, made on first use.
    private func library() throws -> (URL, [URL]) {
        let folder = BenchmarkFiles.directory.appendingPathComponent("m4a-library", isDirectory: true)
        let names = (1...Self.fileCount).map { String(format: "%03d.m4a", $0) }
        let files = names.map { folder.appendingPathComponent($0) }
        if files.allSatisfy({ FileManager.default.fileExists(atPath: $0.path) }) { return (folder, files) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        print("BENCHMARK formats: making the M4A library (\(Self.fileCount) files of 4 minutes) in \(folder.path)")
        let source = work.appendingPathComponent("source.m4a")
        try Fixtures.makeM4A(at: source.path, seconds: 240, frequency: 440, title: "Source", tagged: true, moovAtEnd: true)
        for (index, file) in files.enumerated() {
            // A remux per file (its own title and number, moov still at the end): no second encode.
            try Fixtures.run("ffmpeg", ["-v", "error", "-y", "-i", source.path, "-map", "0", "-c", "copy",
                                                      "-disposition:v", "attached_pic", "-metadata", "title=Track \(index + 1)",
                                                      "-metadata", "track=\(index + 1)/\(Self.fileCount)", file.path])
        }
        return (folder, files)
    }

    func testM4AFiles() throws {
        let (folder, files) = try library()
        let size = (try? FileManager.default.attributesOfItem(atPath: files[0].path)[.size] as? Int) ?? 0
        var table = FormatsTable(title: "100 full-size M4A files (4 min AAC 128 kbit/s, tagged with a cover, moov at the end, "
                                 + "\(size / 1024) KiB each)", players: players.map(\.title))
        var how = ""
        for _ in 1...runs {
            how = try queueWithAubade(folder, files, into: &table)
            if players.contains(.mpd) { try queueWithMPD(folder, files, into: &table) }
        }
        for peer in players where peer != .aubade && peer != .mpd {
            table.cannot("queue the folder, cold cache", "ms", peer.title, "no library")
            table.cannot("bytes read per file, cold cache", "KiB", peer.title, "no library")
        }
        for _ in 1...runs {
            for peer in players {
                print("BENCHMARK formats m4a: playing one file, \(peer.title)")
                try playSession(peer, .file(files[0]), into: &table)
            }
        }
        table.notes.append("Queueing: Aubade's `aubade add FOLDER` to 100 entries in TrackList.Tracks; bytes: read_bytes of the daemon "
                           + "and of its tag-reading helper (while it lives; it stops 2 s after its last file); mpd: `mpc update "
                           + "--wait` on an empty database, read_bytes of mpd. Page cache: \(how)")
        table.notes.append("Playing: the first file, URL → first audio from the player's start (mpd: from `play`).")
        try finish(table, part: "3 m4a files")
    }

    private func queueWithAubade(_ folder: URL, _ files: [URL], into table: inout FormatsTable) throws -> String {
        let client = try BusClient(label: "aubade.bench.formats")
        let recorder = try MonitorRecorder(logPath: nil)
        live.append(recorder.process)
        defer { recorder.stop() }
        let session = LibrarySession(binary: aubadeBinary, work: work, client: client, recorder: recorder) { [unowned self] in live.append($0) }
        let home = work.appendingPathComponent("home-library-\(UUID().uuidString)")
        let daemon = try session.start(home: home)
        defer { daemon.stop(grace: 3) }
        // No helper left from the start-up (an empty queue needs none).
        Thread.sleep(forTimeInterval: 2.5)
        // The music cold, the binaries warm: a helper started after a whole-cache drop would count
        // FFmpeg's libraries (tens of MB) as bytes read for the folder.
        PageCache.evict(files)
        let how = "the M4A files' pages dropped before each queueing (posix_fadvise DONTNEED after sync); "
            + "the players' binaries and libraries stay cached, so read_bytes is the music read"
        let before = try ProcIO.read(daemon.pid)
        let helperBytes = HelperReadSampler(daemon: daemon.pid)
        let sent = Stamp.now()
        let add = try Shell.run(aubadeBinary, ["add", folder.path], environment: ["HOME": home.path,
                                "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path,
                                "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path], timeout: 600)
        guard add.succeeded else { throw DaemonError("aubade add: \(add)") }
        let deadline = Date(timeIntervalSinceNow: 600)
        while try session.trackCount() < Self.fileCount, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        let done = Stamp.now()
        let daemonBytes = try ProcIO.read(daemon.pid).readBytes - before.readBytes
        let helpers = helperBytes.stop()
        table.add("queue the folder, cold cache", "ms", Peer.aubade.title, sent.milliseconds(to: done))
        table.add("bytes read per file, cold cache", "KiB", Peer.aubade.title, Double(daemonBytes + helpers) / Double(Self.fileCount) / 1024)
        print(String(format: "BENCHMARK formats m4a: Aubade queued %d files in %.0f ms; read_bytes daemon %d, helper %d",
                     Self.fileCount, sent.milliseconds(to: done), daemonBytes, helpers))
        return how
    }

    private func queueWithMPD(_ folder: URL, _ files: [URL], into table: inout FormatsTable) throws {
        let scan = try LibraryMPD(work: work.appendingPathComponent("mpd-\(UUID().uuidString)")) { [unowned self] in live.append($0) }
            .scan(folder, files: files, evictOnly: true)
        table.add("queue the folder, cold cache", "ms", Peer.mpd.title, scan.update.ms)
        table.add("bytes read per file, cold cache", "KiB", Peer.mpd.title, Double(scan.update.io.readBytes) / Double(Self.fileCount) / 1024)
    }
}

/// The most each `aubade-ffmpeg` child of a daemon has read from the disk, sampled every 20 ms
/// on a thread of its own (a helper's counters go with it when it exits).
final class HelperReadSampler: @unchecked Sendable {
    private let lock = NSLock()
    private var maxima: [pid_t: Int] = [:]
    private var running = true
    private let finished = DispatchSemaphore(value: 0)

    init(daemon: pid_t) {
        Thread { [self] in
            while lock.withLock({ running }) {
                for pid in ProcAccounting.tree(daemon) where pid != daemon {
                    guard ProcAccounting.read("/proc/\(pid)/comm")?.hasPrefix("aubade-ffmpeg") == true,
                          let io = try? ProcIO.read(pid) else { continue }
                    lock.withLock { maxima[pid] = max(maxima[pid] ?? 0, io.readBytes) }
                }
                Thread.sleep(forTimeInterval: 0.02)
            }
            finished.signal()
        }.start()
    }

    /// Stops sampling; the helpers' bytes read in all.
    func stop() -> Int {
        lock.withLock { running = false }
        finished.wait()
        return lock.withLock { maxima.values.reduce(0, +) }
    }
}
