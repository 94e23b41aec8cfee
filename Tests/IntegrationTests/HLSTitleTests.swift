import Foundation
@testable import TestSupport
import XCTest

/// An HLS station's titles (issue 21): timed ID3 in MPEG-TS segments and the leading ID3 tag of
/// packed-audio segments, each published when the first sample of its song is heard (±100 ms);
/// a malformed tag changes nothing and the station plays on. The station is `ffmpeg -f hls`
/// (or the segment muxer) served locally; the song change is a tone change at a known second.
final class HLSTitleTests: StreamTestCase {
    private var station: HLSTestStation?
    private var recording: TimedRecording?

    override func tearDown() {
        _ = recording?.stop()
        recording = nil
        station?.stop()
        station = nil
        super.tearDown()
    }

    /// The tone goes from 440 to 660 Hz at this second of the stream, and the title with it:
    /// late enough for the daemon to be playing (it starts about three segments behind).
    private let change = 14.0

    func testATimedID3TitleIsPublishedWhenItsFirstSampleIsHeard() throws {
        let folder = try makeDirectory("hls-id3").path
        try TimedID3Stream.write(to: folder + "/id3.ts", titles: [(0, "HLS Artist", "First Tone"), (change, "HLS Artist", "Second Tone")])
        let station = try HLSTestStation(directory: folder + "/live")
        self.station = station
        let recorder = try TimedRecording()
        recording = recorder
        XCTAssertTrue(recorder.waitForSeconds(0.2, timeout: 10))
        try station.startEncoder(timedID3: folder + "/id3.ts", changeTo: (change, 660))
        XCTAssertTrue(station.waitForSegments(3), "ffmpeg wrote no live playlist")
        try measure(station: station, playlist: "live.m3u8", label: "HLS timed ID3")
    }

    func testAPackedAudioSegmentsTitleIsPublishedWhenItsFirstSampleIsHeard() throws {
        let station = try HLSTestStation(directory: try makeDirectory("hls-packed").path + "/live")
        self.station = station
        try station.setPackedTitles([(0, "HLS Artist", "First Tone"), (change, "HLS Artist", "Second Tone")])
        let recorder = try TimedRecording()
        recording = recorder
        XCTAssertTrue(recorder.waitForSeconds(0.2, timeout: 10))
        try station.startEncoder(segmentType: "packed", changeTo: (change, 660))
        XCTAssertTrue(station.waitForSegments(3), "ffmpeg wrote no live playlist")
        try measure(station: station, playlist: "live.m3u8", label: "HLS packed audio")
    }

    /// Malformed leading tags (a size of 256 MiB, a frame longer than its tag, a 200 KiB frame, a
    /// tag cut short, size bytes that are not syncsafe), one segment each: the title stays, the
    /// music goes on, the next good tag's title comes.
    func testMalformedSegmentTagsChangeNothingAndTheStationPlaysOn() throws {
        let station = try HLSTestStation(directory: try makeDirectory("hls-bad").path + "/live")
        self.station = station
        let kinds = ["huge-size", "frame-past-end", "huge-frame", "truncated", "not-syncsafe"]
        let bad = 8.0
        try station.setPackedTitles([(0, "HLS Artist", "First Tone"), (bad + Double(kinds.count) + 2, "HLS Artist", "After The Bad Tags")])
        try station.setPackedBadTags(from: bad, kinds: kinds)
        try station.startEncoder(segmentType: "packed")
        XCTAssertTrue(station.waitForSegments(3), "ffmpeg wrote no live playlist")
        let daemon = try serve([station.url("live.m3u8")])
        let signals = try monitor(daemon)
        try waitForTitle("First Tone", timeout: 20)
        try waitForTitle("After The Bad Tags", timeout: bad + Double(kinds.count) + 20)
        try waitForMusic(daemon, "music after the malformed tags")
        let titles = signals.messages.compactMap { $0.changedProperties["Metadata"]?.dictionary?["xesam:title"] }
        print("HLS titles around malformed tags: \(titles)")
        XCTAssertFalse(titles.contains { [.string("Bad Title"), .string("Cut Title")].contains($0) }, "\(titles)")
        XCTAssertNil(daemon.stderrLines.first { $0.contains("reconnecting") }, daemon.stderrLines.joined(separator: "\n"))
        XCTAssertTrue(daemon.isRunning)
    }

    private func measure(station: HLSTestStation, playlist: String, label: String) throws {
        let daemon = try serve([station.url(playlist)])
        let signals = try monitor(daemon)
        try waitForMusic(daemon, "\(label): the station at the headphones", timeout: 20)
        try waitForTitle("First Tone", timeout: 20)
        XCTAssertEqual(try metadata()["xesam:artist"], .array([.string("HLS Artist")]))
        try waitForTitle("Second Tone", timeout: change + 10)
        let offset = try HeardTitleTiming.offset(of: "Second Tone", signals: signals, recorder: try XCTUnwrap(recording))
        recording = nil
        print(String(format: "%@ title timing: Metadata(Second Tone) published %+.0f ms from the first 660 Hz sample heard",
                     label, offset * 1000))
        XCTAssertLessThan(abs(offset), 0.1, String(format: "published %+.0f ms from its first sample heard", offset * 1000))
        XCTAssertTrue(daemon.isRunning)
    }
}
