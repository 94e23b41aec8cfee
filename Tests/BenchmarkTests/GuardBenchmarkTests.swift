import Foundation
import XCTest
@testable import TestSupport

/// The guard benchmark of issue 13, run by `make bench BENCH=guard` on PulseAudio and on
/// PipeWire (skipped unless `AUBADE_BENCH=1`, and without mpv + mpv-mpris: `make bench` installs them (bench-deps)).
///
/// Another player, mpv with mpv-mpris (`mpv --no-video --no-terminal --ao=pulse --idle=no TONE`,
/// its own HOME, on the default sink `headphones`), plays a 60 s 440 Hz tone; the headphones
/// go away (`pactl unload-module` of their null sink: the server moves the stream to
/// `speakers`). In each of `AUBADE_BENCH_RUNS` rounds (default 5) this happens twice, in an
/// order that alternates between rounds:
/// - with `aubade guard` running (the binary in `AUBADE_BINARY`, a release one from `make bench`),
///   started before mpv, as a user's session has it: unload command → the guard's call to
///   mpv's Player (which member, from whom), → the guard's OtherPlayerDecision signal, → mpv's
///   PropertiesChanged(PlaybackStatus "Paused"), → mpv's stream corked on the server; and how
///   much of mpv's audio reached `speakers.monitor` in the 3 s after the command;
/// - without any Aubade process: the same recording window (mpv plays on: all of it).
/// A round whose mpv is not on the headphones (and silent on the speakers) just before the
/// unplug — on PipeWire wireplumber sometimes changes the default sink, and mpv follows it — is
/// started once more; the printout says so.
/// Prints `BENCHMARK [server] …` lines; writes `guard.md` and `guard.json` to the bench folder.
/// A benchmark, not a test: it fails only when it cannot measure.
final class GuardBenchmarkTests: XCTestCase {
    private var timeline: PulseTimeline!
    private var work: URL!
    private var music: URL!
    private var aubadeBinary = ""
    private let server = ProcessInfo.processInfo.environment["AUBADE_SOUND_SERVER"] ?? "pulseaudio"

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard ProcessInfo.processInfo.environment["AUBADE_BENCH"] == "1" else {
            throw XCTSkip("a benchmark: run it with `make bench BENCH=guard` (AUBADE_BENCH=1)")
        }
        try AudioSession.require()
        guard (try? Shell.which("mpv")) != nil, FileManager.default.fileExists(atPath: "/etc/mpv/scripts/mpris.so") else {
            print("BENCHMARK [\(server)] guard: skipped: mpv + mpv-mpris not installed (make bench-deps installs them)")
            throw XCTSkip("mpv and mpv-mpris are not installed (make bench-deps installs them)")
        }
        for name in [Daemon.busName, GuardRoundRunner.guardName, GuardRoundRunner.mpvName] where try Bus.nameHasOwner(name) {
            throw DaemonError("\(name) is already owned on this bus")
        }
        aubadeBinary = try Daemon.binaryPath()
        work = TestRunDirectory.url.appendingPathComponent("guard", isDirectory: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try makeMusic()
        timeline = try PulseTimeline()
    }

    override func tearDown() {
        timeline?.close()
        timeline = nil
        if let work { try? FileManager.default.removeItem(at: work) }
        super.tearDown()
    }

    private var runs: Int {
        Int(ProcessInfo.processInfo.environment["AUBADE_BENCH_RUNS"] ?? "").flatMap { $0 > 0 ? $0 : nil } ?? 5
    }

    // MARK: The benchmark

