import Foundation
import SoundAnalysis
import XCTest
@testable import TestSupport

/// The Snapcast benchmark of issue 22, run by `make bench BENCH=snapcast` (skipped unless
/// `AUBADE_BENCH=1`): Aubade (`output = snapcast`, the release binary in `AUBADE_BINARY`) and,
/// beside it in the same run, mpd with its `fifo` output, each feeding the same kind of private
/// snapserver (48000:16:2, pcm, buffer 1000 ms) with two snapclients, `kitchen` and `garden`
/// (remap sinks of one 4-channel null sink, recorded together on one clock). For each source:
/// - PlayPause → silence in both rooms (ms): the command (MPRIS PlayPause for Aubade, `pause 1`
///   for mpd) to the first frame from which both rooms stay silent for 300 ms;
/// - title change → heard in the rooms (ms): the source's own word that the next song plays
///   (Aubade's PropertiesChanged(Metadata), mpd's `idle player`) against its first sample in
///   the kitchen (negative: said before it was heard);
/// - the rooms' offset (ms): cross-correlation of kitchen and garden in 100 ms windows;
/// - CPU per minute (s) and peak RSS (MB) of the source process while it plays pink noise
///   (Aubade's control script, a process of its own started by snapserver, apart).
/// Prints `BENCHMARK [snapcast] …` lines; writes snapcast.md and snapcast.json to the bench
/// folder. A benchmark, not a test: it fails only when it cannot measure.
final class SnapcastBenchmarkTests: XCTestCase {
    private var work: URL!
    private var house: SnapcastHouse?

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard ProcessInfo.processInfo.environment["AUBADE_BENCH"] == "1" else {
            throw XCTSkip("a benchmark: run it with `make bench BENCH=snapcast` (AUBADE_BENCH=1)")
        }
        try AudioSession.require()
        for tool in ["snapserver", "snapclient", "mpd"] where (try? Shell.which(tool)) == nil {
            throw XCTSkip("\(tool) is not installed (scripts/install-deps --bench)")
        }
        work = TestRunDirectory.url.appendingPathComponent("snapcast-bench", isDirectory: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try makeMusic()
        house = try SnapcastHouse()
    }

    override func tearDown() {
        house?.remove()
        if let work { try? FileManager.default.removeItem(at: work) }
        super.tearDown()
    }

    private var rounds: Int {
        Int(ProcessInfo.processInfo.environment["AUBADE_BENCH_RUNS"] ?? "").flatMap { $0 > 0 ? $0 : nil } ?? 3
    }

    private var noise: URL { work.appendingPathComponent("noise.mp3") }
    private var toneA: URL { work.appendingPathComponent("tone-a.mp3") }
    private var toneB: URL { work.appendingPathComponent("tone-b.mp3") }

    private func makeMusic() throws {
        let wav = work.appendingPathComponent("make.wav")
        for (file, synth, title) in [(noise, ["180", "pinknoise", "vol", "0.5"], "Bench Noise"),
                                     (toneA, ["5", "sine", "440", "vol", "0.5"], "Tone A"),
                                     (toneB, ["5", "sine", "660", "vol", "0.5"], "Tone B")] {
            let sox = try Shell.run("sox", ["-q", "-n", "-r", "48000", "-c", "2", "-b", "16", wav.path, "synth"] + synth)
            guard sox.succeeded else { throw DaemonError("sox: \(sox)") }
            let lame = try Shell.run("lame", ["--quiet", "-b", "192", "--add-id3v2", "--tt", title, wav.path, file.path], timeout: 120)
            guard lame.succeeded else { throw DaemonError("lame: \(lame)") }
        }
        try? FileManager.default.removeItem(at: wav)
    }

