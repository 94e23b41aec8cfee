import Foundation
import XCTest
@testable import TestSupport

/// The MPD benchmark, run by `make bench BENCH=mpd` on PulseAudio (skipped unless
/// `AUBADE_BENCH=1`): Aubade's MPD front-end (the binary in `AUBADE_BINARY`, the release one in
/// `make bench`) beside Debian's mpd 0.23, both serving the same generated library of
/// `AUBADE_BENCH_MPD_TRACKS` (default 100,000) tracks (`MPDLibraryFixture`), measured in the
/// same run over the protocol, each server on a TCP port of its own on 127.0.0.1:
/// 1. the library built from cold (page cache dropped, no database): Aubade from its start to
///    `stats` counting every song (it tells its clients `changed: database` when its first scan
///    is published; its queue restored empty, see `MPDBenchServer.seedEmptyQueue`), mpd's
///    `update` to its end (as `mpc -w update` waits: `idle update` and `status`);
/// 2. `update` after one file is retagged, of the whole library and of its folder, on both;
///    and Aubade's own watch (inotify): the file written → `changed: database` and the new
///    title served;
/// 3. queries, `AUBADE_BENCH_RUNS` times (default 5), the servers taking turns: `search any`
///    of a word in 1 % of the titles, `find album`, `list album group albumartist`, `lsinfo` of
///    a folder of 3,000 files, `listallinfo` whole (bytes and time; mpd closes the connection);
/// 4. peak and current RSS after the build and after the queries;
/// 5. idle wake-up: MPRIS PlayPause on the bus → `changed: player` at an MPD client idling on
///    `player`, and `pause` on one MPD connection → `changed: player` on another (both
///    servers), `AUBADE_BENCH_MPD_WAKEUPS` samples each (default 50);
/// then each server started again from its database (cold page cache).
/// `testMemoryBeforeAndAfter` is part 4's other half: Aubade with no music folder, this build
/// beside the one before the MPD work; and both builds' first start as a new user has it (no
/// saved state: the music folder also goes into the queue; `AUBADE_BENCH_MPD_FIRST_START=0`
/// leaves that out).
/// Prints `BENCHMARK mpd …` lines; writes `mpd.json` and `mpd.md`. A benchmark, not a test: it
/// fails only when it cannot measure.
final class MPDBenchmarkTests: XCTestCase {
    var work: URL!
    var aubadeBinary = ""
    var live: [Spawned] = []
    var runs = 5
    var fixture: MPDLibraryFixture!
    var facts: MPDLibraryFixture.Facts!
    /// The retagged file's original bytes, put back in the tearDown.
    var originalRetagBytes: [UInt8]?

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard ProcessInfo.processInfo.environment["AUBADE_BENCH"] == "1" else {
            throw XCTSkip("a benchmark: run it with `make bench BENCH=mpd` (AUBADE_BENCH=1)")
        }
        try AudioSession.require()
        if try Bus.nameHasOwner(Daemon.busName) {
            throw DaemonError("\(Daemon.busName) is already owned: another aubade runs on this bus")
        }
        guard (try? Shell.which("mpd")) != nil else { throw DaemonError("mpd is not installed (make bench-deps)") }
        aubadeBinary = try Daemon.binaryPath()
        runs = Int(ProcessInfo.processInfo.environment["AUBADE_BENCH_RUNS"] ?? "").flatMap { $0 > 0 ? $0 : nil } ?? 5
        work = TestRunDirectory.url.appendingPathComponent("mpd-bench", isDirectory: true)
        try? FileManager.default.removeItem(at: work)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let count = Int(ProcessInfo.processInfo.environment["AUBADE_BENCH_MPD_TRACKS"] ?? "").flatMap { $0 >= 100 ? $0 : nil } ?? 100_000
        fixture = MPDLibraryFixture(directory: BenchmarkFiles.directory.appendingPathComponent("mpd-library", isDirectory: true),
                                    count: count)
    }

    override func tearDown() {
        for process in live.reversed() { process.stop(grace: 10) }
        live.removeAll()
        if let originalRetagBytes, let facts { _ = try? fixture.overwrite(facts.retagFile, with: originalRetagBytes) }
        if let work { try? FileManager.default.removeItem(at: work) }
        super.tearDown()
    }

    func register(_ process: Spawned) { live.append(process) }

    /// What every section says above its table: when, where, at what load, with what.
    func context(started: Date, load: String) -> [String] {
        let mpdVersion = ((try? Shell.run("mpd", ["--version"]))?.stdout.split(separator: "\n").first).map(String.init) ?? "?"
        let mutagen = (try? Shell.run(PythonScript.interpreter, ["-c", "import mutagen; print(mutagen.version_string)"]))?
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
        let formatter = ISO8601DateFormatter()
        let binary = ProcessInfo.processInfo.environment["AUBADE_BINARY"].map { _ in "release" } ?? "not AUBADE_BINARY: probably debug"
        return ["\(formatter.string(from: started)) to \(formatter.string(from: Date())), \(BenchmarkFiles.machine())",
                "load average (1, 5, 15 min): \(load) at the start, \(loadAverage()) at the end",
                "Aubade: \(aubadeBinary) (\(binary)), commit \(Self.commit()); \(mpdVersion); python3-mutagen \(mutagen)"]
    }

    /// The commit measured, as `make bench` passes it (`AUBADE_BENCH_REVISION`).
    static func commit() -> String {
        ProcessInfo.processInfo.environment["AUBADE_BENCH_REVISION"].flatMap { $0.isEmpty ? nil : $0 } ?? "?"
    }
}
