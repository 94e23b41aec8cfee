import Foundation

/// One playback stream as `pactl list sink-inputs` describes it.
struct SinkInput: CustomStringConvertible {
    var index: Int
    var sink: Int?
    var corked: Bool?
    var muted: Bool?
    /// Per channel, as pactl prints it ("40%").
    var volumePercents: [Int] = []
    var properties: [String: String] = [:]

    var processID: Int32? { properties["application.process.id"].flatMap { Int32($0) } }
    var description: String {
        "Sink Input #\(index) sink \(sink.map(String.init) ?? "?") corked \(corked.map(String.init) ?? "?") "
            + "volume \(volumePercents) \(properties)"
    }
}

/// What a recording held: enough to tell sound from silence.
struct AudioLevels: CustomStringConvertible {
    var frames: Int
    /// Root mean square and peak of the 16-bit samples (0…32768).
    var rms: Double
    var peak: Int

    /// Our test tones are at half amplitude (RMS ≈ 11 600); silence from a null sink is 0.
    var isSound: Bool { rms > 500 }
    var isSilence: Bool { peak < 64 }
    var description: String { "\(frames) frames, RMS \(Int(rms)), peak \(peak)" }
}

/// The private PulseAudio of `scripts/audio-session`, through pactl and parec.
enum Pulse {
    static func sinkInputs() throws -> [SinkInput] {
        let result = try Shell.run("pactl", ["list", "sink-inputs"])
        guard result.succeeded else { throw BusError("pactl list sink-inputs failed: \(result)") }
        return parseSinkInputs(result.stdout)
    }

    /// The daemon's stream: the sink input whose client runs in process `pid`.
    static func sinkInput(ofProcess pid: Int32) throws -> SinkInput? {
        try sinkInputs().first { $0.processID == pid }
    }

    /// Sink index → name ("headphones", "speakers").
    static func sinkNames() throws -> [Int: String] {
        let result = try Shell.run("pactl", ["list", "short", "sinks"])
        guard result.succeeded else { throw BusError("pactl list short sinks failed: \(result)") }
        var names: [Int: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            let fields = line.split(separator: "\t")
            if fields.count >= 2, let index = Int(fields[0]) { names[index] = String(fields[1]) }
        }
        return names
    }

    static func parseSinkInputs(_ text: String) -> [SinkInput] {
        var inputs: [SinkInput] = []
        var inProperties = false
        for rawLine in text.split(separator: "\n") {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("Sink Input #"), let index = Int(line.dropFirst("Sink Input #".count)) {
                inputs.append(SinkInput(index: index))
                inProperties = false
                continue
            }
            guard !inputs.isEmpty else { continue }
            let last = inputs.count - 1
            if inProperties, let equals = line.range(of: " = ") {
                let key = String(line[..<equals.lowerBound])
                var value = String(line[equals.upperBound...])
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                    value = String(value.dropFirst().dropLast())
                }
                inputs[last].properties[key] = value
                continue
            }
            if line == "Properties:" {
                inProperties = true
            } else if line.hasPrefix("Sink:") {
                inputs[last].sink = Int(line.dropFirst("Sink:".count).trimmingCharacters(in: .whitespaces))
            } else if line.hasPrefix("Corked:") {
                inputs[last].corked = line.hasSuffix("yes")
            } else if line.hasPrefix("Mute:") {
                inputs[last].muted = line.hasSuffix("yes")
            } else if line.hasPrefix("Volume:") {
                // "Volume: front-left: 26214 /  40% / -23.88 dB,   front-right: 26214 /  40% / -23.88 dB"
                inputs[last].volumePercents = line.split(separator: "/").compactMap { part in
                    let trimmed = part.trimmingCharacters(in: .whitespaces)
                    return trimmed.hasSuffix("%") ? Int(trimmed.dropLast()) : nil
                }
            }
        }
        return inputs
    }

    /// Records `seconds` of what `device` (a sink's monitor) plays, as s16le stereo 44.1 kHz.
    ///
    /// Stops after that many seconds of audio arrived, not after that much wall time: a null
    /// sink's monitor delivers its first data up to ~2 s late, and parec drops what it still
    /// holds when interrupted.
    static func record(seconds: TimeInterval, device: String = "headphones.monitor") throws -> Data {
        let bytesPerSecond = 44_100 * 2 * 2
        let wanted = Int(seconds * Double(bytesPerSecond))
        let recorder = try Subprocess("parec", ["--raw", "--format=s16le", "--rate=44100", "--channels=2",
                                                "--latency-msec=50", "-d", device], binaryStdout: true)
        let complete = recorder.stdout.waitForByteCount(wanted, timeout: seconds + 5)
        recorder.stop(signal: SIGINT, grace: 2)
        guard complete else {
            throw BusError("parec delivered \(recorder.stdout.data.count) of \(wanted) bytes from \(device): \(recorder.stderr.text)")
        }
        return recorder.stdout.data.prefix(wanted)
    }

    static func levels(of recording: Data) -> AudioLevels {
        var sumOfSquares = 0.0
        var peak = 0
        var count = 0
        recording.withUnsafeBytes { buffer in
            count = buffer.count / 2
            for offset in stride(from: 0, to: count * 2, by: 2) {
                let value = Int(Int16(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: Int16.self)))
                sumOfSquares += Double(value * value)
                peak = max(peak, abs(value))
            }
        }
        return AudioLevels(frames: count / 2, rms: count == 0 ? 0 : (sumOfSquares / Double(count)).squareRoot(),
                           peak: peak)
    }

    /// Records for `seconds` and measures.
    static func listen(seconds: TimeInterval = 1, device: String = "headphones.monitor") throws -> AudioLevels {
        levels(of: try record(seconds: seconds, device: device))
    }
}