    func testAubadeBesideMPDIntoSnapcast() throws {
        var results: [String: [String: Any]] = [:]
        var lines: [String] = []
        // AUBADE_BENCH_SOURCES=mpd (or aubade) measures one alone, for a look at one of them.
        let chosen = ProcessInfo.processInfo.environment["AUBADE_BENCH_SOURCES"].map { $0.split(separator: ",").map(String.init) }
        for kind in SnapcastBenchmarkSource.Kind.allCases where chosen?.contains(kind.rawValue) ?? true {
            print("=== snapcast benchmark: \(kind.rawValue)")
            let (section, printed) = try measure(kind)
            results[kind.rawValue] = section
            lines += printed
        }
        for line in lines { print(line) }
        let root = try BenchmarkFiles.replaceSection(of: "pulseaudio", with: ["sources": results, "rounds": rounds],
                                                     in: "snapcast", benchmark: "Snapcast: Aubade beside mpd (issue 22)")
        try SnapcastBenchmarkReport.markdown(root).write(to: BenchmarkFiles.directory.appendingPathComponent("snapcast.md"),
                                                         atomically: true, encoding: .utf8)
    }

    // MARK: One source

    private func measure(_ kind: SnapcastBenchmarkSource.Kind) throws -> ([String: Any], [String]) {
        let server = try PrivateSnapserver(controlScript: kind == .aubade)
        try server.start()
        defer { server.remove() }
        let rooms = try ["kitchen", "garden"].map { try BenchRoom($0, server: server) }
        defer { rooms.forEach { $0.stop() } }
        try waitForRooms(server)

        // Noise: CPU, memory, the rooms' offset.
        var source = try SnapcastBenchmarkSource(kind, files: [noise], server: server, work: work)
        do {
            try waitUntilHeard()
        } catch {
            print("snapserver log:\n" + server.log.split(separator: "\n").suffix(30).joined(separator: "\n"))
            print(source.log)
            throw error
        }
        let (cpu, memory, script, offsets) = try playingFigures(source, server: server, seconds: 30)
        // PlayPause → silence.
        var silence: [Double] = []
        for _ in 0..<rounds {
            let recording = try HouseRecording()
            _ = recording.waitForSeconds(recording.seconds + 1.5, timeout: 10)
            let commandFrame = Int(recording.seconds * Double(HouseRecording.frameRate))
            _ = try source.playPause(pausing: true)
            _ = recording.waitForSeconds(recording.seconds + 3, timeout: 10)
            let audio = recording.stop().mapValues(ToneAnalysis.init)
            if let frame = silentFrom(commandFrame, audio) {
                silence.append(Double(frame - commandFrame) / Double(HouseRecording.frameRate) * 1000)
            }
            _ = try source.playPause(pausing: false)
            try waitUntilHeard()
        }
        source.stop()
        // Title change → heard.
        var titles: [Double] = []
        for _ in 0..<rounds {
            // The rooms still play the server's buffer of what came before: not taken for a tone.
            try waitUntilSilent()
            let recording = try HouseRecording()
            _ = recording.waitForSeconds(recording.seconds + 0.3, timeout: 10)
            source = try SnapcastBenchmarkSource(kind, files: [toneA, toneB], server: server, work: work)
            let published = try source.waitForTitle("Tone B", timeout: 20)
            _ = recording.waitForSeconds(recording.seconds + 2, timeout: 10)
            let kitchen = ToneAnalysis(recording.stop()[.kitchen] ?? Data())
            source.stop()
            guard let sounding = kitchen.soundingRange(),
                  let change = kitchen.pitchChange(in: sounding.lowerBound..<sounding.upperBound,
                                                   fromHalfPeriod: ToneAnalysis.rate / 880, toHalfPeriod: ToneAnalysis.rate / 1320),
                  let arrived = recording.arrival(ofFrame: Int(change)) else { continue }
            titles.append((published.timeIntervalSince1970 - (arrived.timeIntervalSince1970 - 0.02)) * 1000)
        }

        let name = kind == .aubade ? "Aubade" : "mpd"
        let figures = [
            Figure(key: "playPauseToSilence", name: "\(name): PlayPause → silence in both rooms", samples: silence,
                   targetMedianAtMost: nil, how: "the command to the first frame from which both rooms stay silent 300 ms"),
            Figure(key: "titleToHeard", name: "\(name): title change → heard in the rooms", samples: titles,
                   targetMedianAtMost: nil, how: "the source's word of the next song minus its first sample in the kitchen"),
            Figure(key: "roomsOffset", name: "\(name): the rooms' offset", samples: offsets, targetMedianAtMost: 5,
                   how: "kitchen vs garden, cross-correlation of 100 ms windows over 10 s of noise"),
        ]
        var printed = figures.map { $0.line(server: "snapcast") }
        printed.append(String(format: "BENCHMARK [snapcast] %@: CPU %.2f s per minute, peak RSS %.1f MB (the source process)",
                              name, cpu, memory))
        var section: [String: Any] = ["figures": figures.map(\.json), "cpuSecondsPerMinute": round3(cpu), "peakRSSMegabytes": round3(memory)]
        if let script {
            printed.append(String(format: "BENCHMARK [snapcast] Aubade's control script: CPU %.2f s per minute, peak RSS %.1f MB",
                                  script.cpu, script.memory))
            section["controlScript"] = ["cpuSecondsPerMinute": round3(script.cpu), "peakRSSMegabytes": round3(script.memory)]
        }
        return (section, printed)
    }

