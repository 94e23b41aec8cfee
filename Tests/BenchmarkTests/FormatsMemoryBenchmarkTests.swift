import Foundation
import XCTest
@testable import TestSupport

/// Only MP3s queued: Aubade's peak RSS playing one local MP3 and its start-up (spawn → its bus
/// name owned), before this change (`AUBADE_BASELINE_BINARY`: `make bench` builds the commit
/// before issue 21, as it was built then) and after (`AUBADE_BINARY`), with the breakdown of
/// the resident memory by mapping (/proc/PID/smaps) — and the helper's crash, stop and runaway
/// mid-track with the bus's worst reply through each.
final class FormatsMemoryBenchmarkTests: FormatsBenchmarkCase {
    func testOnlyMP3sBeforeAndAfter() throws {
        let mp3 = work.appendingPathComponent("tone.mp3")
        try Fixtures.makeMP3(at: mp3.path, seconds: 60)
        let baseline = ProcessInfo.processInfo.environment["AUBADE_BASELINE_BINARY"] ?? ""
        let builds = [("before (\(ProcessInfo.processInfo.environment["AUBADE_BASELINE_REVISION"] ?? "baseline"))", baseline),
                      ("after", aubadeBinary)]
        var table = FormatsTable(title: "Only MP3s queued: Aubade playing one local MP3, before and after issue 21",
                                 players: builds.map(\.0))
        for _ in 1...max(runs, 3) {
            for (name, binary) in builds {
                guard !binary.isEmpty, FileManager.default.isExecutableFile(atPath: binary) else {
                    table.cannot("start-up (spawn → bus name owned)", "ms", name, "not measured (AUBADE_BASELINE_BINARY unset)")
                    continue
                }
                let (startMs, peakKB, breakdown, mapped) = try measure(binary, mp3)
                table.add("start-up (spawn → bus name owned)", "ms", name, startMs)
                table.add("peak RSS after 10 s of playing", "MB", name, Double(peakKB) / 1024)
                if table.notes.filter({ $0.hasPrefix("\(name):") }).isEmpty {
                    table.notes.append("\(name): resident by mapping (KiB, largest first): " + breakdown)
                    table.notes.append("\(name): libcurl mapped: \(mapped.curl ? "yes" : "no"); FFmpeg mapped: \(mapped.ffmpeg ? "yes" : "no")")
                }
            }
        }
        table.notes.append("Target: at most 20 MB peak RSS playing local files (issue 21).")
        try finish(table, part: "4 only mp3s")
    }

