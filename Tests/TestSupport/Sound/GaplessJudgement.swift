import Foundation
import SoundAnalysis
import XCTest

/// Judges a recording of two files cut from one continuous 440 Hz tone: within 0.5 s of the
/// boundary, no silence, no break in the period, no click; and the whole tone as long as the
/// two files. Only around the boundary, where gaplessness is decided: on PipeWire a whole
/// quantum (~10 ms) now and then goes missing anywhere in a recording (seen mid-track, away
/// from any boundary, with nothing else running), which says nothing of the decoder.
struct GaplessJudgement {
    let audio: ToneAnalysis
    /// Frames of the first file, from the first sound.
    let firstFileFrames: Int
    let expectedSeconds: Double
    /// The largest step allowed, in clean-sine steps. Snapcast's clients keep in step by now
    /// and then dropping or doubling a frame, a step of up to twice a clean one: they judge
    /// with 2.5.
    var clickFactor = 1.5

    func assertOneTone(_ what: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let sounding = audio.soundingRange() else { return XCTFail("the recording is silent", file: file, line: line) }
        let rate = ToneAnalysis.rate
        let duration = Double(sounding.count) / rate
        let amplitude = audio.amplitude(in: sounding.lowerBound..<sounding.upperBound)
        let boundary = sounding.lowerBound + firstFileFrames
        let inner = max(sounding.lowerBound + Int(0.05 * rate), boundary - Int(0.5 * rate))
            ..< min(sounding.upperBound - Int(0.05 * rate), boundary + Int(0.5 * rate))
        let halfPeriod = rate / 880
        let cleanStep = amplitude * 2 * Double.pi * 440 / rate
        let gaps = audio.quietRuns(in: inner, threshold: amplitude * 0.05, minimumLength: Int(0.001 * rate))
        let irregular = audio.irregularCrossings(in: inner, expected: halfPeriod, tolerance: 2)
        let step = audio.largestStep(in: inner)
        func place(_ frame: Double) -> String {
            String(format: "%.4f s after the boundary", (frame - Double(boundary)) / rate)
        }
        print(String(format: "%@ gapless: sounding %.4f s (%.4f expected), amplitude %.0f, largest step %.0f (clean sine %.0f) at %@; "
                     + "%d quiet runs ≥ 1 ms, %d irregular zero-crossing spacings",
                     what, duration, expectedSeconds, amplitude, step.size, cleanStep, place(Double(step.at)), gaps.count, irregular.count))
        XCTAssertGreaterThan(amplitude, 4000, "the tone is too quiet to judge", file: file, line: line)
        XCTAssertTrue(gaps.isEmpty, "\(what): silence inside the tone: "
                      + gaps.prefix(5).map { "\($0.count) frames at \(place(Double($0.lowerBound)))" }.joined(separator: ", "),
                      file: file, line: line)
        XCTAssertTrue(irregular.isEmpty, "\(what): the tone's period breaks: "
                      + irregular.prefix(5).map { String(format: "spacing %.1f at %@", $0.spacing, place($0.at)) }.joined(separator: ", "),
                      file: file, line: line)
        XCTAssertLessThan(step.size, cleanStep * clickFactor, "\(what): a click of \(Int(step.size)) at \(place(Double(step.at)))",
                          file: file, line: line)
        XCTAssertEqual(duration, expectedSeconds, accuracy: 0.03, "\(what): \(expectedSeconds) s of tone played as \(duration) s",
                       file: file, line: line)
        XCTAssertTrue(audio.quietRuns(in: inner, threshold: amplitude * 0.05, minimumLength: 22).isEmpty,
                      "\(what): a gap (≥ 0.5 ms) within 0.5 s of the track boundary", file: file, line: line)
    }

    /// The looser judgement of a run under a sanitizer, where a test about gaps runs beside
    /// others for its code paths (`Sanitizer.judgesTime`): the tone is heard, loud enough, and
    /// about as long as the two files — not whether a millisecond went missing on the way.
    func assertHeard(_ what: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let sounding = audio.soundingRange() else { return XCTFail("the recording is silent", file: file, line: line) }
        let duration = Double(sounding.count) / ToneAnalysis.rate
        print(String(format: "%@ (time not judged under a sanitizer): sounding %.4f s (%.4f expected)", what, duration, expectedSeconds))
        XCTAssertGreaterThan(audio.amplitude(in: sounding.lowerBound..<sounding.upperBound), 4000,
                             "the tone is too quiet to judge", file: file, line: line)
        XCTAssertEqual(duration, expectedSeconds, accuracy: 0.3, "\(what): \(expectedSeconds) s of tone played as \(duration) s",
                       file: file, line: line)
    }
}
