import Foundation
import SoundAnalysis
import XCTest
@testable import TestSupport

/// What the rooms hear and what Aubade says: the next title is published when the rooms hear
/// its first sample (the server's buffer counted), tracks join gaplessly, and a track of
/// another rate and channel count follows without a gap at its own pitch. Under a sanitizer,
/// where these run beside other tests for their code paths, time is judged loosely
/// (`Sanitizer.judgesTime`): a strict judgement there would measure the sanitizer and the load.
final class SnapcastTimingTests: SnapcastTestCase {
    func testTheNextTitleIsPublishedWhenTheRoomsHearIt() throws {
        let music = try SnapcastMusic.shared()
        try openRooms([.kitchen])
        try waitForRooms()
        let recording = try startRecording()
        let daemon = try startAubade([music.monoTone, music.stereoTone])
        let signals = try monitor(daemon)
        try waitForTitle("Stereo Tone", timeout: 10)
        guard let published = signals.waitForMessage(timeout: 2, where: {
            $0.changedInterface == Bus.playerInterface && $0.changedProperties["Metadata"]?.dictionary?["xesam:title"] == .string("Stereo Tone")
        }), let publishedAt = published.time else {
            return XCTFail("no PropertiesChanged(Metadata) with Stereo Tone")
        }
        let audio = try XCTUnwrap(try record(recording, for: 2.5)[.kitchen])
        guard let sounding = audio.soundingRange() else { return XCTFail("the kitchen heard nothing") }
        let rate = ToneAnalysis.rate
        let changes = audio.toneChanges(in: sounding.lowerBound..<sounding.upperBound,
                                        fromHalfPeriod: rate / 880, toHalfPeriod: rate / 1320)
        guard changes.count == 1, let change = changes.first else {
            return XCTFail("expected one change from 440 Hz to 660 Hz in the kitchen, found \(changes.count)")
        }
        // 44.1 kHz mono, then 48 kHz stereo, in a 48 kHz stereo stream: no gap, each at its length.
        let first = (change - Double(sounding.lowerBound)) / rate
        let second = Double(sounding.upperBound) / rate - change / rate
        let gaps = audio.quietRuns(in: sounding.lowerBound..<sounding.upperBound, threshold: 300, minimumLength: Int(0.002 * rate))
        print(String(format: "format boundary in the kitchen: %.3f s of 440 Hz, then %.3f s of 660 Hz, %d gaps ≥ 2 ms",
                     first, second, gaps.count))
        // Each part's length is judged on PulseAudio, as the gapless join is
        // (`requireRoomsOnPulseAudio`). On PipeWire's pulse layer snapclient loses ~55 ms
        // somewhere in the first seconds of a stream (the first part came out 1.445 s in three
        // runs, the second 1.445 s in CI), so there the whole is judged, more loosely.
        if server == .pipewire || !Sanitizer.judgesTime {
            XCTAssertEqual(first + second, 3.0, accuracy: Sanitizer.judgesTime ? 0.1 : 0.3)
        } else {
            XCTAssertEqual(first, 1.5, accuracy: 0.05)
            XCTAssertEqual(second, 1.5, accuracy: 0.05)
        }
        if Sanitizer.judgesTime {
            XCTAssertTrue(gaps.isEmpty, "silence in the music: \(gaps.map { Double($0.count) / rate })")
        }

        let arrived = try XCTUnwrap(recording.arrival(ofFrame: Int(change)))
        let heardAt = arrived.timeIntervalSince1970 - 0.02  // parec's latency
        let offset = publishedAt - heardAt
        print(String(format: "title timing (snapcast): Metadata(Stereo Tone) published %+.0f ms from its first sample in the kitchen",
                     offset * 1000))
        XCTAssertLessThanOrEqual(abs(offset), Sanitizer.judgesTime ? 0.1 : 0.5,
                                 String(format: "published %+.0f ms from when it was heard", offset * 1000))
    }

    func testTwoFilesCutFromOneToneSoundAsOneToneInTheRooms() throws {
        try requireRoomsOnPulseAudio()
        let fixtures = try QueueFixtures.shared()
        try openRooms([.kitchen])
        try waitForRooms()
        let recording = try startRecording()
        // A second of silence first, gapless too: a snapclient's first moments on a new stream
        // (PipeWire drops ~40 ms there) are then silence, and the judgement is about the join.
        try startAubade([try SnapcastMusic.shared().silence, fixtures.gaplessA, fixtures.gaplessB])
        try waitForTitle("Gapless B", timeout: 10)
        try waitForStatus("Stopped", timeout: 10)
        let audio = try XCTUnwrap(try record(recording, for: 1.5)[.kitchen])
        let judgement = GaplessJudgement(audio: audio, firstFileFrames: 132_300, expectedSeconds: 6, clickFactor: 2.5)
        if Sanitizer.judgesTime {
            judgement.assertOneTone("snapcast")
        } else {
            judgement.assertHeard("snapcast")
        }
    }
}
