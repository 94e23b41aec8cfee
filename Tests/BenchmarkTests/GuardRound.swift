import Foundation
@testable import TestSupport

/// What one round of the guard benchmark saw (GuardBenchmarkTests). Every time is in ms from
/// the moment the `pactl unload-module` of the headphones was issued (the clock read just
/// before the command was started).
struct GuardRoundResult {
    /// With `aubade guard` running (else: mpv alone, no Aubade process at all).
    var guarded: Bool
    /// → pactl returned.
    var commandReturned: Double
    /// → the headphones sink's `remove` event at the benchmark's PulseKit context.
    var sinkRemoved: Double?
    /// The first org.mpris.MediaPlayer2.Player call sent to mpv (as dbus-monitor stamped it).
    var firstPlayerCall: (member: String, fromGuard: Bool, at: Double)?
    /// Every Player call sent to mpv, "Pause from the guard at +12.3 ms".
    var playerCalls: [String]
    /// The first OtherPlayerDecision signal (dbus-monitor's stamp) and its arguments.
    var decision: (at: Double, action: String, player: String, reason: String)?
    var decisionCount: Int
    /// mpv's PropertiesChanged(PlaybackStatus "Paused") (dbus-monitor's stamp).
    var pausedSignal: Double?
    /// mpv's stream reported corked for good by the server.
    var corked: Double?
    /// Loud 5 ms windows of speakers.monitor within the window after the command (ms).
    var audioOnSpeakers: Double
    /// From the first to the last loud window (ms).
    var audioSpan: Double
    /// The start of the first loud window (ms), nil when none.
    var firstAudio: Double?
    /// mpv's PlaybackStatus read after the window.
    var statusAfter: String
}

/// Runs the rounds of the guard benchmark on the private audio session: mpv (with mpv-mpris,
/// which loads from /etc/mpv/scripts by itself) playing a tone to the default sink,
/// `headphones`, optionally `aubade guard`; the headphones unplugged (`pactl unload-module` of
/// their null sink: the server moves mpv's stream to `speakers`); speakers.monitor recorded
/// throughout, the bus watched by one dbus-monitor. Every process is started here and stopped by
/// PID before the round returns.
struct GuardRoundRunner {
    /// The round could not start as it should (before the unplug): worth one more try.
    struct NotReady: Error, CustomStringConvertible {
        var description: String
    }

    static let mpvName = "org.mpris.MediaPlayer2.mpv"
    static let guardName = "org.aubade.Guard"
    static let guardInterface = "org.aubade.Guard1"
    static let decisionMember = "OtherPlayerDecision"
    /// The recording window after the unload command, in which mpv's audio on the speakers is counted.
    static let windowSeconds = 3.0
    /// mpv playing on the headphones this long before the unplug (the guard sees its name and stream).
    static let settleSeconds = 1.0

    var timeline: PulseTimeline
    var work: URL
    var music: URL
    var aubadeBinary: String

