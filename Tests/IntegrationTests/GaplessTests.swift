import Foundation
import SoundAnalysis
import XCTest
@testable import TestSupport

/// Gapless playback, judged on what the headphones sink's monitor records: two files cut from
/// one continuous 440 Hz tone play back as one continuous tone (no inserted silence, no jump),
/// and Metadata switches to the next track when its first sample is played, not when it is
/// decoded.
final class GaplessTests: AubadeTestCase {
    private var queueFixtures: QueueFixtures!
    private var recording: TimedRecording?

    override func setUpWithError() throws {
        try super.setUpWithError()
        queueFixtures = try QueueFixtures.shared()
    }

    override func tearDown() {
        _ = recording?.stop()
        recording = nil
        super.tearDown()
    }

    /// Starts recording the headphones monitor and waits until audio (silence) flows, so the
    /// first sample the daemon plays is in the recording.
    private func startRecording() throws -> TimedRecording {
        let recording = try TimedRecording()
        self.recording = recording
        guard recording.waitForSeconds(0.2, timeout: 10) else {
            throw DaemonError("parec delivered nothing from headphones.monitor within 10 s")
        }
        return recording
    }

    func testTwoFilesCutFromOneToneSoundAsOneTone() throws {
        let recorder = try startRecording()
        let startedAt = recorder.seconds
        try startDaemon([queueFixtures.gaplessA, queueFixtures.gaplessB])
        guard recorder.waitForSeconds(startedAt + 10, timeout: 20) else {
            return XCTFail("the recording stalled at \(recorder.seconds) s")
        }
        let audio = ToneAnalysis(recorder.stop())
        recording = nil
        guard let sounding = audio.soundingRange() else { return XCTFail("the recording is silent") }

        let rate = ToneAnalysis.rate
        let duration = Double(sounding.count) / rate
        let amplitude = audio.amplitude(in: sounding.lowerBound..<sounding.upperBound)
        // The boundary: 3 s (132 300 frames) after the first sound.
        let boundary = sounding.lowerBound + 132_300
        let window = max(sounding.lowerBound, boundary - Int(0.5 * rate))..<min(sounding.upperBound, boundary + Int(0.5 * rate))
        // Away from the very start and end (the encoder's own fade in and out).
        let inner = (sounding.lowerBound + Int(0.05 * rate))..<(sounding.upperBound - Int(0.05 * rate))
        let halfPeriod = rate / 880  // 50.1 frames between zero crossings at 440 Hz
        let cleanStep = amplitude * 2 * Double.pi * 440 / rate

        let gaps = audio.quietRuns(in: inner, threshold: amplitude * 0.05, minimumLength: Int(0.001 * rate))
        let irregular = audio.irregularCrossings(in: inner, expected: halfPeriod, tolerance: 2)
        let step = audio.largestStep(in: inner)
        func place(_ frame: Double) -> String {
            String(format: "%.4f s after the boundary", (frame - Double(boundary)) / rate)
        }
        print(String(format: "gapless: sounding %.4f s (6.0000 expected), amplitude %.0f, largest step %.0f (clean sine %.0f) at %@; "
                     + "%d quiet runs ≥ 1 ms, %d irregular zero-crossing spacings",
                     duration, amplitude, step.size, cleanStep, place(Double(step.at)), gaps.count, irregular.count))

        XCTAssertGreaterThan(amplitude, 4000, "the tone is too quiet to judge")
        XCTAssertTrue(gaps.isEmpty, "silence inside the tone: "
                      + gaps.prefix(5).map { "\($0.count) frames at \(place(Double($0.lowerBound)))" }.joined(separator: ", "))
        XCTAssertTrue(irregular.isEmpty, "the tone's period breaks: "
                      + irregular.prefix(5).map { String(format: "spacing %.1f (not %.1f) at %@", $0.spacing, halfPeriod, place($0.at)) }
                      .joined(separator: ", "))
        XCTAssertLessThan(step.size, cleanStep * 1.5, "a click: a step of \(Int(step.size)) at \(place(Double(step.at))) "
                          + "(a clean sine steps at most \(Int(cleanStep)))")
        XCTAssertEqual(duration, 6.0, accuracy: 0.03, "6 s of tone played as \(duration) s")
        // The boundary region on its own, to say where a failure is.
        XCTAssertTrue(audio.quietRuns(in: window, threshold: amplitude * 0.05, minimumLength: 22).isEmpty,
                      "a gap (≥ 0.5 ms) within 0.5 s of the track boundary")
    }

    func testTrackIdSwitchesWhenTheNextTrackIsHeard() throws {
        // Alpha (3 s, 440 Hz) then Beta (660 Hz): the pitch change marks the boundary in the recording.
        let recorder = try startRecording()
        let daemon = try startDaemon([fixtures.alpha, fixtures.beta])
        let signals = try monitor(daemon)
        try waitForTitle("Alpha")
        let alphaID = try trackID()
        try waitForTitle("Beta", timeout: 8)
        let betaID = try trackID()
        XCTAssertNotEqual(alphaID, betaID)
        // A little more than the boundary, then stop.
        let enough = recorder.seconds + 1
        _ = recorder.waitForSeconds(enough, timeout: 5)
        let audio = ToneAnalysis(recorder.stop())
        let arrivals = recorder
        recording = nil

        guard let switched = signals.waitForMessage(timeout: 1, where: {
            $0.changedInterface == Bus.playerInterface && $0.changedProperties["Metadata"]?.dictionary?["xesam:title"] == .string("Beta")
        }), let signalTime = switched.time else {
            return XCTFail("no PropertiesChanged(Metadata) for Beta seen")
        }
        guard let sounding = audio.soundingRange() else { return XCTFail("the recording is silent") }
        let rate = ToneAnalysis.rate
        guard let change = audio.pitchChange(in: sounding.lowerBound..<sounding.upperBound,
                                             fromHalfPeriod: rate / 880, toHalfPeriod: rate / 1320) else {
            return XCTFail("no change from 440 Hz to 660 Hz in the recording")
        }
        print(String(format: "Alpha sounded %.3f s", (change - Double(sounding.lowerBound)) / rate))
        guard let heard = arrivals.arrival(ofFrame: Int(change)) else { return XCTFail("no arrival time for frame \(Int(change))") }
        // The step holding the first Beta frame arrived after it played, by parec's latency (tens of ms).
        let playedAt = heard.timeIntervalSince1970 - 0.02
        let offset = signalTime - playedAt
        print(String(format: "Metadata(Beta) signalled %+.0f ms from when Beta's first sample was played", offset * 1000))
        XCTAssertLessThan(abs(offset), 0.15, String(format: "Metadata switched %+.0f ms from the audible boundary "
                                                   + "(negative: early, when decoded)", offset * 1000))
    }
}
