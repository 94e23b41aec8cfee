import Foundation

/// `parec` of a sink's monitor running in the background, noting when each 10 ms of audio
/// arrived (wall clock), so a place in the recording can be set against a D-Bus signal's time.
///
/// The capture latency is 20 ms on PulseAudio and 100 ms on PipeWire. On PipeWire a 20 ms
/// capture sets the graph's cycle to 512 frames (10.7 ms), and on a 2-core machine a cycle was
/// missed now and then — a quantum of silence in the recording, in about a third of the gapless
/// runs (the daemon's stream had not run dry: no underflow); at 100 ms, none in 6 runs. On
/// PulseAudio 100 ms costs the first ~50 ms of a track instead: the sink rewinds to play a new
/// stream at once, and its monitor cannot take back the silence it already gave. Arrival times
/// on PipeWire lag what was heard by up to ~50 ms more, well inside the timing tests' tolerances.
final class TimedRecording: @unchecked Sendable {
    static let frameRate = 44_100
    static let bytesPerFrame = 4  // s16le stereo
    /// Granularity of the arrival times: 10 ms of audio.
    static let stepBytes = frameRate / 100 * bytesPerFrame
    static let latencyMilliseconds = ProcessInfo.processInfo.environment["AUBADE_SOUND_SERVER"] == "pipewire" ? 100 : 20

    private let recorder: Subprocess
    private let lock = NSLock()
    /// (bytes received so far, when they had arrived), every `stepBytes`.
    private var arrivals: [(bytes: Int, time: Date)] = []
    private var stopped = false

    init(device: String = "headphones.monitor") throws {
        recorder = try Subprocess("parec", ["--raw", "--format=s16le", "--rate=44100", "--channels=2",
                                            "--latency-msec=\(Self.latencyMilliseconds)", "-d", device], binaryStdout: true)
        let thread = Thread { [self] in
            var next = TimedRecording.stepBytes
            while !lock.withLock({ stopped }) {
                if recorder.stdout.waitForByteCount(next, timeout: 0.5) {
                    let now = Date()
                    lock.withLock { arrivals.append((next, now)) }
                    next += TimedRecording.stepBytes
                } else if recorder.stdout.isClosed {
                    break
                }
            }
        }
        thread.start()
    }

    var byteCount: Int { lock.withLock { arrivals.last?.bytes ?? 0 } }
    var seconds: Double { Double(byteCount) / Double(TimedRecording.frameRate * TimedRecording.bytesPerFrame) }

    /// Waits until `seconds` of audio arrived; false on timeout.
    func waitForSeconds(_ seconds: Double, timeout: TimeInterval) -> Bool {
        recorder.stdout.waitForByteCount(Int(seconds * Double(TimedRecording.frameRate * TimedRecording.bytesPerFrame)),
                                         timeout: timeout)
    }

    /// Stops parec and returns the recording.
    func stop() -> Data {
        lock.withLock { stopped = true }
        recorder.stop(signal: SIGINT, grace: 2)
        return recorder.stdout.data
    }

    /// When the 10 ms step holding `frame` had arrived (its arrival, not its playing: parec's
    /// latency, ≤ ~20–40 ms, comes before it).
    func arrival(ofFrame frame: Int) -> Date? {
        let byte = frame * TimedRecording.bytesPerFrame
        return lock.withLock { arrivals.first { $0.bytes > byte }?.time }
    }
}
