import Foundation
import SoundAnalysis

/// The rooms' sound cards: two PulseAudio sinks, `kitchen` and `garden`, each played by its own
/// snapclient. They are remap sinks of one four-channel null sink `house` (kitchen its front
/// pair, garden its rear pair), so one recording of `house.monitor` holds both rooms on one
/// clock: two separate null sinks recorded by two parec processes could not be set against
/// each other closer than their 10–20 ms blocks, and the rooms must be judged within 5 ms.
/// Each room's sink is a sink of its own to its snapclient, which computes its timing from it.
final class SnapcastHouse {
    enum Room: String, CaseIterable {
        case kitchen, garden
    }

    private var modules: [Int] = []

    init() throws {
        do {
            modules.append(try Self.load(["module-null-sink", "sink_name=house", "rate=48000", "channels=4",
                                          "channel_map=front-left,front-right,rear-left,rear-right",
                                          "sink_properties=device.description=House"]))
            for (room, pair) in [(Room.kitchen, "front-left,front-right"), (.garden, "rear-left,rear-right")] {
                modules.append(try Self.load(["module-remap-sink", "sink_name=\(room.rawValue)", "master=house", "channels=2",
                                              "master_channel_map=\(pair)", "channel_map=front-left,front-right", "remix=no",
                                              "sink_properties=device.description=\(room.rawValue)"]))
            }
        } catch {
            remove()
            throw error
        }
    }

    private static func load(_ arguments: [String]) throws -> Int {
        let output = try pactl(["load-module"] + arguments)
        guard let index = Int(output) else { throw DaemonError("pactl load-module printed \(output.debugDescription)") }
        return index
    }

    /// Unloads the rooms' sinks (the remaps before their master).
    func remove() {
        for module in modules.reversed() { _ = try? Self.pactl(["unload-module", "\(module)"]) }
        modules.removeAll()
    }

    /// (The benchmarks keep a copy of this file: no helper of one test target only.)
    private static func pactl(_ arguments: [String]) throws -> String {
        let result = try Shell.run("pactl", arguments)
        guard result.succeeded else { throw DaemonError("pactl \(arguments.joined(separator: " ")): \(result)") }
        return result.trimmedOutput
    }
}

/// `parec` of `house.monitor` (both rooms) in the background, at 44.1 kHz as the other audio
/// tests analyse, with when each 10 ms of it arrived.
final class HouseRecording: @unchecked Sendable {
    static let frameRate = 44_100
    static let bytesPerFrame = 8  // s16le, four channels
    static let stepBytes = frameRate / 100 * bytesPerFrame

    private let recorder: Subprocess
    private let lock = NSLock()
    private var arrivals: [(bytes: Int, time: Date)] = []
    private var stopped = false

    init() throws {
        recorder = try Subprocess("parec", ["--raw", "--format=s16le", "--rate=44100", "--channels=4",
                                            "--channel-map=front-left,front-right,rear-left,rear-right",
                                            "--latency-msec=20", "-d", "house.monitor"], binaryStdout: true)
        let thread = Thread { [self] in
            var next = HouseRecording.stepBytes
            while !lock.withLock({ stopped }) {
                if recorder.stdout.waitForByteCount(next, timeout: 0.5) {
                    let now = Date()
                    lock.withLock { arrivals.append((next, now)) }
                    next += HouseRecording.stepBytes
                } else if recorder.stdout.isClosed {
                    break
                }
            }
        }
        thread.start()
    }

    var seconds: Double {
        Double(lock.withLock { arrivals.last?.bytes ?? 0 }) / Double(Self.frameRate * Self.bytesPerFrame)
    }

    /// Waits until `seconds` of audio arrived; false on timeout.
    func waitForSeconds(_ seconds: Double, timeout: TimeInterval) -> Bool {
        recorder.stdout.waitForByteCount(Int(seconds * Double(Self.frameRate * Self.bytesPerFrame)), timeout: timeout)
    }

    /// When the 10 ms holding `frame` had arrived.
    func arrival(ofFrame frame: Int) -> Date? {
        let byte = frame * Self.bytesPerFrame
        return lock.withLock { arrivals.first { $0.bytes > byte }?.time }
    }

    /// Stops parec; the rooms' recordings, each as stereo s16le (what ToneAnalysis reads).
    func stop() -> [SnapcastHouse.Room: Data] {
        lock.withLock { stopped = true }
        recorder.stop(signal: SIGINT, grace: 2)
        let data = recorder.stdout.data
        var kitchen = Data(capacity: data.count / 2), garden = Data(capacity: data.count / 2)
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset + Self.bytesPerFrame <= bytes.count {
                kitchen.append(contentsOf: bytes[offset..<(offset + 4)])
                garden.append(contentsOf: bytes[(offset + 4)..<(offset + 8)])
                offset += Self.bytesPerFrame
            }
        }
        return [.kitchen: kitchen, .garden: garden]
    }
}
