import Foundation
import XCTest
@testable import TestSupport

/// `aubade decode FILE > OUT`: the PCM the service would play, exactly, and a line about it.
final class DecodeVerbTests: AubadeTestCase {
    func testAFLACNamedMP3DecodesToExactlyItsSamples() throws {
        let folder = try makeDirectory("decode")
        let wav = folder.appendingPathComponent("tone.wav")
        let flac = folder.appendingPathComponent("really-flac.mp3")
        XCTAssertTrue(try Shell.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav.path, "synth", "1.5", "sine", "440"]).succeeded)
        XCTAssertTrue(try Shell.run("flac", ["--silent", "-f", "-o", flac.path, wav.path], timeout: 60).succeeded)
        let output = folder.appendingPathComponent("out.raw")
        let result = try Shell.run("/bin/sh", ["-c", "exec \"$0\" decode \"$1\" > \"$2\"", try Daemon.binaryPath(), flac.path, output.path],
                                   timeout: 60)
        XCTAssertEqual(result.status, 0, "\(result)")
        XCTAssertTrue(result.stderr.contains("really-flac.mp3: FLAC, 44100 Hz, 2 channels, 1.500 s"), result.stderr)
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int)
        XCTAssertEqual(size, 66_150 * 4, "1.5 s of stereo 16-bit PCM")
    }

    func testAFileThatDoesNotDecodeFailsWithItsReason() throws {
        let folder = try makeDirectory("decode-bad")
        let junk = folder.appendingPathComponent("junk.flac")
        try (Data("fLaC".utf8) + Data(repeating: 0xAB, count: 4096)).write(to: junk)
        let result = try Shell.run("/bin/sh", ["-c", "exec \"$0\" decode \"$1\" > /dev/null", try Daemon.binaryPath(), junk.path])
        XCTAssertEqual(result.status, 1, "\(result)")
        XCTAssertTrue(result.stderr.contains("not a FLAC file"), result.stderr)
    }
}