    /// CPU s/min and peak RSS (MB) of the source (and of the control script) over `seconds`
    /// of playing, and the rooms' offsets (ms) in that time.
    private func playingFigures(_ source: SnapcastBenchmarkSource, server: PrivateSnapserver, seconds: Double) throws
        -> (Double, Double, (cpu: Double, memory: Double)?, [Double]) {
        let script = ProcAccounting.tree(server.process?.pid ?? 0).dropFirst().first
        let before = ProcAccounting.cpuTicks(source.pid) ?? 0, scriptBefore = script.flatMap { ProcAccounting.cpuTicks($0) } ?? 0
        let start = Date()
        let recording = try HouseRecording()
        // The benchmark is about time itself: it plays for `seconds`.
        _ = recording.waitForSeconds(seconds, timeout: seconds + 20)
        let elapsed = Date().timeIntervalSince(start)
        let after = ProcAccounting.cpuTicks(source.pid) ?? 0, scriptAfter = script.flatMap { ProcAccounting.cpuTicks($0) } ?? 0
        let rooms = recording.stop().mapValues(ToneAnalysis.init)
        let perMinute = 60 / elapsed / ProcAccounting.ticksPerSecond
        let memory = Double(ProcAccounting.statusKilobytes(source.pid, "VmHWM") ?? 0) / 1024
        let scriptFigures = script.map { (Double(scriptAfter - scriptBefore) * perMinute,
                                          Double(ProcAccounting.statusKilobytes($0, "VmHWM") ?? 0) / 1024) }
        var offsets: [Double] = []
        if let kitchen = rooms[.kitchen], let garden = rooms[.garden] {
            let count = min(kitchen.samples.count, garden.samples.count)
            let rate = ToneAnalysis.rate
            var start = max(0, count - Int(10 * rate))
            while start + Int(rate) <= count {
                offsets.append(CrossCorrelation.offsets(kitchen.samples, garden.samples, span: start..<(start + Int(rate)),
                                                        rate: rate, maximumLag: Int(0.05 * rate)).median)
                start += Int(rate)
            }
        }
        return (Double(after - before) * perMinute, memory, scriptFigures, offsets)
    }

    /// The first frame from `from` on where both rooms stay silent for 300 ms.
    private func silentFrom(_ from: Int, _ rooms: [SnapcastHouse.Room: ToneAnalysis]) -> Int? {
        guard let kitchen = rooms[.kitchen], let garden = rooms[.garden] else { return nil }
        let length = Int(0.3 * ToneAnalysis.rate)
        let count = min(kitchen.samples.count, garden.samples.count)
        var quiet = 0
        for frame in max(0, from)..<count {
            quiet = abs(kitchen.samples[frame]) < 300 && abs(garden.samples[frame]) < 300 ? quiet + 1 : 0
            if quiet >= length { return frame - length + 1 }
        }
        return nil
    }

