import Foundation
import SoundAnalysis
import XCTest
@testable import TestSupport

/// M4A (AAC, ALAC) and ADTS files in the daemon, through the FFmpeg helper process: a mixed
/// album queued in order with its tags, MPRIS types and covers; gapless joins to M4A and
/// from M4A to FLAC, judged on the headphones monitor; and the helper's life: none while only
/// MP3s play (FFmpeg never mapped into the daemon, nor libcurl), stopped once no item needs it.
final class M4APlaybackTests: AubadeTestCase {
    private var folder: URL!
    private var recording: TimedRecording?

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = TestRunDirectory.url.appendingPathComponent("m4a-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        _ = recording?.stop()
        recording = nil
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    private func file(_ name: String) -> URL { folder.appendingPathComponent(name) }

    private func startRecording() throws -> TimedRecording {
        let recording = try TimedRecording()
        self.recording = recording
        guard recording.waitForSeconds(0.2, timeout: 10) else {
            throw DaemonError("parec delivered nothing from headphones.monitor within 10 s")
        }
        return recording
    }

    func testAMixedAlbumIsQueuedInOrderWithTheSameTagsAndTypesAsEveryFormat() throws {
        // An album in disc and track order (Aubade's folder order), whatever the formats.
        try Fixtures.makeM4A(at: file("a.m4a").path, title: "One AAC", tagged: true,
                                           extra: ["-metadata", "track=1/5"])
        try Fixtures.makeMP3(at: file("b.mp3").path, seconds: 2, lameOptions: ["--tt", "Two MP3", "--tn", "2/5"])
        try Fixtures.makeFLAC(at: file("c.flac").path, seconds: 2, tags: ["TITLE=Three FLAC", "TRACKNUMBER=3"])
        try Fixtures.makeM4A(at: file("d.m4a").path, codec: .alac, title: "Four ALAC", tagged: true,
                                           moovAtEnd: false, extra: ["-metadata", "track=4/5", "-metadata", "disc=1/2"])
        // Raw ADTS, untagged: after the tagged tracks, by name.
        try Fixtures.makeADTS(at: file("e five.aac").path)
        try startDaemon([folder])
        try waitForStatus("Playing")
        XCTAssertEqual(try queueTitles(), ["One AAC", "Two MP3", "Three FLAC", "Four ALAC", "e five"])
        let ids = try tracks()
        let entries = try Bus.tracksMetadata([ids[0], ids[3]])
        for (entry, (title, number)) in zip(entries, [("One AAC", 1), ("Four ALAC", 4)]) {
            XCTAssertEqual(entry["xesam:title"], .string(title))
            // The types BlueZ and the desktop shells insist on, as for MP3, FLAC and Ogg.
            XCTAssertEqual(entry["xesam:artist"], .array([.string("Ann")]))
            XCTAssertEqual(entry["xesam:albumArtist"], .array([.string("Various")]))
            XCTAssertEqual(entry["xesam:album"], .string("M4A Demo"))
            XCTAssertEqual(entry["xesam:trackNumber"], .integer("i", Int64(number)))
            XCTAssertEqual(entry["xesam:discNumber"], .integer("i", 1))
            XCTAssertEqual(entry["xesam:genre"], .array([.string("Jazz")]))
            XCTAssertEqual(entry["xesam:contentCreated"], .string("2011"))
            XCTAssertEqual(entry["mpris:length"], .integer("x", 2_000_000))
        }
        // The playing M4A's cover, from its covr atom, in the cover cache.
        var art: String?
        try eventually("mpris:artUrl of the M4A") {
            art = try metadata()["mpris:artUrl"]?.string
            return art != nil
        }
        let cover = try Data(contentsOf: URL(string: art!)!)
        XCTAssertEqual(Array(cover), Fixtures.tinyPNG)
    }

    func testAnM4APairCutFromOneToneSoundsAsOneTone() throws {
        let (a, b) = try cutTone(first: ("a.m4a", .m4a), second: ("b.m4a", .m4a))
        try judgeGapless([a, b], "M4A → M4A")
    }

    func testAnM4AJoinsAFLACWithoutAGap() throws {
        let (a, b) = try cutTone(first: ("a.m4a", .m4a), second: ("b.flac", .flac))
        try judgeGapless([a, b], "M4A → FLAC")
    }

    func testAnITunesM4AJoinsAnM4AWithoutAGap() throws {
        let (a, b) = try cutTone(first: ("a.m4a", .itunes), second: ("b.m4a", .alac))
        try judgeGapless([a, b], "iTunSMPB AAC → ALAC")
    }

    func testOnlyMP3sPlayingStartsNoHelperAndMapsNoFFmpeg() throws {
        let daemon = try startPlaying([fixtures.alpha, fixtures.beta])
        // Through the start, tags and first second of playing, never a helper.
        for _ in 0..<50 {
            XCTAssertEqual(HelperProcesses.of(daemon.pid), [], "a helper runs while only MP3s play")
            Thread.sleep(forTimeInterval: 0.02)
        }
        XCTAssertFalse(HelperProcesses.mapsFFmpeg(daemon.pid), "FFmpeg's libraries are mapped into the daemon")
        // Nor libcurl's TLS stack: it is loaded at the first stream (5.4 MB resident).
        XCTAssertFalse(HelperProcesses.mapsCurl(daemon.pid), "libcurl is mapped into a daemon that played no stream")
    }

    func testTheHelperIsStoppedOnceNoItemNeedsIt() throws {
        try Fixtures.makeM4A(at: file("short.m4a").path, seconds: 1, title: "Short M4A")
        let daemon = try startDaemon([file("short.m4a").path, fixtures.alpha.path])
        try waitForTitle("Short M4A", timeout: 10)
        XCTAssertFalse(HelperProcesses.of(daemon.pid).isEmpty, "no helper while an M4A plays")
        try waitForTitle("Alpha", timeout: 10)
        // The decoding helper goes with its track, the tag reader after 2 s idle.
        try eventually("no helper left while the MP3 plays", timeout: 5) { HelperProcesses.of(daemon.pid).isEmpty }
        XCTAssertFalse(HelperProcesses.mapsFFmpeg(daemon.pid))
    }

    // MARK: Helpers

    private enum Kind { case m4a, itunes, alac, flac }

    /// One continuous 6 s 440 Hz tone at half scale, cut at exactly 3 s into two files.
    private func cutTone(first: (String, Kind), second: (String, Kind)) throws -> (URL, URL) {
        let whole = file("whole.wav"), partA = file("a.wav"), partB = file("b.wav")
        try Fixtures.makeToneWAV(at: whole.path, seconds: 6, frequency: 440)
        try Fixtures.run("sox", [whole.path, partA.path, "trim", "0", "3"])
        try Fixtures.run("sox", [whole.path, partB.path, "trim", "3"])
        func encode(_ wav: URL, _ name: String, _ kind: Kind) throws -> URL {
            let out = file(name)
            switch kind {
            case .m4a: try Fixtures.encodeM4A(wav.path, to: out.path)
            case .alac: try Fixtures.encodeM4A(wav.path, to: out.path, codec: .alac)
            case .itunes: try Fixtures.encodeITunesM4A(wav.path, to: out.path, frames: 132_300)
            case .flac: try Fixtures.encodeFLAC(wav.path, to: out.path)
            }
            return out
        }
        return (try encode(partA, first.0, first.1), try encode(partB, second.0, second.1))
    }

    private func judgeGapless(_ files: [URL], _ what: String) throws {
        let recorder = try startRecording()
        let startedAt = recorder.seconds
        try startDaemon(files)
        guard recorder.waitForSeconds(startedAt + 9, timeout: 20) else {
            return XCTFail("the recording stalled at \(recorder.seconds) s")
        }
        let audio = ToneAnalysis(recorder.stop())
        recording = nil
        GaplessJudgement(audio: audio, firstFileFrames: 132_300, expectedSeconds: 6).assertOneTone(what)
    }
}
