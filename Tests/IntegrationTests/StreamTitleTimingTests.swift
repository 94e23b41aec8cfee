import Foundation
import SoundAnalysis
import XCTest
@testable import TestSupport

/// A station's new title is published when the first audio of the song it names reaches the
/// speakers — PropertiesChanged(Metadata), TrackMetadataChanged and the PulseAudio stream's
/// media.title together — not when it was downloaded, which with icecast's burst (64 KiB,
/// about 4 s at 128 kbit/s) is seconds earlier.
///
/// The station plays 5 s of 440 Hz then 660 Hz, the source setting the title "Tone B" at the
/// frame of media time 5 s. The headphones' monitor is recorded with arrival times, the bus
/// watched with dbus-monitor: the offset is the signal's time minus when the first 660 Hz
/// sample was played. Limits of the method: icecast attaches a title up to 1399 bytes (~90 ms)
/// before the frame it was set at and up to one metaint after it (1024 bytes here, 64 ms); the
/// encoder delays the tone by ~25 ms; parec's arrival times lag the playing by ≤ ~40 ms.
final class StreamTitleTimingTests: StreamTestCase {
    private var recording: TimedRecording?

    override func tearDown() {
        _ = recording?.stop()
        recording = nil
        super.tearDown()
    }

    func testTitleIsPublishedWhenItsSongIsHeardNotWhenDownloaded() throws {
        let icecast = try startIcecast(burstSize: 65535, metadataInterval: 1024)
        let recorder = try TimedRecording()
        recording = recorder
        guard recorder.waitForSeconds(0.2, timeout: 10) else {
            throw DaemonError("parec delivered nothing from headphones.monitor within 10 s")
        }
        let boundary = StreamFixtures.boundarySeconds
        let source = try startSource(on: icecast, file: streamFixtures.toneAThenB,
                                     titles: [(0, "Tone Artist - Tone A"), (boundary, "Tone Artist - Tone B")])
        // Let icecast's burst fill with 3 s of the stream: the daemon then starts ~3 s behind
        // the live edge, so it downloads "Tone B" seconds before it plays it.
        XCTAssertTrue(source.waitForTitleChanges(1, timeout: 5), source.log)
        let startedAt = try XCTUnwrap(source.titleChanges.first).monotonicSeconds
        Thread.sleep(forTimeInterval: max(0, startedAt + 3.2 - IcecastSource.monotonicNow()))

        let daemon = try serve([icecast.url(mount: mount)])
        let signals = try monitor(daemon)
        try waitForTitle("Tone A", timeout: 10)
        try waitForTitle("Tone B", timeout: 15)
        guard let published = signals.waitForMessage(timeout: 2, where: {
            $0.changedInterface == Bus.playerInterface && $0.changedProperties["Metadata"]?.dictionary?["xesam:title"] == .string("Tone B")
        }), let publishedAt = published.time else {
            return XCTFail("no PropertiesChanged(Metadata) with Tone B seen")
        }
        let trackChanged = signals.waitForMessage(timeout: 2) {
            $0.member == "TrackMetadataChanged" && $0.arguments.count == 2
                && $0.arguments[1].dictionary?["xesam:title"] == .string("Tone B")
        }
        try eventually("media.title Tone B") { try streamProperty(daemon, "media.title") == "Tone B" }

        // A second of tone B at the headphones after the signal, then stop.
        _ = recorder.waitForSeconds(recorder.seconds + 1.5, timeout: 10)
        let audio = ToneAnalysis(recorder.stop())
        recording = nil
        guard let sounding = audio.soundingRange() else { return XCTFail("the recording is silent") }
        let rate = ToneAnalysis.rate
        let changes = audio.toneChanges(in: sounding.lowerBound..<sounding.upperBound,
                                        fromHalfPeriod: rate / (2 * StreamFixtures.toneAHertz),
                                        toHalfPeriod: rate / (2 * StreamFixtures.toneBHertz))
        print(String(format: "the recording: %.2f s, sound from %.2f s; 440 → 660 Hz at %@ s", Double(audio.samples.count) / rate,
                     Double(sounding.lowerBound) / rate, changes.map { String(format: "%.3f", $0 / rate) }.joined(separator: ", ")))
        guard changes.count == 1, let change = changes.first else {
            return XCTFail("expected one change from 440 Hz to 660 Hz in the recording, found \(changes.count)")
        }
        guard let arrived = recorder.arrival(ofFrame: Int(change)) else {
            return XCTFail("no arrival time for frame \(Int(change))")
        }
        // The step holding the first 660 Hz frame arrived after it played, by parec's latency.
        let heardAt = arrived.timeIntervalSince1970 - 0.02
        let offset = publishedAt - heardAt
        let setAt = source.titleChanges.first { $0.title.hasSuffix("Tone B") }
            .map { IcecastSource.wallTime(ofMonotonic: $0.monotonicSeconds) }
        let lead = setAt.map { heardAt - $0 } ?? .nan
        print(String(format: "title timing (%@): Metadata(Tone B) published %+.0f ms from the first 660 Hz sample at "
                     + "the headphones; the source set it %.2f s before that sample was heard", server.rawValue,
                     offset * 1000, lead))
        XCTAssertLessThanOrEqual(abs(offset), 0.3, String(format: "Metadata(Tone B) published %+.0f ms from when tone B "
                                                          + "was heard (negative: early)", offset * 1000))
        // The test means something only if the title was downloaded well before it was heard.
        XCTAssertGreaterThan(lead, 2, "the daemon heard the station only \(lead) s behind the source: no burst?")
        if let trackChanged, let time = trackChanged.time {
            XCTAssertEqual(time, publishedAt, accuracy: 0.05, "TrackMetadataChanged and PropertiesChanged apart")
        } else {
            XCTFail("no TrackMetadataChanged with Tone B")
        }
    }
}
