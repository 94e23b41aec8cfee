import Foundation
import XCTest
@testable import TestSupport

/// Found by the bus fuzz test (an AddTrack of `file:///` queued the machine's MP3s): a mono
/// track followed by a stereo one killed the daemon — the stereo source was fed gaplessly into
/// the mono stream and `MP3Decoder.read` trapped ("needs room for one PCM frame"). Fixed with
/// the decode-ahead output; this keeps it fixed. Tracks of other formats play through.
final class MixedFormatQueueTests: AubadeTestCase {
    private var folder: URL?

    override func tearDown() {
        super.tearDown()
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// A tone MP3 of `seconds` with `channels` at `rate` Hz, titled `title`.
    private func tone(_ name: String, seconds: Double, channels: Int, rate: Int, title: String, in folder: URL) throws -> URL {
        let wav = folder.appendingPathComponent(name + ".wav")
        let mp3 = folder.appendingPathComponent(name + ".mp3")
        let sox = try Shell.run("sox", ["-q", "-n", "-r", "\(rate)", "-c", "\(channels)", "-b", "16", wav.path,
                                        "synth", "\(seconds)", "sine", "440", "vol", "0.5"])
        guard sox.succeeded else { throw DaemonError("sox: \(sox)") }
        let lame = try Shell.run("lame", ["--quiet", "-m", channels == 1 ? "m" : "j", "--tt", title, wav.path, mp3.path],
                                 timeout: 60)
        guard lame.succeeded else { throw DaemonError("lame: \(lame)") }
        return mp3
    }

    func testMonoThenStereoThenMonoPlaysThrough() throws {
        let folder = TestRunDirectory.url.appendingPathComponent("formats-\(UUID().uuidString)", isDirectory: true)
        self.folder = folder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let mono = try tone("mono", seconds: 1, channels: 1, rate: 22_050, title: "Mono", in: folder)
        let stereo = try tone("stereo", seconds: 1.5, channels: 2, rate: 44_100, title: "Stereo", in: folder)
        let daemon = try startDaemon([mono, stereo, mono])
        try waitForTitle("Stereo", timeout: 10)
        XCTAssertNotNil(daemon.waitForLog(containing: "end of the queue", timeout: 15), "the queue did not play to its end")
        XCTAssertTrue(daemon.isRunning, "the daemon died between tracks of different formats")
        assertStillAnswers()
    }
}