    func run(guarded: Bool, round: Int) throws -> GuardRoundResult {
        try ensureHeadphones()
        timeline.clear()
        for name in [Self.mpvName] + (guarded ? [] : [Self.guardName, Daemon.busName]) where try Bus.nameHasOwner(name) {
            throw DaemonError("\(name) is owned before the round starts")
        }
        let home = work.appendingPathComponent("round-\(round)-\(guarded ? "guard" : "alone")", isDirectory: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }

        var guardProcess: Subprocess?
        defer { if let guardProcess { stop(guardProcess, owning: Self.guardName) } }
        if guarded { guardProcess = try startGuard(home: home) }

        let recorder = try MonitorRecorder(device: "speakers.monitor", logPath: home.appendingPathComponent("parec.log").path)
        defer { recorder.stop() }
        try recorder.waitUntilFlowing()

        let started = Stamp.now()
        let mpv = try Spawned("mpv", ["--no-video", "--no-terminal", "--ao=pulse", "--idle=no", music.path],
                              environment: Self.homeEnvironment(home.appendingPathComponent("mpv")),
                              logPath: home.appendingPathComponent("mpv.log").path)
        defer { stop(mpv) }
        let mpvOwner = try waitForMpv(mpv, since: started)
        let guardOwner = guarded ? try Bus.nameOwner(Self.guardName) : nil
        let monitor = try SignalMonitor(rules: [
            "type='signal',sender='\(mpvOwner)',interface='\(Bus.propertiesInterface)',member='PropertiesChanged'",
            "type='signal',interface='\(Self.guardInterface)'",
        ])
        defer { monitor.stop() }
        // Calls between two other parties are seen only by a monitor of the bus (dbus-monitor).
        let callWatch = try PlayerCallWatch()
        defer { callWatch.stop() }
        Thread.sleep(forTimeInterval: Self.settleSeconds)
        let before = try playbackStatus()
        guard before == "Playing" else { throw DaemonError("mpv is \(before), not Playing, before the unplug") }
        if let guardProcess, !guardProcess.isRunning {
            throw DaemonError("aubade guard exited before the unplug: \(guardProcess.stderr.text)")
        }

        // On PipeWire a stream that follows the default sink moves when wireplumber changes the
        // default on its own: the round is only valid if mpv still plays to the headphones.
        let names = try Pulse.sinkNames()
        let sinkNow = try Pulse.sinkInput(ofProcess: mpv.pid)?.sink.flatMap { names[$0] }
        guard sinkNow == "headphones" else {
            throw NotReady(description: "mpv's stream was moved to \(sinkNow ?? "?") before the unplug (default sink now "
                + "\((try? pactl(["get-default-sink"])) ?? "?"))")
        }
        let mark = monitor.mark
        let callMark = callWatch.mark
        let module = try HeadphonesSink.module()
        let command = Stamp.now()
        try pactl(["unload-module", String(module)])
        let returned = Stamp.now()
        let removed = timeline.sinkRemoved("headphones", after: command, timeout: 5)
        let windowEnd = command.monotonic + UInt64(Self.windowSeconds * 1e9)
        guard recorder.waitForCapture(through: windowEnd + 100_000_000, timeout: Self.windowSeconds + 10) else {
            throw DaemonError("parec did not record the \(Self.windowSeconds) s after the unplug: \(recorder.process.logTail())")
        }
        let isPaused: (MonitoredMessage) -> Bool = {
            $0.changedInterface == Bus.playerInterface && $0.changedProperties["PlaybackStatus"]?.string == "Paused"
        }
        if guarded { _ = monitor.waitForMessage(after: mark, timeout: 1, where: isPaused) }
        let statusAfter = (try? playbackStatus()) ?? "?"

        // The speakers: silent before the unplug (mpv was on the headphones), then whatever of mpv came.
        let recording = recorder.data
        guard let lead = recorder.byte(atTime: command.monotonic - 500_000_000),
              let from = recorder.byte(atTime: command.monotonic), let to = recorder.byte(atTime: windowEnd),
              to <= recording.count, lead < from else {
            throw DaemonError("the recording does not cover the unplug window (\(recording.count) bytes)")
        }
        let leadWindows = Loudness.windows(recording.subdata(in: lead..<from))
        if let first = leadWindows.firstIndex(of: true) {
            let loudBefore = Double(leadWindows.filter { $0 }.count) * Loudness.windowMilliseconds
            let start = Double(first - leadWindows.count) * Loudness.windowMilliseconds
            throw NotReady(description: "mpv's audio was on the speakers before the unplug (\(format(loudBefore)) ms of the "
                + "500 ms before it, the first at \(format(start)) ms; its stream on \(sinkNow ?? "?") just before it)")
        }
        // A window is 220 frames, 4.99 ms (Loudness counts it as 5 ms): counted exactly here, so
        // a fully loud 3 s window reads 3000 ms, not 3005.
        let windowMilliseconds = Double(Loudness.framesPerWindow) * 1000 / 44_100
        let windows = Loudness.windows(recording.subdata(in: from..<to))
        let loud = windows.filter { $0 }.count
        let first = windows.firstIndex(of: true)
        let last = windows.lastIndex(of: true)

        func since(_ wall: Double?) -> Double? { wall.map { ($0 - command.wall) * 1000 } }
        let messages = Array(monitor.messages.dropFirst(mark))
        let calls = callWatch.calls(after: callMark).filter { $0.destination == Self.mpvName || $0.destination == mpvOwner }
        let decisions = messages.filter { $0.kind == "signal" && $0.member == Self.decisionMember }
        let firstCall = calls.first.map { ($0.member ?? "?", guardOwner != nil && $0.sender == guardOwner, since($0.time) ?? .nan) }
        let decision = decisions.first.map {
            (since($0.time) ?? .nan, $0.arguments.first?.string ?? "?",
             $0.arguments.count > 1 ? $0.arguments[1].string ?? "?" : "?",
             $0.arguments.count > 2 ? $0.arguments[2].string ?? "?" : "?")
        }
        let corked = timeline.corkedForGood(ofProcess: mpv.pid, after: command).map { command.milliseconds(to: $0.at) }
        return GuardRoundResult(
            guarded: guarded, commandReturned: command.milliseconds(to: returned),
            sinkRemoved: removed.map { command.milliseconds(to: $0) },
            firstPlayerCall: firstCall,
            playerCalls: calls.map { call in
                let who = guardOwner != nil && call.sender == guardOwner ? "the guard" : (call.sender ?? "?")
                return "\(call.member ?? "?") from \(who) at \(since(call.time).map { String(format: "%+.1f ms", $0) } ?? "?")"
            },
            decision: decision, decisionCount: decisions.count,
            pausedSignal: since(messages.first(where: isPaused)?.time),
            corked: corked, audioOnSpeakers: Double(loud) * windowMilliseconds,
            audioSpan: first.map { Double(last! - $0 + 1) * windowMilliseconds } ?? 0,
            firstAudio: first.map { Double($0) * windowMilliseconds }, statusAfter: statusAfter)
    }

    // MARK: The processes

    static func homeEnvironment(_ home: URL) -> [String: String?] {
        [
            "HOME": home.path,
            "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
            "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path,
            "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
            "XDG_STATE_HOME": home.appendingPathComponent(".local/state").path,
        ]
    }

