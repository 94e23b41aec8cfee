import Foundation
import XCTest

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
        try startPlaying([OggFixtures.shared().vorbis])
        try waitForTitle("Vorbis Tone")
        let levels = try Pulse.listen(seconds: 1)
        XCTAssertTrue(levels.isSound, "headphones.monitor while a Vorbis file plays: \(levels)")
    }

    func testOpusTonePlaysAtTheHeadphones() throws {
        try startPlaying([OggFixtures.shared().opus])
        try waitForTitle("Opus Tone")
        let levels = try Pulse.listen(seconds: 1)
        XCTAssertTrue(levels.isSound, "headphones.monitor while an Opus file plays: \(levels)")
    }

    func testVorbisMetadataHasEveryKeyWithItsType() throws {
        try checkMetadata(of: OggFixtures.shared().vorbis, title: "Vorbis Tone")
    }

    func testOpusMetadataHasEveryKeyWithItsType() throws {
        try checkMetadata(of: OggFixtures.shared().opus, title: "Opus Tone")
    }

    func testVorbisFilesCutFromOneToneSoundAsOneTone() throws {
        let fixtures = try OggFixtures.shared()
        try checkGapless(fixtures.vorbisGapless, what: "Vorbis")
    }

    func testOpusFilesCutFromOneToneSoundAsOneTone() throws {
        let fixtures = try OggFixtures.shared()
        try checkGapless(fixtures.opusGapless, what: "Opus")
    }

    func testVorbisFileChangingFormatMidwayEndsThereAndTheQueueGoesOn() throws {
        let fixtures = try OggFixtures.shared()
        try checkFormatChangeMidway([fixtures.vorbisChained, fixtures.vorbis], next: "Vorbis Tone")
    }

    func testOpusFileChangingChannelsMidwayEndsThereAndTheQueueGoesOn() throws {
        let fixtures = try OggFixtures.shared()
        try checkFormatChangeMidway([fixtures.opusChained, fixtures.opus], next: "Opus Tone")
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
        guard let sounding = audio.soundingRange() else { return XCTFail("the recording is silent", line: line) }

        let rate = ToneAnalysis.rate
        let duration = Double(sounding.count) / rate
        let amplitude = audio.amplitude(in: sounding.lowerBound..<sounding.upperBound)
        let boundary = sounding.lowerBound + Int(3 * rate)
        let inner = (sounding.lowerBound + Int(0.05 * rate))..<(sounding.upperBound - Int(0.05 * rate))
        let halfPeriod = rate / 880
        let cleanStep = amplitude * 2 * Double.pi * 440 / rate
        let gaps = audio.quietRuns(in: inner, threshold: amplitude * 0.05, minimumLength: Int(0.001 * rate))
        let irregular = audio.irregularCrossings(in: inner, expected: halfPeriod, tolerance: 2)
        let step = audio.largestStep(in: inner)
        func place(_ frame: Double) -> String {
            String(format: "%.4f s after the boundary", (frame - Double(boundary)) / rate)
        }
        print(String(format: "%@ gapless: sounding %.4f s (6.0000 expected), amplitude %.0f, largest step %.0f (clean sine %.0f) at %@; "
                     + "%d quiet runs ≥ 1 ms, %d irregular zero-crossing spacings",
                     what, duration, amplitude, step.size, cleanStep, place(Double(step.at)), gaps.count, irregular.count))
        XCTAssertGreaterThan(amplitude, 4000, "the tone is too quiet to judge", line: line)
        XCTAssertTrue(gaps.isEmpty, "\(what): silence inside the tone: "
                      + gaps.prefix(5).map { "\($0.count) frames at \(place(Double($0.lowerBound)))" }.joined(separator: ", "),
                      line: line)
        XCTAssertTrue(irregular.isEmpty, "\(what): the tone's period breaks: "
                      + irregular.prefix(5).map { String(format: "spacing %.1f at %@", $0.spacing, place($0.at)) }
                      .joined(separator: ", "), line: line)
        XCTAssertLessThan(step.size, cleanStep * 1.5, "\(what): a click of \(Int(step.size)) at \(place(Double(step.at)))",
                          line: line)
        XCTAssertEqual(duration, 6.0, accuracy: 0.03, "\(what): 6 s of tone played as \(duration) s", line: line)
    }
}

/// The Ogg files of these tests, made once per test process with sox, oggenc and opusenc.
struct OggFixtures {
    let vorbis: URL
    let opus: URL
    let vorbisGapless: [URL]
    let opusGapless: [URL]
    /// 1 s of 440 Hz stereo, then a link of 2 s of 660 Hz mono (Vorbis's at 22.05 kHz).
    let vorbisChained: URL
    let opusChained: URL

    static func shared() throws -> OggFixtures { try made.get() }
    private static let made: Result<OggFixtures, any Error> = Result { try make() }