    func testGuardPausesMpvOnUnplug() throws {
        let serverName = PeerRunFacts.soundServer()
        let window = GuardRoundRunner.windowSeconds * 1000
        let binaryNote = (ProcessInfo.processInfo.environment["AUBADE_BINARY"] ?? "").isEmpty
            ? "\(aubadeBinary) (AUBADE_BINARY not set: probably a debug build; make bench passes the release one)"
            : aubadeBinary
        let versions = PeerRunFacts.versions(aubadeBinary: aubadeBinary, players: [.mpv])
        print("BENCHMARK [\(server)] guard: \(runs) rounds on \(serverName), each with `aubade guard` and without Aubade; "
            + "\(versions["mpv"] ?? "mpv"); aubade: \(binaryNote)")
        let origin = "from the unplug: `pactl unload-module` of the headphones null sink issued (the clock read just before "
            + "pactl starts)"
        let stamp = "as stamped by one dbus-monitor (wall clock, µs) watching Player calls, mpv's PropertiesChanged and the "
            + "guard's signals"
        var pauseCall = Figure(key: "unplugToPauseCall", name: "unplug → the guard's Pause call to mpv", samples: [],
                               targetMedianAtMost: nil, how: "\(origin) to the first org.mpris.MediaPlayer2.Player call sent "
                                + "to mpv, \(stamp); only a Pause from the guard's connection counts (strict Pause)")
        var decision = Figure(key: "unplugToDecisionSignal", name: "unplug → OtherPlayerDecision(pause) signal", samples: [],
                              targetMedianAtMost: nil, how: "\(origin) to the guard's org.aubade.Guard1.OtherPlayerDecision "
                                + "signal with action \"pause\", \(stamp)")
        var paused = Figure(key: "unplugToMpvPaused", name: "unplug → mpv's PropertiesChanged(Paused)", samples: [],
                            targetMedianAtMost: nil, how: "\(origin) to PropertiesChanged(PlaybackStatus \"Paused\") from "
                                + "mpv's connection, \(stamp); includes mpv-mpris's own delay in announcing it")
        var corked = Figure(key: "unplugToMpvCorked", name: "unplug → mpv's stream corked", samples: [],
                            targetMedianAtMost: nil, how: "\(origin) to the sink-input event after which mpv's stream reads "
                                + "corked for good (PulseKit subscription in the benchmark; a transient cork while the server "
                                + "moves the stream does not count)")
        var guardedAudio = Figure(key: "audioOnSpeakersWithGuard", name: "mpv's audio on the speakers after unplug, aubade guard running",
                                  samples: [], targetMedianAtMost: nil,
                                  how: "parec of speakers.monitor (started before mpv; bytes put on the monotonic clock): loud "
                                    + "5 ms windows (220 frames, RMS > 500; counted as 4.99 ms each) in the \(format(window)) ms after the unload command was issued; the "
                                    + "0.5 s before it must be silent (mpv was on the headphones)")
        var aloneAudio = Figure(key: "audioOnSpeakersWithoutAubade", name: "mpv's audio on the speakers after unplug, without Aubade",
                                samples: [], targetMedianAtMost: nil,
                                how: "the same recording window, no Aubade process running: mpv plays on (the window is "
                                    + "\(format(window)) ms; what is missing is the start, before the moved stream is heard)")
        var aloneFirst = Figure(key: "firstAudioOnSpeakersWithoutAubade", name: "unplug → mpv's first audio on the speakers, without Aubade",
                                samples: [], targetMedianAtMost: nil,
                                how: "\(origin) to the start of the first loud 5 ms window of speakers.monitor in the rounds "
                                    + "without Aubade (the server's move of the stream, and the null sink's latency; ±10 ms)")
        var removal = Figure(key: "unloadToSinkRemoved", name: "unload command → headphones sink `remove` event", samples: [],
                             targetMedianAtMost: nil, how: "\(origin) to the sink `remove` event at the benchmark's PulseKit "
                                + "context, all rounds (for reading the figures above: the server's own part)")
        var roundsJSON: [[String: Any]] = []
        var strictness: [String] = []
        var retries: [String] = []

        let runner = GuardRoundRunner(timeline: timeline, work: work, music: music, aubadeBinary: aubadeBinary)
        for round in 1...runs {
            for guarded in round % 2 == 1 ? [true, false] : [false, true] {
                let label = guarded ? "with aubade guard" : "without Aubade"
                do {
                    let result: GuardRoundResult
                    do {
                        result = try runner.run(guarded: guarded, round: round)
                    } catch let error as GuardRoundRunner.NotReady {
                        print("  round \(round) \(label): \(error); once more")
                        retries.append("round \(round) \(label): \(error)")
                        try runner.ensureHeadphones()
                        result = try runner.run(guarded: guarded, round: round)
                    }
                    roundsJSON.append(Self.json(result, round: round))
                    if let removed = result.sinkRemoved { removal.samples.append(removed) }
                    if guarded {
                        guardedAudio.samples.append(result.audioOnSpeakers)
                        if let call = result.firstPlayerCall, call.member == "Pause", call.fromGuard {
                            pauseCall.samples.append(call.at)
                        } else {
                            pauseCall.failures.append("round \(round): \(result.playerCalls.isEmpty ? "no Player call to mpv" : result.playerCalls.joined(separator: ", "))")
                        }
                        if result.playerCalls.count > 1 || result.firstPlayerCall?.member != "Pause" {
                            strictness.append("round \(round): \(result.playerCalls.joined(separator: ", "))")
                        }
                        if let found = result.decision, found.action == "pause" { decision.samples.append(found.at) } else {
                            decision.failures.append("round \(round): \(result.decision.map { "action \($0.action)" } ?? "no signal")")
                        }
                        if let at = result.pausedSignal { paused.samples.append(at) } else { paused.failures.append("round \(round): none") }
                        if let at = result.corked { corked.samples.append(at) } else { corked.failures.append("round \(round): not corked") }
                    } else {
                        aloneAudio.samples.append(result.audioOnSpeakers)
                        if let first = result.firstAudio { aloneFirst.samples.append(first) }
                    }
                    print(Self.line(result, round: round))
                } catch {
                    let message = "round \(round) \(label): \(error)"
                    print("  \(message)")
                    if guarded { guardedAudio.failures.append(message) } else { aloneAudio.failures.append(message) }
                }
                do { try runner.ensureHeadphones() } catch { print("  could not restore the headphones sink: \(error)") }
            }
        }

        let figures = [pauseCall, decision, paused, corked, guardedAudio, aloneAudio, aloneFirst, removal]
        for figure in figures { print(figure.line(server: server)) }
        if let with = guardedAudio.median, let without = aloneAudio.median {
            print("BENCHMARK [\(server)] guard: of the \(format(window)) ms after the unplug, mpv's audio reached the speakers for "
                + "\(format(with)) ms (median) with aubade guard running, \(format(without)) ms without Aubade")
        }
        for line in strictness { print("BENCHMARK [\(server)] guard: not a single strict Pause in \(line)") }
        for line in retries { print("BENCHMARK [\(server)] guard: started once more: \(line)") }
        try GuardReport.write(server: server, section: [
            "serverName": serverName,
            "date": ISO8601DateFormatter().string(from: Date()),
            "runs": runs,
            "windowMs": window,
            "settleMs": GuardRoundRunner.settleSeconds * 1000,
            "aubade": binaryNote,
            "versions": versions,
            "figures": figures.map(\.json),
            "rounds": roundsJSON,
            "strictnessNotes": strictness,
            "retries": retries,
        ])
        print("BENCHMARK written to \(BenchmarkFiles.directory.path)/guard.json and .md")
        XCTAssertFalse(aloneAudio.samples.isEmpty, "no round without Aubade measured: \(aloneAudio.failures)")
        XCTAssertFalse(guardedAudio.samples.isEmpty, "no round with aubade guard measured: \(guardedAudio.failures)")
    }