    /// `aubade guard`, with its own HOME; returns once it owns org.aubade.Guard.
    private func startGuard(home: URL) throws -> Subprocess {
        let process = try Subprocess(aubadeBinary, ["guard"], environment: Self.homeEnvironment(home.appendingPathComponent("guard")))
        let deadline = Date(timeIntervalSinceNow: 10)
        while Date() < deadline {
            if try Bus.nameHasOwner(Self.guardName) { return process }
            if let status = process.status {
                process.stderr.waitUntilClosed(timeout: 1)
                throw DaemonError("aubade guard exited with status \(status) before owning \(Self.guardName): \(process.stderr.text)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        process.stop()
        throw DaemonError("aubade guard did not own \(Self.guardName) within 10 s: \(process.stderr.text)")
    }

    /// mpv's name owned, its stream on the server uncorked and on the headphones, Playing; its unique name.
    private func waitForMpv(_ mpv: Spawned, since started: Stamp) throws -> String {
        let deadline = Date(timeIntervalSinceNow: 10)
        var owner: String?
        while owner == nil {
            owner = try Bus.nameOwner(Self.mpvName)
            if owner != nil { break }
            if !mpv.isRunning { throw DaemonError("mpv exited before owning \(Self.mpvName): \(mpv.logTail())") }
            guard Date() < deadline else {
                throw DaemonError("\(Self.mpvName) not owned 10 s after starting mpv (is mpv-mpris installed?)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        guard timeline.streamReport(ofProcess: mpv.pid, after: started, timeout: 10, where: { !$0.info.isCorked }) != nil else {
            throw DaemonError("no uncorked stream of mpv (pid \(mpv.pid)) on the server")
        }
        let sink = try Pulse.sinkInput(ofProcess: mpv.pid)?.sink.flatMap { try Pulse.sinkNames()[$0] }
        guard sink == "headphones" else { throw DaemonError("mpv plays on \(sink ?? "?"), not on the headphones") }
        return owner!
    }

    private func stop(_ mpv: Spawned) {
        mpv.stop(grace: 3)
        waitUntilUnowned(Self.mpvName)
    }

    private func stop(_ process: Subprocess, owning name: String) {
        process.stop(grace: 3)
        if ProcessInfo.processInfo.environment["AUBADE_BENCH_DEBUG"] == "1" {
            print("    aubade guard's log:\n" + process.stderr.lines.suffix(20).map { "      " + $0 }.joined(separator: "\n"))
        }
        waitUntilUnowned(name)
    }

    private func waitUntilUnowned(_ name: String) {
        let deadline = Date(timeIntervalSinceNow: 3)
        while Date() < deadline, (try? Bus.nameHasOwner(name)) == true { Thread.sleep(forTimeInterval: 0.02) }
    }

    private func playbackStatus() throws -> String {
        let reply = try Bus.call("\(Bus.propertiesInterface).Get", ["string:\(Bus.playerInterface)", "string:PlaybackStatus"],
                                 destination: Self.mpvName)
        guard reply.succeeded, let status = reply.values.first?.string else { throw BusError("Get PlaybackStatus of mpv: \(reply)") }
        return status
    }

    // MARK: The sinks

    @discardableResult
    func pactl(_ arguments: [String]) throws -> String {
        try HeadphonesSink.pactl(arguments)
    }

    /// The headphones sink as the harness made it, and the default sink.
    func ensureHeadphones() throws {
        try HeadphonesSink.ensure(refreshing: timeline)
    }
}

/// The Player method calls on the bus, whoever makes them to whomever: `dbus-monitor --session`
/// (a monitor of the bus sees calls between two other parties; a client's match rules do not),
/// its header lines read ("method call time=… sender=… -> destination=… … member=Pause").
final class PlayerCallWatch {
    struct Call {
        var member: String?
        var sender: String?
        var destination: String?
        /// Seconds since 1970, as dbus-monitor stamps it.
        var time: Double?
    }

    private let process: Subprocess

    init() throws {
        process = try Subprocess("dbus-monitor", ["--session", "type='method_call',interface='\(Bus.playerInterface)'"])
        // Listening once it has printed its own NameAcquired signal.
        guard process.stdout.waitForLine(containing: "NameAcquired", timeout: 10) != nil else {
            process.stop(grace: 1)
            throw DaemonError("dbus-monitor did not start: \(process.stderr.text)")
        }
    }

    func stop() { process.stop(grace: 1) }

    /// Lines so far: a mark for `calls(after:)`.
    var mark: Int { process.stdout.lines.count }

    func calls(after mark: Int) -> [Call] {
        process.stdout.lines.dropFirst(mark).filter { $0.hasPrefix("method call") }.map { header in
            func field(_ name: String) -> String? {
                header.split(separator: " ").first { $0.hasPrefix("\(name)=") }
                    .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: CharacterSet(charactersIn: ";")) }
            }
            return Call(member: field("member"), sender: field("sender"), destination: field("destination"),
                        time: field("time").flatMap(Double.init))
        }
    }
}
