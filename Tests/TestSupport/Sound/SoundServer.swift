import Foundation
import XCTest

/// Which sound server `scripts/audio-session --server …` started, as it tells us through
/// `AUBADE_SOUND_SERVER`. Both speak the PulseAudio protocol (PipeWire through pipewire-pulse),
/// so pactl, parec and paplay work on both; what differs is policy: PulseAudio runs
/// module-role-cork (a phone stream sends our stream a cork request), PipeWire has none, and
/// WirePlumber moves streams back to the default sink when it returns.
enum SoundServer: String {
    case pulseaudio
    case pipewire

    /// Unset (an older harness, or a session started by hand) means PulseAudio.
    static var current: SoundServer {
        let value = ProcessInfo.processInfo.environment["AUBADE_SOUND_SERVER"] ?? ""
        return SoundServer(rawValue: value) ?? .pulseaudio
    }

    /// PulseAudio's module-role-cork sends `request-cork` for a phone stream; PipeWire never does.
    var sendsCorkRequests: Bool { self == .pulseaudio }
}

/// One `module-null-sink` as `pactl list short modules` lists it.
struct NullSinkModule {
    var index: Int
    var sinkName: String
}

/// The harness's two fake devices and the sink changes the audio-session tests make.
extension Pulse {
    static let headphonesProperties = "device.form_factor=headphone device.description=Headphones"
    static let speakersProperties = "device.form_factor=speaker device.description=Speakers"

    @discardableResult
    static func pactl(_ arguments: [String], timeout: TimeInterval = 20) throws -> String {
        let result = try Shell.run("pactl", arguments, timeout: timeout)
        guard result.succeeded else { throw BusError("pactl \(arguments.joined(separator: " ")) failed: \(result)") }
        return result.trimmedOutput
    }

    /// "Server Name" from `pactl info`: "pulseaudio" or "PulseAudio (on PipeWire 0.3.65)".
    static func serverName() throws -> String {
        let info = try pactl(["info"])
        for line in info.split(separator: "\n") where line.hasPrefix("Server Name: ") {
            return String(line.dropFirst("Server Name: ".count))
        }
        throw BusError("no Server Name in pactl info: \(info)")
    }

    static func defaultSink() throws -> String {
        try pactl(["get-default-sink"])
    }