    // MARK: Printing

    private static func ms(_ value: Double?) -> String { value.map { String(format: "%+.1f ms", $0) } ?? "none" }

    private static func line(_ result: GuardRoundResult, round: Int) -> String {
        var text = "  round \(round) \(result.guarded ? "with aubade guard" : "without Aubade"): "
            + "speakers got \(format(result.audioOnSpeakers)) ms of mpv (first at \(ms(result.firstAudio)), span "
            + "\(format(result.audioSpan)) ms) of \(format(GuardRoundRunner.windowSeconds * 1000)) ms; "
        if result.guarded {
            text += "Player calls: \(result.playerCalls.isEmpty ? "none" : result.playerCalls.joined(separator: ", ")); "
            text += "decision \(result.decision.map { "\($0.action) \($0.player) \($0.reason) at \(ms($0.at))" } ?? "none")"
            text += result.decisionCount > 1 ? " (\(result.decisionCount) signals); " : "; "
            text += "Paused signal \(ms(result.pausedSignal)), corked \(ms(result.corked)); "
        } else if !result.playerCalls.isEmpty {
            text += "Player calls (none expected): \(result.playerCalls.joined(separator: ", ")); "
        }
        text += "mpv \(result.statusAfter) after the window; sink removed \(ms(result.sinkRemoved)), pactl returned \(ms(result.commandReturned))"
        return text
    }

    private static func json(_ result: GuardRoundResult, round: Int) -> [String: Any] {
        var object: [String: Any] = [
            "round": round, "guarded": result.guarded, "commandReturnedMs": round3(result.commandReturned),
            "audioOnSpeakersMs": result.audioOnSpeakers, "audioSpanMs": result.audioSpan,
            "playerCalls": result.playerCalls, "statusAfterWindow": result.statusAfter,
            "decisionSignals": result.decisionCount,
        ]
        if let removed = result.sinkRemoved { object["sinkRemovedMs"] = round3(removed) }
        if let call = result.firstPlayerCall {
            object["firstPlayerCall"] = ["member": call.member, "fromGuard": call.fromGuard, "ms": round3(call.at)]
        }
        if let decision = result.decision {
            object["decision"] = ["action": decision.action, "player": decision.player, "reason": decision.reason,
                                  "ms": round3(decision.at)]
        }
        if let paused = result.pausedSignal { object["pausedSignalMs"] = round3(paused) }
        if let corked = result.corked { object["corkedMs"] = round3(corked) }
        if let first = result.firstAudio { object["firstAudioOnSpeakersMs"] = first }
        return object
    }

    // MARK: Set-up

    /// 60 s of 440 Hz at half amplitude, 192 kb/s MP3: longer than any round, continuous (every
    /// loud window on the speakers is mpv's).
    private func makeMusic() throws {
        music = work.appendingPathComponent("guard-440.mp3")
        let wav = work.appendingPathComponent("guard-440.wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        let sox = try Shell.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav.path, "synth", "60", "sine", "440", "vol", "0.5"])
        guard sox.succeeded else { throw DaemonError("sox failed: \(sox)") }
        let lame = try Shell.run("lame", ["--quiet", "-b", "192", "--add-id3v2", "--tt", "Guard benchmark tone", "--ta", "Aubade",
                                          wav.path, music.path], timeout: 120)
        guard lame.succeeded else { throw DaemonError("lame failed: \(lame)") }
    }
}
