import DBusKit
import Dispatch
import Foundation
import XCTest
@testable import TestSupport

/// The 10,000-track figures of issue 4, run by `make bench` (skipped unless `AUBADE_BENCH=1`):
/// - Peer.Ping of the daemon, 200 times, with an empty queue: the bare round trip (two hops
///   through the bus daemon, libdbus's own answer on the core queue) the other figures include;
/// - AddTrack of a folder of 10,000 MP3s: the call's round trip. The files are hard links to
///   ONE 1 s MP3 written just before, so every read hits the page cache: this measures the bus,
///   the tag reading and the queue, not a disk (a cold cache or 10,000 distinct files on a
///   spinning disk would be slower, and this benchmark does not say by how much);
/// - Get(PlaybackStatus) answered while that add is loading (round trips, from a second connection);
/// - the daemon's VmRSS before and after → memory per queued track;
/// - 200 × GetTracksMetadata of 20 ids and 200 × Next in the 10,000-track queue (round trips);
/// - Get(Tracks) of all 10,000 ids.
/// Round trips are measured in this process (DBusKit, no dbus-send start-up), so they include
/// two hops through the bus daemon on top of the time spent in aubade.
/// Prints BENCHMARK lines and writes `queue-scale.json` beside the audio-session files.
/// A benchmark, not a test: it fails only when it cannot measure at all.
final class QueueScaleBenchmarkTests: XCTestCase {
    private static let trackCount = Int(ProcessInfo.processInfo.environment["AUBADE_BENCH_TRACKS"] ?? "") ?? 10_000
    private var workDirectory: URL!
    private var daemon: Daemon?

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard ProcessInfo.processInfo.environment["AUBADE_BENCH"] == "1" else {
            throw XCTSkip("a benchmark: run it with `make bench` (AUBADE_BENCH=1)")
        }
        try AudioSession.require()
        if try Bus.nameHasOwner(Daemon.busName) {
            throw DaemonError("\(Daemon.busName) is already owned: another aubade runs on this bus")
        }
        workDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("aubade-queue-bench-\(getpid())", isDirectory: true)
        try? FileManager.default.removeItem(at: workDirectory)
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        daemon?.stop()
        daemon = nil
        if let workDirectory { try? FileManager.default.removeItem(at: workDirectory) }
        super.tearDown()
    }

    private var server: String { ProcessInfo.processInfo.environment["AUBADE_SOUND_SERVER"] ?? "pulseaudio" }

    func testTenThousandTrackQueue() throws {
        let count = Self.trackCount
        let folder = try makeFolder(count: count)
        let daemon = try Daemon(serve: [])
        self.daemon = daemon
        try daemon.waitForBusName()
        let adder = try BusClient(label: "adder")
        let getter = try BusClient(label: "getter")
        for _ in 0..<20 { _ = try getter.get(MPRIS.player, "PlaybackStatus") }  // warm up
        var pings: [Double] = []
        for _ in 0..<200 {
            let (_, seconds) = try getter.call("org.freedesktop.DBus.Peer", "Ping")
            pings.append(seconds)
        }
        Thread.sleep(forTimeInterval: 1)
        let rssBefore = try Self.residentKilobytes(of: daemon.pid)

        // AddTrack of the folder, with Gets on another connection while it loads.
        final class AddOutcome: @unchecked Sendable {
            let lock = NSLock()
            var result: Result<[DBusKit.DBusValue], DBusError>?
            var seconds = 0.0
        }
        let outcome = AddOutcome()
        try adder.callAsync(MPRIS.trackList, "AddTrack",
                            [.string(folder.absoluteString), .objectPath(MPRIS.noTrack), .boolean(false)]) { result, seconds in
            outcome.lock.withLock {
                outcome.result = result
                outcome.seconds = seconds
            }
        }
        Thread.sleep(forTimeInterval: 0.01)
        var during: [Double] = []
        let deadline = Date(timeIntervalSinceNow: 600)
        while outcome.lock.withLock({ outcome.result == nil }), Date() < deadline {
            let (_, seconds) = try getter.get(MPRIS.player, "PlaybackStatus")
            if outcome.lock.withLock({ outcome.result == nil }) { during.append(seconds) }
            Thread.sleep(forTimeInterval: 0.002)
        }
        let (addResult, addSeconds) = outcome.lock.withLock { (outcome.result, outcome.seconds) }
        guard let addResult else { return XCTFail("AddTrack of \(count) files did not answer within 600 s") }
        if case .failure(let error) = addResult { return XCTFail("AddTrack of the folder failed: \(error)") }

        let (tracksValue, tracksSeconds) = try getter.get(MPRIS.trackList, "Tracks")
        let ids = tracksValue?.asObjectPathArray ?? []
        XCTAssertEqual(ids.count, count, "Tracks after the add")
        guard ids.count >= 20 else { return }
        Thread.sleep(forTimeInterval: 1)
        let rssAfter = try Self.residentKilobytes(of: daemon.pid)

        // GetTracksMetadata of 20 ids at random places.
        var generator = SystemRandomNumberGenerator()
        var metadata: [Double] = []
        for _ in 0..<200 {
            let start = Int.random(in: 0...(ids.count - 20), using: &generator)
            let (values, seconds) = try getter.call(MPRIS.trackList, "GetTracksMetadata",
                                                     [.objectPathArray(Array(ids[start..<(start + 20)]))])
            XCTAssertEqual(values.first?.asArray?.count, 20)
            metadata.append(seconds)
        }

        // Next, playing through the queue.
        _ = try getter.call(MPRIS.trackList, "GoTo", [.objectPath(ids[0])])
        Thread.sleep(forTimeInterval: 0.5)
        var next: [Double] = []
        for _ in 0..<200 {
            let (_, seconds) = try getter.call(MPRIS.player, "Next")
            next.append(seconds)
        }
        let status = try getter.get(MPRIS.player, "PlaybackStatus").value?.asString ?? "?"
        let rssEnd = try Self.residentKilobytes(of: daemon.pid)

        let perTrack = Double(rssAfter - rssBefore) * 1024 / Double(count)
        let figures: [(key: String, line: String, value: [String: Any])] = [
            ("ping", "Peer.Ping round trip (bus daemon twice + libdbus's answer), empty queue: " + Self.summary(pings),
             Self.json(pings)),
            ("addFolder", String(format: "AddTrack(folder of %d hard links to one 1 s MP3, hot page cache): %.0f ms (%.1f µs per track)",
                                 count, addSeconds * 1000, addSeconds * 1e6 / Double(count)),
             ["ms": addSeconds * 1000, "tracks": count]),
            ("getDuringAdd", "Get(PlaybackStatus) while the add loads: " + Self.summary(during),
             Self.json(during)),
            ("memory", String(format: "VmRSS %.1f MiB empty → %.1f MiB with %d tracks (%.1f MiB after 200 Next): %.0f bytes per queued track",
                              Double(rssBefore) / 1024, Double(rssAfter) / 1024, count, Double(rssEnd) / 1024, perTrack),
             ["rssBeforeKiB": rssBefore, "rssAfterKiB": rssAfter, "rssEndKiB": rssEnd, "bytesPerTrack": perTrack]),
            ("getTracksMetadata20", "GetTracksMetadata(20 ids) in a \(count)-track queue: " + Self.summary(metadata),
             Self.json(metadata)),
            ("next", "Next in a \(count)-track queue (playing; \(status) after): " + Self.summary(next), Self.json(next)),
            ("getTracks", String(format: "Get(Tracks) of %d ids: %.2f ms", ids.count, tracksSeconds * 1000),
             ["ms": tracksSeconds * 1000]),
        ]
        for figure in figures { print("BENCHMARK [\(server)] queue: \(figure.line)") }
        var section: [String: Any] = ["tracks": count, "date": ISO8601DateFormatter().string(from: Date())]
        for figure in figures { section[figure.key] = figure.value }
        try write(section)
        XCTAssertFalse(during.isEmpty, "no Get(PlaybackStatus) was answered while AddTrack loaded (\(Int(addSeconds * 1000)) ms)")
    }

    // MARK: Helpers

    private enum MPRIS {
        static let player = "org.mpris.MediaPlayer2.Player"
        static let trackList = "org.mpris.MediaPlayer2.TrackList"
        static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"
    }

    /// `count` hard links to one 1 s MP3, "00001.mp3" on.
    private func makeFolder(count: Int) throws -> URL {
        let wav = workDirectory.appendingPathComponent("tone.wav")
        let mp3 = workDirectory.appendingPathComponent("tone.mp3")
        let sox = try Shell.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav.path,
                                        "synth", "1", "sine", "440", "vol", "0.5"])
        guard sox.succeeded else { throw DaemonError("sox: \(sox)") }
        let lame = try Shell.run("lame", ["--quiet", "-b", "128", "--add-id3v2", "--tt", "Bench", "--ta", "Aubade",
                                          wav.path, mp3.path], timeout: 60)
        guard lame.succeeded else { throw DaemonError("lame: \(lame)") }
        let folder = workDirectory.appendingPathComponent("tracks", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let width = String(count).count
        for number in 1...count {
            let label = String(number)
            let name = String(repeating: "0", count: width - label.count) + label + ".mp3"
            let target = folder.appendingPathComponent(name)
            if link(mp3.path, target.path) != 0 { try FileManager.default.copyItem(at: mp3, to: target) }
        }
        return folder
    }

    static func residentKilobytes(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else {
            throw DaemonError("no VmRSS in /proc/\(pid)/status")
        }
        return kilobytes
    }

    private static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }

    static func summary(_ seconds: [Double]) -> String {
        let sorted = seconds.sorted()
        guard !sorted.isEmpty else { return "no samples" }
        return String(format: "median %.3f ms, p99 %.3f ms, max %.3f ms over %d calls", percentile(sorted, 0.5) * 1000,
                      percentile(sorted, 0.99) * 1000, sorted.last! * 1000, sorted.count)
    }

    static func json(_ seconds: [Double]) -> [String: Any] {
        let sorted = seconds.sorted()
        guard !sorted.isEmpty else { return ["samples": 0] }
        return ["samples": sorted.count, "medianMs": percentile(sorted, 0.5) * 1000,
                "p99Ms": percentile(sorted, 0.99) * 1000, "maxMs": sorted.last! * 1000]
    }

    /// `queue-scale.json` in the bench folder, one section per sound server.
    private func write(_ section: [String: Any]) throws {
        let directory = BenchmarkFiles.directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("queue-scale.json")
        var root: [String: Any] = [:]
        if let data = try? Data(contentsOf: file), let existing = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            root = existing
        }
        var servers = root["servers"] as? [String: Any] ?? [:]
        servers[server] = section
        root["servers"] = servers
        root["benchmark"] = "10,000-track queue (issue 4)"
        root["machine"] = BenchmarkFiles.machine()
        try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys]).write(to: file)
        print("BENCHMARK written to \(file.path)")
    }
}