    private func waitUntilHeard(timeout: TimeInterval = 15) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            let recording = try HouseRecording()
            _ = recording.waitForSeconds(0.5, timeout: 5)
            let rooms = recording.stop().mapValues(ToneAnalysis.init)
            if rooms.values.allSatisfy({ $0.soundingRange(threshold: 3000) != nil }) { return }
        }
        throw DaemonError("the rooms did not hear the source within \(timeout) s")
    }

    private func waitUntilSilent(timeout: TimeInterval = 15) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            let recording = try HouseRecording()
            _ = recording.waitForSeconds(0.5, timeout: 5)
            let rooms = recording.stop().mapValues(ToneAnalysis.init)
            if rooms.values.allSatisfy({ $0.soundingRange(threshold: 300) == nil }) { return }
        }
        throw DaemonError("the rooms did not fall silent within \(timeout) s")
    }

    private func waitForRooms(_ server: PrivateSnapserver) throws {
        let client = try SnapcastRPC(port: server.controlPort)
        defer { client.close() }
        let deadline = Date(timeIntervalSinceNow: 15)
        while Date() < deadline {
            let status = try client.call("Server.GetStatus") as? [String: Any]
            let groups = (status?["server"] as? [String: Any])?["groups"] as? [[String: Any]] ?? []
            let connected = groups.flatMap { $0["clients"] as? [[String: Any]] ?? [] }.filter { $0["connected"] as? Bool == true }
            if connected.count >= 2 { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw DaemonError("the rooms did not connect")
    }
}

/// A snapclient to the PulseAudio sink of its name (as SnapcastRoom in the integration tests).
final class BenchRoom {
    let process: Subprocess
    init(_ name: String, server: PrivateSnapserver) throws {
        process = try Subprocess("snapclient", ["-h", "127.0.0.1", "-p", "\(server.streamPort)", "--player", "pulse",
                                                "--hostID", name, "--logsink", "stderr"], environment: ["PULSE_SINK": name])
    }
    func stop() { process.stop(grace: 3) }
}

/// snapcast.md from snapcast.json.
enum SnapcastBenchmarkReport {
    static func markdown(_ root: [String: Any]) -> String {
        var text = "# Snapcast: Aubade beside mpd (issue 22)\n\nMachine: \(root["machine"] ?? "?")\n\n"
        let section = ((root["servers"] as? [String: Any])?["pulseaudio"] as? [String: Any]) ?? [:]
        let sources = section["sources"] as? [String: [String: Any]] ?? [:]
        text += "| figure | Aubade | mpd | how |\n|---|---|---|---|\n"
        func figure(_ source: String, _ key: String) -> [String: Any]? {
            (sources[source]?["figures"] as? [[String: Any]])?.first { $0["key"] as? String == key }
        }
        for key in ["playPauseToSilence", "titleToHeard", "roomsOffset"] {
            let aubade = figure("aubade", key), mpd = figure("mpd", key)
            func cell(_ figure: [String: Any]?) -> String {
                guard let median = figure?["median"] as? Double else { return "—" }
                return String(format: "median %.1f ms (min %.1f, max %.1f, %d runs)", median, figure?["min"] as? Double ?? .nan,
                              figure?["max"] as? Double ?? .nan, figure?["runs"] as? Int ?? 0)
            }
            let name = (aubade?["name"] as? String ?? key).replacingOccurrences(of: "Aubade: ", with: "")
            text += "| \(name) | \(cell(aubade)) | \(cell(mpd)) | \(aubade?["how"] as? String ?? "") |\n"
        }
        func value(_ source: String, _ key: String) -> String {
            (sources[source]?[key] as? Double).map { String(format: "%.2f", $0) } ?? "—"
        }
        text += "| CPU per minute (s) | \(value("aubade", "cpuSecondsPerMinute")) | \(value("mpd", "cpuSecondsPerMinute")) | utime+stime of the source process over 30 s of pink noise |\n"
        text += "| peak RSS (MB) | \(value("aubade", "peakRSSMegabytes")) | \(value("mpd", "peakRSSMegabytes")) | VmHWM of the source process |\n"
        if let script = sources["aubade"]?["controlScript"] as? [String: Any] {
            text += String(format: "\nAubade's control script (aubade-snapcast, started by snapserver): CPU %.2f s per minute, peak RSS %.1f MB.\n",
                           script["cpuSecondsPerMinute"] as? Double ?? .nan, script["peakRSSMegabytes"] as? Double ?? .nan)
        }
        return text
    }
}