    private func measure(_ binary: String, _ mp3: URL) throws -> (Double, Int, String, (curl: Bool, ffmpeg: Bool)) {
        let home = work.appendingPathComponent("home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let daemon = try Spawned(binary, ["serve", mp3.path], environment: [
            "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
            "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path, "XDG_STATE_HOME": home.appendingPathComponent(".state").path,
            "XDG_DATA_HOME": home.appendingPathComponent(".share").path,
        ], logPath: home.appendingPathComponent("aubade.log").path)
        live.append(daemon)
        defer { daemon.stop(grace: 3) }
        let deadline = Date(timeIntervalSinceNow: 30)
        while !((try? Bus.nameHasOwner(Daemon.busName)) ?? false) {
            guard Date() < deadline, daemon.isRunning else { throw DaemonError("\(binary) did not own its name: \(daemon.logTail())") }
            Thread.sleep(forTimeInterval: 0.002)
        }
        let startMs = daemon.started.milliseconds(to: Stamp.now())
        Thread.sleep(forTimeInterval: 10)
        let peak = ProcAccounting.statusKilobytes(daemon.pid, "VmHWM") ?? 0
        var byMapping: [String: Int] = [:]
        var name = ""
        for line in (ProcAccounting.read("/proc/\(daemon.pid)/smaps") ?? "").split(separator: "\n") {
            if let first = line.first, first.isHexDigit, line.contains("-") {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                name = fields.count > 5 ? String(fields[5...].joined(separator: " ").split(separator: "/").last ?? "") : "[anonymous]"
            } else if line.hasPrefix("Rss:") {
                byMapping[name, default: 0] += Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
            }
        }
        let top = byMapping.sorted { $0.value > $1.value }.prefix(12).map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let maps = ProcAccounting.read("/proc/\(daemon.pid)/maps") ?? ""
        return (startMs, peak, top, (maps.contains("libcurl"), maps.contains("libavformat")))
    }

    /// The helper crashed (SIGSEGV), stopped (SIGSTOP) and allocating without end, each while an
    /// M4A plays: PlaybackStatus asked every 20 ms throughout; the worst reply, and how long until
    /// the next track (an MP3) is heard... well, reported.
    func testHelperFaults() throws {
        let m4a = work.appendingPathComponent("faulty.m4a"), mp3 = work.appendingPathComponent("next.mp3")
        try Fixtures.makeM4A(at: m4a.path, seconds: 30, title: "Faulty")
        try Fixtures.makeMP3(at: mp3.path, seconds: 10, lameOptions: ["--tt", "Next"])
        var table = FormatsTable(title: "The FFmpeg helper failing mid-track (Aubade): the bus throughout", players: ["crash (SIGSEGV)",
                                 "hang (SIGSTOP)", "runaway allocation"])
        for _ in 1...runs {
            for fault in table.players {
                let home = work.appendingPathComponent("home-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
                var environment: [String: String?] = ["HOME": home.path, "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path,
                                                      "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
                                                      "XDG_STATE_HOME": home.appendingPathComponent(".state").path]
                if fault.hasPrefix("runaway") { environment["AUBADE_FFMPEG_TEST_FAULT"] = "allocate:2646000" }  // after 15 s of audio sent
                let daemon = try Spawned(aubadeBinary, ["serve", m4a.path, mp3.path], environment: environment,
                                         logPath: home.appendingPathComponent("aubade.log").path)
                live.append(daemon)
                defer { daemon.stop(grace: 3) }
                let client = try BusClient(label: "aubade.bench.faults")
                let deadline = Date(timeIntervalSinceNow: 20)
                var helpers: [pid_t] = []
                // Playing, then the tag reader gone idle (2 s after its last file): one helper left,
                // the decoder's. (Right at the start the tag reader is the only one.)
                while (try? Bus.get(Bus.playerInterface, "PlaybackStatus")) != .string("Playing"), Date() < deadline {
                    Thread.sleep(forTimeInterval: 0.05)
                }
                Thread.sleep(forTimeInterval: 2.5)
                repeat {
                    helpers = ProcAccounting.tree(daemon.pid).filter { $0 != daemon.pid }
                    if helpers.count != 1 { Thread.sleep(forTimeInterval: 0.1) }
                } while helpers.count != 1 && Date() < deadline
                guard helpers.count == 1 else { throw DaemonError("no single decoding helper: \(daemon.logTail())") }
                _ = client
                let probe = try ReplyTimeProbe()
                probe.start()
                var faultAt = Stamp.now()
                if fault.hasPrefix("crash") { kill(helpers[0], SIGSEGV) }
                if fault.hasPrefix("hang") { kill(helpers[0], SIGSTOP) }
                if fault.hasPrefix("runaway") {
                    // It starts by itself: from when the watchdog's kill ends it.
                    let gone = Date(timeIntervalSinceNow: 30)
                    while kill(helpers[0], 0) == 0, !(ProcAccounting.read("/proc/\(helpers[0])/stat") ?? "").contains(") Z "), Date() < gone {
                        Thread.sleep(forTimeInterval: 0.01)
                    }
                    faultAt = Stamp.now()
                }
                var nextAt: Stamp?
                let end = Date(timeIntervalSinceNow: 20)
                while nextAt == nil, Date() < end {
                    if (try? Bus.get(Bus.playerInterface, "Metadata"))?.dictionary?["xesam:title"] == .string("Next") {
                        nextAt = Stamp.now()
                    }
                    Thread.sleep(forTimeInterval: 0.02)
                }
                let times = probe.stop()
                table.add("worst bus reply through the fault", "ms", fault, times.worstMilliseconds)
                if let nextAt { table.add("fault → the next track current", "ms", fault, faultAt.milliseconds(to: nextAt)) }
                else { table.cannot("fault → the next track current", "ms", fault, "not within 20 s") }
                print("BENCHMARK formats faults: \(fault): \(times)")
            }
        }
        table.notes.append("The next track becomes current once the faulty one's buffered audio (2 s ahead, plus the sound server's) has played.")
        table.notes.append("Runaway: the helper starts allocating (AUBADE_FFMPEG_TEST_FAULT) once it has sent 15 s of audio; the "
                           + "daemon's watchdog kills it at 384 MB resident; the next track is counted from that kill.")
        try finish(table, part: "5 helper faults")
    }
}