    /// The loaded null-sink modules, with the sink each one made.
    static func nullSinkModules() throws -> [NullSinkModule] {
        var modules: [NullSinkModule] = []
        for line in try pactl(["list", "short", "modules"]).split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 3, fields[1] == "module-null-sink", let index = Int(fields[0]) else { continue }
            // PulseAudio keeps the quotes of sink_properties="…", PipeWire drops them; sink_name
            // is a plain word on both.
            for word in fields[2].split(separator: " ") where word.hasPrefix("sink_name=") {
                var name = word.dropFirst("sink_name=".count)
                if name.hasPrefix("\""), name.hasSuffix("\""), name.count >= 2 { name = name.dropFirst().dropLast() }
                modules.append(NullSinkModule(index: index, sinkName: String(name)))
            }
        }
        return modules
    }

    /// Loads a null sink; returns its module index.
    @discardableResult
    static func loadNullSink(_ name: String, properties: String? = nil) throws -> Int {
        var arguments = ["load-module", "module-null-sink", "sink_name=\(name)"]
        // The quotes must reach the server: PulseAudio's module arguments split at spaces
        // otherwise ("Module initialization failed"). PipeWire takes both forms.
        if let properties { arguments.append("sink_properties=\"\(properties)\"") }
        let output = try pactl(arguments)
        guard let index = Int(output) else { throw BusError("pactl load-module printed \(output.debugDescription)") }
        return index
    }

    /// Unloads the null sink called `name`: the device "goes away".
    static func unloadNullSink(_ name: String) throws {
        guard let module = try nullSinkModules().first(where: { $0.sinkName == name }) else {
            throw BusError("no module-null-sink with sink_name=\(name) is loaded")
        }
        try pactl(["unload-module", String(module.index)])
    }

    /// `pactl move-sink-input INDEX SINK`, repeated (up to 3 times) until the stream is on `sink`.
    ///
    /// Why repeat: on PipeWire 0.3.65 / WirePlumber 0.4.13 the move is sometimes lost although
    /// pactl succeeds. Seen here with a fresh daemon's stream (about 1 in 10 moves, also 0.5 s
    /// and 1 s after the stream started): pipewire-pulse writes `target.object` for the
    /// stream's node id into the default metadata, and in the failing case the metadata holds
    /// no target afterwards and no sink-input event follows; node ids are reused from the
    /// previous test's stream, whose stale metadata entry WirePlumber clears. The tests are
    /// about the daemon's reaction to a move, so a lost move is simply made again.
    static func moveSinkInput(_ index: Int, to sink: String) throws {
        for _ in 0..<3 {
            try pactl(["move-sink-input", String(index), sink])
            let deadline = Date(timeIntervalSinceNow: 1)
            while Date() < deadline {
                if let input = try sinkInputs().first(where: { $0.index == index }), try sinkName(of: input) == sink {
                    return
                }
                Thread.sleep(forTimeInterval: 0.02)
            }
            print("pactl move-sink-input \(index) \(sink): the stream did not move within 1 s; moving again")
        }
        throw BusError("sink input \(index) is not on \(sink) after 3 moves")
    }

    /// The name of the sink a stream plays on.
    static func sinkName(of input: SinkInput) throws -> String? {
        guard let sink = input.sink else { return nil }
        return try sinkNames()[sink]
    }

    /// Puts the devices back as `scripts/audio-session` made them: both null sinks present
    /// (missing ones reloaded), any other null sink unloaded, `headphones` the default.
    /// Polls until the server (and on PipeWire WirePlumber, which picks the default) agrees.
    static func restoreStandardSinks(timeout: TimeInterval = 10) throws {
        // Most tests change no sink: two pactl calls find the sinks as they were (the loop below
        // makes five, and every audio-session test restores twice, thousands of pactl a run).
        if Set(try sinkNames().values) == ["headphones", "speakers"], (try? defaultSink()) == "headphones" { return }
        let modules = try nullSinkModules()
        for module in modules where module.sinkName != "headphones" && module.sinkName != "speakers" {
            try pactl(["unload-module", String(module.index)])
        }
        let present = Set(modules.map(\.sinkName))
        if !present.contains("speakers") { try loadNullSink("speakers", properties: speakersProperties) }
        if !present.contains("headphones") { try loadNullSink("headphones", properties: headphonesProperties) }
        let deadline = Date(timeIntervalSinceNow: timeout)
        var last = ""
        while true {
            // Set again on every round: WirePlumber may still be settling after a sink came back.
            // Via "speakers" first: PipeWire keeps "headphones" as the configured default while
            // it is gone, and setting the same value again is no change that WirePlumber sees.
            if (try? defaultSink()) != "headphones" { try? pactl(["set-default-sink", "speakers"]) }
            try? pactl(["set-default-sink", "headphones"])
            let names = Set(try sinkNames().values)
            last = (try? defaultSink()) ?? "?"
            if last == "headphones", names.isSuperset(of: ["headphones", "speakers"]) { return }
            if Date() >= deadline {
                throw BusError("sinks not restored after \(timeout) s: sinks \(names.sorted()), default \(last)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Whether PulseAudio's module-role-cork is loaded (never on PipeWire).
    static func roleCorkIsLoaded() throws -> Bool {
        try pactl(["list", "short", "modules"]).contains("module-role-cork")
    }
}

/// `parec` on a sink's monitor, running in the background until stopped, so a recording can
/// cover an event (a sink going away) that happens while it runs.
///
/// A null sink's monitor delivers its data late (up to ~2 s) and in bursts: "how much audio has
/// arrived" (`seconds`) is the clock to wait on, not wall time.
final class MonitorRecording {
    static let bytesPerSecond = 44_100 * 2 * 2
    let device: String
    private let recorder: Subprocess

    init(device: String) throws {
        self.device = device
        recorder = try Subprocess("parec", ["--raw", "--format=s16le", "--rate=44100", "--channels=2",
                                            "--latency-msec=20", "-d", device], binaryStdout: true)
    }

    /// Seconds of audio received so far.
    var seconds: Double { Double(recorder.stdout.data.count) / Double(MonitorRecording.bytesPerSecond) }

    /// Waits until `seconds` of audio in total have arrived.
    func waitForAudio(seconds wanted: Double, timeout: TimeInterval) throws {
        let bytes = Int(wanted * Double(MonitorRecording.bytesPerSecond))
        guard recorder.stdout.waitForByteCount(bytes, timeout: timeout) else {
            throw BusError("parec -d \(device) delivered \(String(format: "%.2f", seconds)) of \(wanted) s "
                           + "within \(timeout) s: \(recorder.stderr.text)")
        }
    }

    /// Stops parec (by PID) and returns everything recorded.
    func stop() -> Data {
        recorder.stop(signal: SIGINT, grace: 2)
        recorder.stdout.waitUntilClosed(timeout: 2)
        return recorder.stdout.data
    }

    deinit {
        recorder.stop(signal: SIGINT, grace: 1)
    }
}

/// How much of a recording is sound, measured in short windows: a sine wave crosses zero, so
/// single samples would undercount; a 5 ms window with a peak above the threshold is sound.
struct SoundDuration: CustomStringConvertible {
    static let windowFrames = 220  // 5 ms at 44.1 kHz
    var soundWindows: Int
    var totalWindows: Int
    /// Seconds from the first to the end of the last sounding window (0 when none).
    var span: Double

    var seconds: Double { Double(soundWindows * SoundDuration.windowFrames) / 44_100 }
    var description: String {
        String(format: "%.0f ms of sound in %d windows of 5 ms (first to last %.0f ms) out of %.2f s recorded",
               seconds * 1000, soundWindows, span * 1000,
               Double(totalWindows * SoundDuration.windowFrames) / 44_100)
    }

    /// `threshold`: peak sample value (of 32768) above which a window counts; our tones peak at
    /// ~16 400, a null sink's silence is 0, resampling noise stays far below 64.
    static func measure(_ recording: Data, threshold: Int = 256) -> SoundDuration {
        var sound = 0
        var windows = 0
        var first: Int?
        var last: Int?
        recording.withUnsafeBytes { buffer in
            let samples = buffer.count / 2
            let samplesPerWindow = windowFrames * 2
            var offset = 0
            while offset + samplesPerWindow <= samples {
                var peak = 0
                for sample in offset..<(offset + samplesPerWindow) {
                    let value = Int(Int16(littleEndian: buffer.loadUnaligned(fromByteOffset: sample * 2, as: Int16.self)))
                    peak = max(peak, abs(value))
                }
                if peak > threshold {
                    sound += 1
                    if first == nil { first = windows }
                    last = windows
                }
                windows += 1
                offset += samplesPerWindow
            }
        }
        let span = first.map { Double((last! - $0 + 1) * windowFrames) / 44_100 } ?? 0
        return SoundDuration(soundWindows: sound, totalWindows: windows, span: span)
    }
}

/// The `a{sv}` route dictionaries of org.aubade.AudioSession1, read as strings.
struct Route: CustomStringConvertible {
    var values: [String: TypedBusValue]

    init(_ value: TypedBusValue?) {
        values = value?.dictionary ?? [:]
    }

    var portType: String? { values["portType"]?.string }
    var sinkName: String? { values["sinkName"]?.string }
    var description: String {
        values.keys.sorted().map { "\($0)=\(values[$0]?.string ?? String(describing: values[$0]!))" }
            .joined(separator: " ")
    }
}

/// A signal of org.aubade.AudioSession1 as the monitor saw it.
extension MonitoredMessage {
    var isAudioSessionSignal: Bool { kind == "signal" && interface == AudioSessionBus.interface }

    /// RouteChanged's reason, previous and current route; nil until all three arguments arrived.
    var routeChange: (reason: String, previous: Route, current: Route)? {
        guard isAudioSessionSignal, member == "RouteChanged", arguments.count == 3,
              let reason = arguments[0].string else { return nil }
        return (reason, Route(arguments[1]), Route(arguments[2]))
    }

    /// InterruptionEnded's shouldResume; nil until its argument arrived.
    ///
    /// SignalMonitor cannot tell a message without arguments from one whose argument lines
    /// dbus-monitor has not written yet (seen on PipeWire: the header came alone, `boolean true`
    /// a moment later), so waits for signals that have arguments must ask for them.
    var interruptionEndedShouldResume: Bool? {
        guard isAudioSessionSignal, member == "InterruptionEnded" else { return nil }
        return arguments.first?.bool
    }
}

/// org.aubade.AudioSession1 on /org/aubade/Player.
enum AudioSessionBus {
    static let interface = "org.aubade.AudioSession1"

    static func currentRoute() throws -> Route {
        Route(try Bus.get(interface, "CurrentRoute"))
    }

    static func pauseReason() throws -> String {
        guard let reason = try Bus.get(interface, "PauseReason").string else { throw BusError("PauseReason is not a string") }
        return reason
    }

    static func resumeOnReconnect() throws -> Bool {
        guard let value = try Bus.get(interface, "ResumeOnReconnect").bool else {
            throw BusError("ResumeOnReconnect is not a boolean")
        }
        return value
    }
}

/// The sound of a phone call: a 16-bit stereo WAV (sox) that `paplay --property=media.role=phone`
/// plays as the interrupting stream.
enum PhoneCall {
    private static let made = Result { try make(seconds: 2) }
    private static let madeLong = Result { try make(seconds: 20) }

    private static func make(seconds: Int) throws -> URL {
        try FixtureCache.folder("phone-\(seconds)s") { try make(seconds: seconds, in: $0) }
            .appendingPathComponent("phone-\(seconds)s.wav")
    }

    private static func make(seconds: Int, in folder: URL) throws {
        let url = folder.appendingPathComponent("phone-\(seconds)s.wav")
        let result = try Shell.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", url.path,
                                           "synth", String(seconds), "sine", "880", "vol", "0.3"])
        guard result.succeeded else { throw DaemonError("making the \(seconds) s phone WAV failed: \(result)") }
    }

    /// The 2 s WAV, made once per test run.
    static func wav() throws -> URL { try made.get() }

    /// A call long enough for any test (20 s), which the test ends when it wants; made once.
    static func longWav() throws -> URL { try madeLong.get() }

    /// Starts `paplay --property=media.role=phone WAV` on the default sink.
    static func start() throws -> Subprocess {
        try Subprocess("paplay", ["--property=media.role=phone", "--property=application.name=Phone call",
                                  try wav().path])
    }
}
