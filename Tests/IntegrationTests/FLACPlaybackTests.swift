import Foundation
import SoundAnalysis
import XCTest
@testable import TestSupport

/// FLAC in the real daemon: a FLAC tone is heard at the headphones sink, its Metadata has the
/// MPRIS types (several artists as an array, the exact length as Int64…), and two FLAC files
/// cut from one continuous tone play as one tone (gapless), judged like `GaplessTests`.
final class FLACPlaybackTests: AubadeTestCase {
    private var recording: TimedRecording?

    override func tearDown() {
        _ = recording?.stop()
        recording = nil
        super.tearDown()
    }

    /// The FLAC files of this run, made once with sox and flac.
    private final class Music: Sendable {
        let directory = TestRunDirectory.url.appendingPathComponent("flac-music", isDirectory: true)
        var tagged: URL { directory.appendingPathComponent("tagged.flac") }
        var gaplessA: URL { directory.appendingPathComponent("gapless-a.flac") }
        var gaplessB: URL { directory.appendingPathComponent("gapless-b.flac") }

        static let shared = Result { try Music() }

        private init() throws {
            try? FileManager.default.removeItem(at: directory)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let wav = directory.appendingPathComponent("tone.wav").path
            try Self.tool("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "2.5", "sine", "523", "vol", "0.5"])
            try Self.tool("flac", ["--silent", "-f", "-T", "TITLE=Flake", "-T", "ARTIST=Ann", "-T", "ARTIST=Bob",
                                   "-T", "ALBUM=Snow", "-T", "ALBUMARTIST=Various", "-T", "GENRE=Ambient",
                                   "-T", "TRACKNUMBER=3/12", "-T", "DISCNUMBER=2", "-T", "DATE=2011",
                                   "-o", tagged.path, wav])
            // One continuous 6 s tone cut at exactly 3 s (132 300 frames).
            let whole = directory.appendingPathComponent("whole.wav").path
            let partA = directory.appendingPathComponent("a.wav").path, partB = directory.appendingPathComponent("b.wav").path
            try Self.tool("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", whole, "synth", "6", "sine", "440", "vol", "0.5"])
            try Self.tool("sox", ["-q", whole, partA, "trim", "0", "3"])
            try Self.tool("sox", ["-q", whole, partB, "trim", "3"])
            try Self.tool("flac", ["--silent", "-f", "-T", "TITLE=Gapless A", "-o", gaplessA.path, partA])
            try Self.tool("flac", ["--silent", "-f", "-T", "TITLE=Gapless B", "-o", gaplessB.path, partB])
            for file in [wav, whole, partA, partB] { try? FileManager.default.removeItem(atPath: file) }
        }

        private static func tool(_ name: String, _ arguments: [String]) throws {
            let result = try Shell.run(name, arguments, timeout: 60)
            guard result.succeeded else { throw DaemonError("\(name) \(arguments): \(result)") }
        }
    }

    private func music() throws -> Music { try Music.shared.get() }

    private func startRecording() throws -> TimedRecording {
        let recording = try TimedRecording()
        self.recording = recording
        guard recording.waitForSeconds(0.2, timeout: 10) else {
            throw DaemonError("parec delivered nothing from headphones.monitor within 10 s")
        }
        return recording
    }

    func testAFLACToneIsHeard() throws {
        let music = try music()
        let recorder = try startRecording()
        let startedAt = recorder.seconds
        try startDaemon([music.tagged])
        try waitForTitle("Flake")
        guard recorder.waitForSeconds(startedAt + 4.5, timeout: 15) else {
            return XCTFail("the recording stalled at \(recorder.seconds) s")
        }
        let audio = ToneAnalysis(recorder.stop())
        recording = nil
        guard let sounding = audio.soundingRange() else { return XCTFail("the recording is silent") }
        let duration = Double(sounding.count) / ToneAnalysis.rate
        let amplitude = audio.amplitude(in: sounding.lowerBound..<sounding.upperBound)
        print(String(format: "FLAC tone: sounding %.4f s (2.5 expected), amplitude %.0f", duration, amplitude))
        XCTAssertGreaterThan(amplitude, 4000, "the tone is too quiet")
        XCTAssertEqual(duration, 2.5, accuracy: 0.03)
        let halfPeriod = ToneAnalysis.rate / 1046
        let inner = (sounding.lowerBound + Int(0.05 * ToneAnalysis.rate))..<(sounding.upperBound - Int(0.05 * ToneAnalysis.rate))
        XCTAssertTrue(audio.irregularCrossings(in: inner, expected: halfPeriod, tolerance: 2).isEmpty, "not a clean 523 Hz tone")
    }

    func testMetadataOfAFLACFileHasTheMPRISTypes() throws {
        try startDaemon([try music().tagged])
        try playerctl("pause")
        try waitForTitle("Flake")
        let metadata = try metadata()
        XCTAssertEqual(metadata["mpris:length"], .integer("x", 2_500_000), "exact, from STREAMINFO: \(metadata)")
        XCTAssertEqual(metadata["xesam:artist"]?.signature, "as")
        XCTAssertEqual(metadata["xesam:artist"]?.strings, ["Ann", "Bob"])
        XCTAssertEqual(metadata["xesam:album"], .string("Snow"))
        XCTAssertEqual(metadata["xesam:albumArtist"]?.strings, ["Various"])
        XCTAssertEqual(metadata["xesam:genre"]?.signature, "as")
        XCTAssertEqual(metadata["xesam:genre"]?.strings, ["Ambient"])
        XCTAssertEqual(metadata["xesam:trackNumber"], .integer("i", 3))
        XCTAssertEqual(metadata["xesam:discNumber"], .integer("i", 2))
        XCTAssertEqual(metadata["xesam:contentCreated"]?.signature, "s")
        XCTAssertEqual(metadata["mpris:trackid"]?.signature, "o")
        XCTAssertEqual(metadata["xesam:url"], .string(try music().tagged.absoluteString))
    }

    func testTwoFLACFilesCutFromOneToneSoundAsOneTone() throws {
        let music = try music()
        let recorder = try startRecording()
        let startedAt = recorder.seconds
        try startDaemon([music.gaplessA, music.gaplessB])
        guard recorder.waitForSeconds(startedAt + 9, timeout: 20) else {
            return XCTFail("the recording stalled at \(recorder.seconds) s")
        }
        let audio = ToneAnalysis(recorder.stop())
        recording = nil
        // The boundary: 3 s (132 300 frames) after the first sound.
        GaplessJudgement(audio: audio, firstFileFrames: 132_300, expectedSeconds: 6).assertOneTone("FLAC")
    }
}
