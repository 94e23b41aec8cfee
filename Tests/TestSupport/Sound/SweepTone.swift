import Foundation
import SoundAnalysis

/// A track whose place can be read from its sound: a 60 s sine that sweeps linearly from
/// 300 Hz to 3300 Hz (50 Hz per second), so the frequency heard at any moment says how far into
/// the track that moment is. A recording of the sink monitor before and after an outage then
/// tells where the music stopped and where it started again: the audio lost or repeated.
///
/// sox's `synth sine 300:3300` is the linear sweep (`300-3300` sweeps exponentially). Made once
/// per test run with sox and lame (192 kb/s; libmpg123 drops the encoder delay, so
/// the track's time 0 is the sweep's start).
enum SweepTone {
    static let seconds = 60.0
    static let startHertz = 300.0
    static let endHertz = 3300.0
    static let title = "Sweep"
    static var hertzPerSecond: Double { (endHertz - startHertz) / seconds }

    private static let made: Result<URL, any Error> = Result {
        try FixtureCache.folder("sweep") { try make(in: $0) }.appendingPathComponent("sweep-60s.mp3")
    }

    private static func make(in folder: URL) throws {
        let wav = folder.appendingPathComponent("sweep.wav")
        let mp3 = folder.appendingPathComponent("sweep-60s.mp3")
        let synth = try Shell.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav.path, "synth",
                                          String(seconds), "sine", "\(Int(startHertz)):\(Int(endHertz))", "vol", "0.5"])
        guard synth.succeeded else { throw DaemonError("sox (sweep) failed: \(synth)") }
        let encode = try Shell.run("lame", ["--quiet", "-b", "192", "--add-id3v2", "--tt", title, wav.path, mp3.path],
                                   timeout: 120)
        try? FileManager.default.removeItem(at: wav)
        guard encode.succeeded else { throw DaemonError("lame (sweep) failed: \(encode)") }
    }

    /// The MP3, made on first use.
    static func file() throws -> URL { try made.get() }

    /// Seconds into the track at which the sweep is at `hertz`.
    static func trackTime(ofFrequency hertz: Double) -> Double {
        (hertz - startHertz) / hertzPerSecond
    }
}

/// A recording (s16le stereo 44.1 kHz, left channel used) of the sweep, read as places in the
/// track.
struct SweepReading {
    static let rate = 44_100.0
    /// Windows of 50 ms: ~15–165 periods, and the sweep moves only 2.5 Hz (50 ms) within one.
    static let windowFrames = 2205

    /// The recording as a tone: its samples, where it sounds, its zero crossings.
    let tone: ToneAnalysis
    var samples: [Double] { tone.samples }

    init(_ recording: Data) {
        tone = ToneAnalysis(recording)
    }

    var seconds: Double { Double(samples.count) / Self.rate }

    /// The first and last frame louder than `threshold` (our tone peaks at ~16 400; silence is 0).
    func soundingRange(threshold: Double = 1000) -> ClosedRange<Int>? {
        tone.soundingRange(threshold: threshold)
    }

    /// The longest stretch of near silence inside the sound, in frames: where the server itself
    /// dropped audio (an underrun fills the gap with zeros). The sweep, at ~16 400 peak, stays
    /// under `threshold` for a frame or two around each zero crossing; a millisecond (44 frames)
    /// of it is a dropout.
    func longestDropout(threshold: Double = 1000) -> Int {
        guard let range = soundingRange(threshold: threshold) else { return 0 }
        var longest = 0, run = 0
        for index in range {
            run = abs(samples[index]) < threshold ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }

    /// The mean frequency in `range`, from its zero crossings (placed between samples).
    func frequency(in range: Range<Int>) -> Double? {
        let crossings = tone.zeroCrossings(in: range.clamped(to: 0..<samples.count))
        guard crossings.count >= 4, let first = crossings.first, let last = crossings.last, last > first else { return nil }
        return Double(crossings.count - 1) / 2 / ((last - first) / Self.rate)
    }

    /// A place in the track read from `count` windows starting at `frame` (going forward) or
    /// ending at it (`backward`): for each window, the track time its frequency says minus the
    /// window's own time in the recording; the median of those offsets, applied to `frame`.
    /// `spread` (largest − smallest offset) says whether the track ran continuously there.
    func trackTime(atFrame frame: Int, windowsBackward backward: Bool, count: Int = 10) -> Place? {
        var offsets: [Double] = []
        for index in 0..<count {
            let start = backward ? frame - (index + 1) * Self.windowFrames : frame + index * Self.windowFrames
            guard start >= 0, start + Self.windowFrames <= samples.count,
                  let hertz = frequency(in: start..<(start + Self.windowFrames)) else { continue }
            let centre = (Double(start) + Double(Self.windowFrames) / 2) / Self.rate
            offsets.append(SweepTone.trackTime(ofFrequency: hertz) - centre)
        }
        guard offsets.count >= count / 2 else { return nil }
        let sorted = offsets.sorted()
        let median = sorted[sorted.count / 2]
        return Place(trackTime: Double(frame) / Self.rate + median, spread: sorted.last! - sorted.first!,
                     windows: offsets.count)
    }

    struct Place: CustomStringConvertible {
        /// Seconds into the track.
        var trackTime: Double
        /// Seconds between the extreme window offsets (a continuous sweep: a few ms).
        var spread: Double
        var windows: Int
        var description: String {
            String(format: "%.3f s into the track (%d windows of 50 ms agree within %.0f ms)", trackTime, windows, spread * 1000)
        }
    }

    /// Where the sound in the recording ends: the track time of its last loud frame, read from
    /// the 0.5 s before it (leaving out the last 20 ms, which may be cut mid-period).
    func placeWhereSoundEnds() -> (frame: Int, place: Place)? {
        guard let range = soundingRange() else { return nil }
        let margin = Int(0.02 * Self.rate)
        guard let place = trackTime(atFrame: range.upperBound - margin, windowsBackward: true) else { return nil }
        return (range.upperBound, Place(trackTime: place.trackTime + Double(margin) / Self.rate,
                                        spread: place.spread, windows: place.windows))
    }

    /// Where the sound in the recording starts: the track time of its first loud frame, read
    /// from the 0.5 s after it (leaving out the first 20 ms).
    func placeWhereSoundStarts() -> (frame: Int, place: Place)? {
        guard let range = soundingRange() else { return nil }
        let margin = Int(0.02 * Self.rate)
        guard let place = trackTime(atFrame: range.lowerBound + margin, windowsBackward: false) else { return nil }
        return (range.lowerBound, Place(trackTime: place.trackTime - Double(margin) / Self.rate,
                                        spread: place.spread, windows: place.windows))
    }
}