    private static func make() throws -> OggFixtures {
        let directory = TestRunDirectory.url.appendingPathComponent("ogg-music", isDirectory: true)
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        func file(_ name: String) -> URL { directory.appendingPathComponent(name) }
        let cover = file("cover.png")
        try TinyImages.png.write(to: cover)

        // Tagged tones of 2 s, each with a front cover.
        try sox(["-n", "-r", "44100", "-c", "2", "-b", "16", file("tone.wav").path, "synth", "2", "sine", "523", "vol", "0.5"])
        let tags = ["ARTIST=Ann", "ARTIST=Bob", "ALBUM=Ogg Demo", "ALBUMARTIST=Various", "GENRE=Jazz",
                    "TRACKNUMBER=4", "DISCNUMBER=2", "DATE=2011"]
        let picture = pictureComment(Array(TinyImages.png))
        try tool("oggenc", ["-Q", "-c", "TITLE=Vorbis Tone"] + (tags + ["METADATA_BLOCK_PICTURE=\(picture)"]).flatMap { ["-c", $0] }
                 + ["-o", file("tone.ogg").path, file("tone.wav").path])
        try tool("opusenc", ["--quiet", "--title", "Opus Tone", "--picture", "3||||\(cover.path)"]
                 + tags.flatMap { ["--comment", $0] } + [file("tone.wav").path, file("tone.opus").path])

        // The gapless pairs: one continuous tone, cut at exactly 3 s (Opus's at 48 kHz, its own rate).
        var pairs: [[URL]] = []
        for (codec, rate) in [("ogg", 44_100), ("opus", 48_000)] {
            let whole = file("whole-\(codec).wav"), partA = file("a-\(codec).wav"), partB = file("b-\(codec).wav")
            try sox(["-n", "-r", "\(rate)", "-c", "2", "-b", "16", whole.path, "synth", "6", "sine", "440", "vol", "0.5"])
            try sox([whole.path, partA.path, "trim", "0", "3"])
            try sox([whole.path, partB.path, "trim", "3"])
            let a = file("gapless-a.\(codec)"), b = file("gapless-b.\(codec)")
            if codec == "ogg" {
                try tool("oggenc", ["-Q", "-c", "TITLE=Gapless A", "-o", a.path, partA.path])
                try tool("oggenc", ["-Q", "-c", "TITLE=Gapless B", "-o", b.path, partB.path])
            } else {
                try tool("opusenc", ["--quiet", "--title", "Gapless A", partA.path, a.path])
                try tool("opusenc", ["--quiet", "--title", "Gapless B", partB.path, b.path])
            }
            pairs.append([a, b])
            for wav in [whole, partA, partB] { try? FileManager.default.removeItem(at: wav) }
        }

        // Chained files: a 1 s stereo link, then a 2 s mono one (Vorbis's also at another rate).
        try sox(["-n", "-r", "44100", "-c", "2", "-b", "16", file("stereo.wav").path, "synth", "1", "sine", "440", "vol", "0.5"])
        try sox(["-n", "-r", "22050", "-c", "1", "-b", "16", file("mono.wav").path, "synth", "2", "sine", "660", "vol", "0.5"])
        // Distinct serial numbers: links of one serial would not be told apart.
        try tool("oggenc", ["-Q", "-s", "1001", "-c", "TITLE=Chained", "-o", file("link1.ogg").path, file("stereo.wav").path])
        try tool("oggenc", ["-Q", "-s", "1002", "-c", "TITLE=Link Two", "-o", file("link2.ogg").path, file("mono.wav").path])
        try tool("opusenc", ["--quiet", "--serial", "2001", "--title", "Chained", file("stereo.wav").path, file("link1.opus").path])
        try tool("opusenc", ["--quiet", "--serial", "2002", "--title", "Link Two", file("mono.wav").path, file("link2.opus").path])
        for codec in ["ogg", "opus"] {
            let glued = try Data(contentsOf: file("link1.\(codec)")) + Data(contentsOf: file("link2.\(codec)"))
            try glued.write(to: file("chained.\(codec)"))
        }
        for name in ["tone.wav", "stereo.wav", "mono.wav", "link1.ogg", "link2.ogg", "link1.opus", "link2.opus"] {
            try? FileManager.default.removeItem(at: file(name))
        }
        return OggFixtures(vorbis: file("tone.ogg"), opus: file("tone.opus"), vorbisGapless: pairs[0], opusGapless: pairs[1],
                           vorbisChained: file("chained.ogg"), opusChained: file("chained.opus"))
    }

    /// METADATA_BLOCK_PICTURE: base64 of a FLAC picture block holding a front cover PNG.
    private static func pictureComment(_ data: [UInt8]) -> String {
        func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xff) } }
        let mime = Array("image/png".utf8)
        let block = be32(3) + be32(mime.count) + mime + be32(0) + be32(2) + be32(2) + be32(24) + be32(0) + be32(data.count) + data
        return Data(block).base64EncodedString()
    }

    private static func sox(_ arguments: [String]) throws {
        try tool("sox", ["-q"] + arguments)
    }

    private static func tool(_ name: String, _ arguments: [String]) throws {
        let result = try Shell.run(name, arguments, timeout: 60)
        guard result.succeeded else { throw DaemonError("\(name) \(arguments.prefix(4)): \(result)") }
    }
}
