import DBusKit
import Foundation
import XCTest
@testable import TestSupport

/// Issue 10's hostile-client figures, run by `make bench` (skipped unless `AUBADE_BENCH=1`):
/// 10,000 calls made by the fuzz test's `HostileCallMaker` (wrong signatures, `h` arguments,
/// extremes, 1 MiB strings, 10,000-element arrays, hostile URIs …) sent to a daemon playing a
/// 60 s track, one at a time, from this process (DBusKit, no busctl start-up). Prints:
/// - open descriptors of the daemon before and after;
/// - its VmRSS before and after;
/// - the reply time of the calls answered at once (median, p99, worst), and of the loads
///   (OpenUri/AddTrack, which answer once the loading queue is done) on their own;
/// - whether it still plays afterwards.
/// `AUBADE_FUZZ_SEED` (default 10) picks the calls, `AUBADE_BENCH_CALLS` (default 10,000) their number.
/// A benchmark, not a test: it fails only when it cannot measure (or the daemon died).
final class HostileCallsBenchmarkTests: XCTestCase {
    private var daemon: Daemon?
    private var files: HostileFiles?

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard ProcessInfo.processInfo.environment["AUBADE_BENCH"] == "1" else {
            throw XCTSkip("a benchmark: run it with `make bench` (AUBADE_BENCH=1)")
        }
        try AudioSession.require()
        if try Bus.nameHasOwner(Daemon.busName) {
            throw DaemonError("\(Daemon.busName) is already owned: another aubade runs on this bus")
        }
    }

    override func tearDown() {
        daemon?.stop()
        daemon = nil
        files?.remove()
        files = nil
        super.tearDown()
    }

    private var server: String { ProcessInfo.processInfo.environment["AUBADE_SOUND_SERVER"] ?? "pulseaudio" }

    func testTenThousandHostileCalls() throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["AUBADE_FUZZ_SEED"].flatMap { UInt64($0) } ?? 10
        let count = environment["AUBADE_BENCH_CALLS"].flatMap { Int($0) } ?? 10_000
        let fixtures = try TestMusic.shared()
        let files = try HostileFiles(in: TestRunDirectory.url)
        self.files = files
        let daemon = try Daemon(serve: [fixtures.long.path])
        self.daemon = daemon
        try daemon.waitForBusName()
        let client = try BusClient()
        let playing = Date(timeIntervalSinceNow: 10)
        while try client.property("org.mpris.MediaPlayer2.Player", "PlaybackStatus")?.asString != "Playing", Date() < playing {
            Thread.sleep(forTimeInterval: 0.02)
        }
        let tree = try IntrospectedTree.walk(client)
        let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(descriptor) }
        var maker = HostileCallMaker(tree: tree, values: HostileValues(seed: seed, descriptor: descriptor, uris: files.uris))
        Thread.sleep(forTimeInterval: 0.5)
        let fdsBefore = try ProcessFacts.openDescriptors(of: daemon.pid)
        let rssBefore = try ProcessFacts.residentKilobytes(of: daemon.pid)

        let run = FuzzRun(daemon: daemon, client: client)
        let started = Date()
        var sent = 0
        while sent < count, run.mayGoOn {
            if run.send(maker.next()) { sent += 1 }
            if sent % 500 == 0 {
                run.checkBetweenBatches()
                maker.values.trackIDs = (try? client.property("org.mpris.MediaPlayer2.TrackList", "Tracks"))??.asObjectPathArray ?? []
            }
        }
        run.waitForLoads(until: Date(timeIntervalSinceNow: 60))
        let seconds = Date().timeIntervalSince(started)
        Thread.sleep(forTimeInterval: 0.5)
        guard daemon.isRunning else {
            return XCTFail("the daemon died after \(sent) hostile calls (seed \(seed)): \(run.failures.prefix(3))")
        }
        let fdsAfter = try ProcessFacts.openDescriptors(of: daemon.pid)
        let rssAfter = try ProcessFacts.residentKilobytes(of: daemon.pid)
        let score = run.snapshot

        // Still plays: a real file, then Play.
        _ = try client.call(path: "/org/mpris/MediaPlayer2", interface: "org.mpris.MediaPlayer2.Player", member: "OpenUri",
                            [.string(fixtures.long.absoluteString)], timeoutMilliseconds: 10_000)
        _ = try client.call(path: "/org/mpris/MediaPlayer2", interface: "org.mpris.MediaPlayer2.Player", member: "Play")
        var status = "?"
        let deadline = Date(timeIntervalSinceNow: 5)
        repeat {
            status = try client.property("org.mpris.MediaPlayer2.Player", "PlaybackStatus")?.asString ?? "?"
            if status == "Playing" { break }
            Thread.sleep(forTimeInterval: 0.02)
        } while Date() < deadline

        let replies = Timings(seconds: score.replySeconds)
        let loads = Timings(seconds: score.loadSeconds)
        let label = "BENCHMARK [\(server)] hostile calls"
        print("\(label): \(sent) calls (seed \(seed)) in \(String(format: "%.1f", seconds)) s: "
              + "\(score.errors) errors, \(score.returns) returns, \(score.failures.count) failures")
        print("\(label): open descriptors \(fdsBefore) before → \(fdsAfter) after \(sent) hostile calls")
        print("\(label): VmRSS " + String(format: "%.1f MiB before → %.1f MiB after", Double(rssBefore) / 1024,
                                          Double(rssAfter) / 1024) + " \(sent) hostile calls")
        print("\(label): reply time (answered at once) " + String(format: "median %.2f ms, p99 %.2f ms, worst %.1f ms",
                                                                 replies.median * 1000, replies.percentile(0.99) * 1000,
                                                                 replies.max * 1000) + " over \(replies.seconds.count) calls")
        print("\(label): reply time (loads: OpenUri/AddTrack) " + String(format: "median %.2f ms, worst %.1f ms",
                                                                       loads.median * 1000, loads.max * 1000)
              + " over \(loads.seconds.count) calls")
        print("\(label): slowest call: \(score.slowest.call)")
        print("\(label): PlaybackStatus after OpenUri + Play of a real file: \(status)")
        try write([
            "seed": seed, "calls": sent, "seconds": seconds, "errors": score.errors, "returns": score.returns,
            "failures": Array(score.failures.prefix(20)),
            "fdsBefore": fdsBefore, "fdsAfter": fdsAfter, "rssBeforeKiB": rssBefore, "rssAfterKiB": rssAfter,
            "replyMedianMs": replies.median * 1000, "replyP99Ms": replies.percentile(0.99) * 1000,
            "replyWorstMs": replies.max * 1000, "loadMedianMs": loads.median * 1000, "loadWorstMs": loads.max * 1000,
            "statusAfter": status, "date": ISO8601DateFormatter().string(from: Date()),
            "binary": (try? Daemon.binaryPath()) ?? "?",
        ])
        XCTAssertGreaterThan(replies.seconds.count, 0, "no call was answered")
    }

    /// `hostile-calls.json` in the bench folder, one section per sound server.
    private func write(_ section: [String: Any]) throws {
        let directory = BenchmarkFiles.directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("hostile-calls.json")
        var root: [String: Any] = [:]
        if let data = try? Data(contentsOf: file), let existing = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            root = existing
        }
        var servers = root["servers"] as? [String: Any] ?? [:]
        servers[server] = section
        root["servers"] = servers
        root["benchmark"] = "10,000 hostile bus calls (issue 10)"
        root["machine"] = BenchmarkFiles.machine()
        try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys]).write(to: file)
        print("BENCHMARK written to \(file.path)")
    }
}
