import Foundation
import SoundAnalysis
import XCTest
@testable import TestSupport

/// Ogg Vorbis and Opus through the real daemon: a tone of each reaches the headphones sink,
/// Metadata has the same keys and types as for MP3 (two ARTIST comments → two xesam:artist,
/// the METADATA_BLOCK_PICTURE cover as mpris:artUrl), and two files cut from one continuous
/// tone play back as one tone in each format (Opus at 48 kHz).
final class OggPlaybackTests: AubadeTestCase {
    private var recording: TimedRecording?

    override func tearDown() {
        _ = recording?.stop()
        recording = nil
        super.tearDown()
    }

    func testVorbisTonePlaysAtTheHeadphones() throws {
        try startPlaying([OggFixtures.tones().vorbis])
        try waitForTitle("Vorbis Tone")
        let levels = try Pulse.listen(seconds: 1)
        XCTAssertTrue(levels.isSound, "headphones.monitor while a Vorbis file plays: \(levels)")
    }

    func testOpusTonePlaysAtTheHeadphones() throws {
        try startPlaying([OggFixtures.tones().opus])
        try waitForTitle("Opus Tone")
        let levels = try Pulse.listen(seconds: 1)
        XCTAssertTrue(levels.isSound, "headphones.monitor while an Opus file plays: \(levels)")
    }

    func testVorbisMetadataHasEveryKeyWithItsType() throws {
        try checkMetadata(of: OggFixtures.tones().vorbis, title: "Vorbis Tone")
    }

    func testOpusMetadataHasEveryKeyWithItsType() throws {
        try checkMetadata(of: OggFixtures.tones().opus, title: "Opus Tone")
    }

    func testVorbisFilesCutFromOneToneSoundAsOneTone() throws {
        try checkGapless(OggFixtures.gaplessPairs().vorbis, what: "Vorbis")
    }

    func testOpusFilesCutFromOneToneSoundAsOneTone() throws {
        try checkGapless(OggFixtures.gaplessPairs().opus, what: "Opus")
    }

    func testVorbisFileChangingFormatMidwayEndsThereAndTheQueueGoesOn() throws {
        try checkFormatChangeMidway([OggFixtures.chained().vorbis, OggFixtures.tones().vorbis], next: "Vorbis Tone")
    }

    func testOpusFileChangingChannelsMidwayEndsThereAndTheQueueGoesOn() throws {
        try checkFormatChangeMidway([OggFixtures.chained().opus, OggFixtures.tones().opus], next: "Opus Tone")
    }

    // MARK: Checks

    /// A chained file (1 s stereo, then a link of 2 s mono) and a 2 s tone: the stream was
    /// made for the first link's format, so the track ends where the format changes — no
    /// samples of the mono link played as if stereo — and the next track follows: 3 s of sound.
    private func checkFormatChangeMidway(_ queue: [URL], next: String, line: UInt = #line) throws {
        let recorder = try TimedRecording()
        recording = recorder
        guard recorder.waitForSeconds(0.2, timeout: 10) else {
            throw DaemonError("parec delivered nothing from headphones.monitor within 10 s")
        }
        let startedAt = recorder.seconds
        let daemon = try startDaemon(queue)
        try waitForTitle(next, timeout: 8)
        XCTAssertNotNil(daemon.waitForLog(containing: "end of the queue", timeout: 10), "the queue did not play to its end",
                        line: line)
        // 3 s of sound after the start, and some silence after it.
        guard recorder.waitForSeconds(startedAt + 5.5, timeout: 15) else {
            return XCTFail("the recording stalled at \(recorder.seconds) s", line: line)
        }
        let audio = ToneAnalysis(recorder.stop())
        recording = nil
        XCTAssertTrue(daemon.isRunning, "the daemon died at a format change inside a file", line: line)
        guard let sounding = audio.soundingRange() else { return XCTFail("the recording is silent", line: line) }
        let duration = Double(sounding.count) / ToneAnalysis.rate
        print(String(format: "format change midway: sounding %.3f s (3.000 expected)", duration))
        XCTAssertEqual(duration, 3.0, accuracy: 0.1, "the chained file's second link played in the wrong format", line: line)
        assertStillAnswers(line: line)
    }

    private func checkMetadata(of file: URL, title: String, line: UInt = #line) throws {
        try startDaemon([file])
        try playerctl("pause")
        try waitForTitle(title)
        let metadata = try metadata()
        XCTAssertEqual(metadata["mpris:trackid"]?.signature, "o", line: line)
        XCTAssertEqual(metadata["mpris:length"]?.signature, "x", line: line)
        // Exact, from the last granule position: 2 s.
        XCTAssertEqual(metadata["mpris:length"]?.int64, 2_000_000, "\(metadata)", line: line)
        XCTAssertEqual(metadata["xesam:artist"]?.signature, "as", line: line)
        XCTAssertEqual(metadata["xesam:artist"]?.strings, ["Ann", "Bob"], line: line)
        XCTAssertEqual(metadata["xesam:album"], .string("Ogg Demo"), line: line)
        XCTAssertEqual(metadata["xesam:albumArtist"]?.strings, ["Various"], line: line)
        XCTAssertEqual(metadata["xesam:genre"]?.strings, ["Jazz"], line: line)
        XCTAssertEqual(metadata["xesam:trackNumber"], .integer("i", 4), line: line)
        XCTAssertEqual(metadata["xesam:discNumber"], .integer("i", 2), line: line)
        XCTAssertEqual(metadata["xesam:contentCreated"]?.signature, "s", line: line)
        XCTAssertEqual(metadata["xesam:url"], .string(file.absoluteString), line: line)
        // The cover is looked up off the main queue once the track is current.
        try eventually("mpris:artUrl") { try self.metadata()["mpris:artUrl"] != nil }
        let art = try self.metadata()["mpris:artUrl"]
        XCTAssertEqual(art?.signature, "s", line: line)
        if let text = art?.string, let url = URL(string: text), url.isFileURL {
            XCTAssertEqual(try Data(contentsOf: url), TinyImages.png, "the cached cover differs from the embedded one", line: line)
        } else {
            XCTFail("mpris:artUrl is not a file:// URI: \(String(describing: art))", line: line)
        }
    }

    /// Plays `pair` (3 s + 3 s of one 440 Hz tone) and judges the recording as GaplessTests does.
    private func checkGapless(_ pair: [URL], what: String, line: UInt = #line) throws {
        let recorder = try TimedRecording()
        recording = recorder
        guard recorder.waitForSeconds(0.2, timeout: 10) else {
            throw DaemonError("parec delivered nothing from headphones.monitor within 10 s")
        }
        let startedAt = recorder.seconds
        try startDaemon(pair)
        guard recorder.waitForSeconds(startedAt + 8.5, timeout: 20) else {
            return XCTFail("the recording stalled at \(recorder.seconds) s", line: line)
        }
        let audio = ToneAnalysis(recorder.stop())
        recording = nil
        GaplessJudgement(audio: audio, firstFileFrames: Int(3 * ToneAnalysis.rate), expectedSeconds: 6).assertOneTone(what, line: line)
    }
}
