import Foundation
import SoundAnalysis
import XCTest
@testable import TestSupport

/// Issue 12: tracks of different sample rates in one queue. A 48 kHz track after a 44.1 kHz
/// one used to be fed into the 44.1 kHz stream (played 8 % slow, at the wrong pitch). Now the
/// stream is re-created at the boundary: the first track plays to its end, the second starts
/// with its first sample, at its own pitch and length; judged on the headphones monitor.
///
/// And ReplayGain, judged at the same monitor: a track tagged −6.02 dB plays at half the
/// amplitude of the same tone untagged, under `--replaygain track`, and as tagged is ignored
/// under the default (off).
final class FormatBoundaryTests: AubadeTestCase {
    private var recording: TimedRecording?
    private var folder: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = TestRunDirectory.url.appendingPathComponent("boundary-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        _ = recording?.stop()
        recording = nil
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    /// A WAV of a `frequency` Hz tone at `rate`, `seconds` long, at half of full scale.
    private func toneWAV(_ name: String, rate: Int, frequency: Int, seconds: Double) throws -> URL {
        let wav = folder.appendingPathComponent(name + ".wav")
        let sox = try Shell.run("sox", ["-q", "-n", "-r", "\(rate)", "-c", "2", "-b", "16", wav.path,
                                        "synth", "\(seconds)", "sine", "\(frequency)", "vol", "0.5"])
        guard sox.succeeded else { throw DaemonError("sox: \(sox)") }
        return wav
    }

    private func mp3(_ name: String, rate: Int, frequency: Int, seconds: Double) throws -> URL {
        let wav = try toneWAV(name, rate: rate, frequency: frequency, seconds: seconds)
        let mp3 = folder.appendingPathComponent(name + ".mp3")
        let lame = try Shell.run("lame", ["--quiet", "-b", "192", "--resample", "\(Double(rate) / 1000)", "--tt", name, wav.path, mp3.path],
                                 timeout: 60)
        guard lame.succeeded else { throw DaemonError("lame: \(lame)") }
        return mp3
    }

    private func flac(_ name: String, frequency: Int, seconds: Double, tags: [String]) throws -> URL {
        let wav = try toneWAV(name, rate: 44_100, frequency: frequency, seconds: seconds)
        let flac = folder.appendingPathComponent(name + ".flac")
        let encode = try Shell.run("flac", ["--silent", "-f", "-T", "TITLE=\(name)"] + tags.flatMap { ["-T", $0] } + ["-o", flac.path, wav.path],
                                   timeout: 60)
        guard encode.succeeded else { throw DaemonError("flac: \(encode)") }
        return flac
    }

    private func startRecording() throws -> TimedRecording {
        let recording = try TimedRecording()
        self.recording = recording
        guard recording.waitForSeconds(0.2, timeout: 10) else {
            throw DaemonError("parec delivered nothing from headphones.monitor within 10 s")
        }
        return recording
    }

    /// Records until `seconds` of audio past now have arrived, then analyses them.
    private func record(_ recorder: TimedRecording, for seconds: Double) throws -> ToneAnalysis {
        guard recorder.waitForSeconds(recorder.seconds + seconds, timeout: seconds + 15) else {
            throw DaemonError("the recording stalled at \(recorder.seconds) s")
        }
        let audio = ToneAnalysis(recorder.stop())
        recording = nil
        return audio
    }

    func testA48kHzTrackAfterA44kHzOnePlaysAtItsOwnPitchAndLength() throws {
        let first = try mp3("First", rate: 44_100, frequency: 440, seconds: 1.5)
        let second = try mp3("Second", rate: 48_000, frequency: 660, seconds: 1.5)
        let recorder = try startRecording()
        try startDaemon([first, second])
        try waitForTitle("Second", timeout: 10)
        let audio = try record(recorder, for: 3)
        guard let sounding = audio.soundingRange() else { return XCTFail("the recording is silent") }
        let rate = ToneAnalysis.rate
        // The change of pitch is the boundary (a short silence may come before it).
        guard let boundary = audio.pitchChange(in: sounding.lowerBound..<sounding.upperBound,
                                               fromHalfPeriod: rate / 880, toHalfPeriod: rate / 1320) else {
            return XCTFail("no change from 440 Hz to 660 Hz heard")
        }
        // The change may be found where the old stream's last sound rings out, before the
        // silence of the new stream's start: the second track begins after that silence.
        var secondStart = Int(boundary)
        if let gap = audio.quietRuns(in: secondStart..<min(secondStart + Int(0.5 * rate), sounding.upperBound), threshold: 1000,
                                     minimumLength: Int(rate / 1000)).first, gap.lowerBound - secondStart < Int(0.005 * rate) {
            secondStart = gap.upperBound
        }
        let firstPart = Double(secondStart - sounding.lowerBound) / rate
        // Samples heard, not time: a cycle the sound server missed on a busy machine puts a
        // quantum of silence (10–40 ms) into the recording, which loses nothing of the track.
        let missedCycles = audio.quietRuns(in: secondStart..<sounding.upperBound, threshold: 1000, minimumLength: Int(rate / 1000))
        let secondPart = Double(sounding.upperBound - secondStart - missedCycles.reduce(0) { $0 + $1.count }) / rate
        let inner = (secondStart + Int(0.1 * rate))..<(sounding.upperBound - Int(0.1 * rate))
        let crossings = audio.zeroCrossings(in: inner)
        let halfPeriod = (crossings.last! - crossings.first!) / Double(crossings.count - 1)
        let frequency = rate / (2 * halfPeriod)
        print(String(format: "format boundary: first track %.3f s (incl. the gap), second %.3f s at %.1f Hz (%d silences inside it left out)",
                     firstPart, secondPart, frequency, missedCycles.count))
        XCTAssertEqual(frequency, 660, accuracy: 3, "the 48 kHz track plays at the wrong speed")
        XCTAssertEqual(secondPart, 1.5, accuracy: 0.03, "the second track's samples were not all heard")
        // The first plays to its end; the new stream's start costs at most a short silence.
        XCTAssertGreaterThan(firstPart, 1.47, "the first track was cut short")
        XCTAssertLessThan(firstPart, 1.5 + 0.4, "a long silence at the boundary")
        let gaps = audio.quietRuns(in: sounding.lowerBound..<Int(boundary), threshold: 500, minimumLength: Int(0.005 * rate))
        XCTAssertLessThanOrEqual(gaps.count, 1, "the first track broke up: \(gaps)")
    }

    func testATrackTaggedMinus6dBPlaysAtHalfTheAmplitudeWithReplayGainOn() throws {
        let plain = try flac("Plain", frequency: 440, seconds: 1.5, tags: [])
        let quieter = try flac("Quieter", frequency: 440, seconds: 1.5,
                               tags: ["REPLAYGAIN_TRACK_GAIN=-6.02 dB", "REPLAYGAIN_TRACK_PEAK=0.5"])
        let recorder = try startRecording()
        try startDaemon(["--replaygain", "track", plain.path, quieter.path])
        try waitForTitle("Quieter", timeout: 10)
        let status = try aubade("status")
        XCTAssertTrue(status.stdout.contains("replaygain track gain −6.02 dB (mode track)"), status.stdout)
        let audio = try record(recorder, for: 2)
        guard let sounding = audio.soundingRange(threshold: 500) else { return XCTFail("the recording is silent") }
        let rate = ToneAnalysis.rate
        // 1.5 s each, joined gaplessly: the first second and the last second, away from the joint.
        let start = sounding.lowerBound + Int(0.2 * rate)
        let loud = audio.amplitude(in: start..<(start + Int(rate)))
        let end = sounding.upperBound - Int(0.2 * rate)
        let soft = audio.amplitude(in: (end - Int(rate))..<end)
        print(String(format: "replaygain: untagged amplitude %.0f, tagged −6.02 dB %.0f (ratio %.3f)", loud, soft, soft / loud))
        XCTAssertGreaterThan(loud, 8000)
        XCTAssertEqual(soft / loud, 0.5, accuracy: 0.03)
    }

    func testReplayGainIsOffByDefault() throws {
        let quieter = try flac("Tagged", frequency: 440, seconds: 2,
                               tags: ["REPLAYGAIN_TRACK_GAIN=-6.02 dB", "REPLAYGAIN_TRACK_PEAK=0.5"])
        let recorder = try startRecording()
        try startDaemon([quieter])
        try waitForTitle("Tagged", timeout: 10)
        let audio = try record(recorder, for: 2)
        guard let sounding = audio.soundingRange(threshold: 500) else { return XCTFail("the recording is silent") }
        let middle = (sounding.lowerBound + Int(0.2 * ToneAnalysis.rate))..<(sounding.upperBound - Int(0.2 * ToneAnalysis.rate))
        // Half of full scale, as made.
        XCTAssertEqual(audio.amplitude(in: middle), 16_384, accuracy: 1_000)
    }
}
