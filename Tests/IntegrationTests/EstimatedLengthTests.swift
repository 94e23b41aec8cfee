import Foundation
import XCTest
@testable import TestSupport

/// An MP3 without a Xing/Info frame is queued with an estimated mpris:length (from its size,
/// without reading it whole); once it plays, the exact length is measured and published:
/// TrackMetadataChanged and PropertiesChanged(Metadata).
final class EstimatedLengthTests: AubadeTestCase {
    /// A 3 s CBR tone written by `lame -t` (no Info frame), followed by 96 KiB of zeros: the
    /// size-based estimate counts them as audio (about 4 s more), the measured length does not.
    private func mp3WithoutInfoFrame() throws -> URL {
        let directory = TestRunDirectory.url.appendingPathComponent("estimate-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let wav = directory.appendingPathComponent("tone.wav"), mp3 = directory.appendingPathComponent("noinfo.mp3")
        let sox = try Shell.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav.path, "synth", "3", "sine", "440", "vol", "0.5"], timeout: 60)
        XCTAssertTrue(sox.succeeded, "\(sox)")
        let lame = try Shell.run("lame", ["--quiet", "-t", "-b", "192", "--add-id3v2", "--tt", "No Info", wav.path, mp3.path], timeout: 60)
        XCTAssertTrue(lame.succeeded, "\(lame)")
        let handle = try FileHandle(forWritingTo: mp3)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(count: 96 * 1024))
        try handle.close()
        try? FileManager.default.removeItem(at: wav)
        return mp3
    }

    func testTheExactLengthIsPublishedOnceItPlays() throws {
        let file = try mp3WithoutInfoFrame()
        let daemon = try startPlaying([fixtures.long, file])
        let ids = try tracks()
        XCTAssertEqual(ids.count, 2)
        let estimate = try XCTUnwrap(Bus.tracksMetadata([ids[1]]).first?["mpris:length"]?.int64, "no estimated mpris:length")
        XCTAssertGreaterThan(estimate, 5_000_000, "the estimate counts the trailing bytes as audio")

        let signals = try monitor(daemon)
        let mark = signals.mark
        try playerctl("next")
        try waitForTitle("No Info")
        var exact: Int64 = 0
        try eventually("the measured mpris:length") {
            exact = try metadata()["mpris:length"]?.int64 ?? 0
            return exact != estimate
        }
        // Whole frames of a 3 s tone: 3 s and at most a few frames.
        XCTAssertGreaterThanOrEqual(exact, 3_000_000)
        XCTAssertLessThan(exact, 3_200_000)
        XCTAssertEqual(try Bus.tracksMetadata([ids[1]]).first?["mpris:length"]?.int64, exact, "GetTracksMetadata says the same")
        let announced = signals.waitForMessage(after: mark) {
            $0.changedInterface == Bus.playerInterface && $0.changedProperties["Metadata"]?.dictionary?["mpris:length"]?.int64 == exact
        }
        XCTAssertNotNil(announced, "PropertiesChanged(Metadata) with the exact length")
        let changed = signals.waitForMessage(after: mark) {
            $0.kind == "signal" && $0.interface == Bus.trackListInterface && $0.member == "TrackMetadataChanged"
                && $0.arguments.last?.dictionary?["mpris:length"]?.int64 == exact
        }
        XCTAssertNotNil(changed, "TrackMetadataChanged with the exact length")
        XCTAssertEqual(try trackID(), ids[1], "the entry keeps its id")

        // The tag index learnt it: the same file queued again comes with the exact length.
        try addTrack(file)
        try eventually("a third entry") { try tracks().count == 3 }
        let third = try XCTUnwrap(try tracks().last)
        XCTAssertEqual(try Bus.tracksMetadata([third]).first?["mpris:length"]?.int64, exact)
    }
}
