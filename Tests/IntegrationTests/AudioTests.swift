import Foundation
import XCTest
@testable import TestSupport

/// What PulseAudio sees: one music stream from Aubade on the default sink (headphones),
/// corked while paused, gone when stopped, kept across tracks.
final class AudioTests: AubadeTestCase {
    /// Waits for the daemon's stream to exist (and optionally to satisfy `condition`).
    private func waitForStream(of daemon: Daemon, _ what: String = "our sink input",
                               where condition: @escaping (SinkInput) -> Bool = { _ in true },
                               file: StaticString = #filePath, line: UInt = #line) throws -> SinkInput {
        var found: SinkInput?
        try eventually(what, file: file, line: line) {
            found = try Pulse.sinkInput(ofProcess: daemon.pid)
            return found.map(condition) ?? false
        }
        return found!
    }

    func testPlayingSendsSoundToTheHeadphones() throws {
        let daemon = try startPlaying([fixtures.long])
        _ = try waitForStream(of: daemon, "an uncorked stream") { $0.corked == false }
        let levels = try Pulse.listen(seconds: 1)
        XCTAssertTrue(levels.isSound, "headphones.monitor while Playing: \(levels)")
    }

    func testStreamIsMusicFromAubadeOnTheDefaultSink() throws {
        let daemon = try startPlaying([fixtures.long])
        // Settled: pipewire-pulse lists a new stream a moment before it links it (seen corked,
        // on no sink); what is judged is where the music then plays.
        let stream = try waitForStream(of: daemon, "an uncorked stream on a sink") { $0.corked == false && $0.sink != nil }
        XCTAssertEqual(stream.properties["media.role"], "music")
        XCTAssertEqual(stream.properties["application.name"], "Aubade")
        XCTAssertEqual(stream.corked, false)
        XCTAssertEqual(stream.sink.flatMap { try? Pulse.sinkNames()[$0] }, "headphones")
    }

    func testPauseCorksTheStreamAndSilencesIt() throws {
        let daemon = try startPlaying([fixtures.long])
        _ = try waitForStream(of: daemon) { $0.corked == false }
        try playerctl("pause")
        try waitForStatus("Paused")
        _ = try waitForStream(of: daemon, "a corked stream") { $0.corked == true }
        let levels = try Pulse.listen(seconds: 1)
        XCTAssertTrue(levels.isSilence, "headphones.monitor while Paused: \(levels)")
    }

    func testResumeUncorksTheStream() throws {
        // The stream first: Playing is announced before the sound server is reached, and a
        // Pause that comes before the stream exists makes none (seen on PipeWire: no corked
        // stream ever, since none was needed).
        let daemon = try startPlaying([fixtures.long])
        _ = try waitForStream(of: daemon, "an uncorked stream") { $0.corked == false }
        try playerctl("pause")
        _ = try waitForStream(of: daemon, "a corked stream") { $0.corked == true }
        try playerctl("play")
        _ = try waitForStream(of: daemon, "an uncorked stream") { $0.corked == false }
        XCTAssertTrue(try Pulse.listen(seconds: 1).isSound)
    }

    func testStopRemovesTheStream() throws {
        let daemon = try startPlaying([fixtures.long])
        _ = try waitForStream(of: daemon)
        try playerctl("stop")
        try waitForStatus("Stopped")
        try eventually("our sink input to go away") { try Pulse.sinkInput(ofProcess: daemon.pid) == nil }
    }

    func testOneStreamServesConsecutiveTracks() throws {
        let daemon = try startPlaying([fixtures.long, fixtures.long2])
        let before = try waitForStream(of: daemon)
        try playerctl("next")
        try waitForTitle("Long Two")
        let after = try waitForStream(of: daemon) { $0.corked == false }
        XCTAssertEqual(after.index, before.index, "a new stream per track")
        XCTAssertEqual(try Pulse.sinkInputs().filter { $0.processID == daemon.pid }.count, 1)
    }

    func testVolumeIsAppliedToTheStream() throws {
        let daemon = try startPlaying([fixtures.long])
        _ = try waitForStream(of: daemon)
        try playerctl("volume", "0.4")
        XCTAssertEqual(try playerProperty("Volume").double ?? -1, 0.4, accuracy: 0.001)
        let stream = try waitForStream(of: daemon, "volume 40%") { input in
            !input.volumePercents.isEmpty && input.volumePercents.allSatisfy { (39...41).contains($0) }
        }
        XCTAssertFalse(stream.volumePercents.isEmpty)
    }

    func testNegativeVolumeBecomesZero() throws {
        try startPlaying([fixtures.long])
        let reply = try Bus.set(Bus.playerInterface, "Volume", "double:-0.5")
        XCTAssertTrue(reply.succeeded, "\(reply)")
        try eventually("Volume 0") { try playerProperty("Volume").double == 0 }
    }
}
