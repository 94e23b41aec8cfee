import Foundation
import XCTest
@testable import TestSupport

/// Every change reaches clients as PropertiesChanged on the Player interface; Position only
/// through Seeked, never PropertiesChanged.
final class SignalTests: AubadeTestCase {
    func testPauseAnnouncesPlaybackStatus() throws {
        let daemon = try startPlaying([fixtures.long])
        let signals = try monitor(daemon)
        let mark = signals.mark
        try playerctl("pause")
        XCTAssertEqual(signals.waitForPlayerChange("PlaybackStatus", after: mark), .string("Paused"))
        let resumed = signals.mark
        try playerctl("play")
        XCTAssertEqual(signals.waitForPlayerChange("PlaybackStatus", after: resumed), .string("Playing"))
    }

    func testNextAnnouncesTheNewMetadata() throws {
        let daemon = try startPlaying([fixtures.long, fixtures.long2])
        let signals = try monitor(daemon)
        let mark = signals.mark
        try playerctl("next")
        let metadata = signals.waitForPlayerChange("Metadata", after: mark)
        XCTAssertEqual(metadata?.signature, "a{sv}")
        XCTAssertEqual(metadata?.dictionary?["xesam:title"], .string("Long Two"), "\(metadata.map(String.init(describing:)) ?? "no signal")")
    }

    func testVolumeChangeIsAnnounced() throws {
        let daemon = try startPlaying([fixtures.long])
        let signals = try monitor(daemon)
        let mark = signals.mark
        try playerctl("volume", "0.4")
        let volume = signals.waitForPlayerChange("Volume", after: mark)?.double
        XCTAssertEqual(volume ?? -1, 0.4, accuracy: 0.001)
    }

    func testLoopStatusChangeIsAnnounced() throws {
        let daemon = try startPlaying([fixtures.long])
        let signals = try monitor(daemon)
        let mark = signals.mark
        try playerctl("loop", "Playlist")
        XCTAssertEqual(signals.waitForPlayerChange("LoopStatus", after: mark), .string("Playlist"))
    }

    func testShuffleChangeIsAnnounced() throws {
        let daemon = try startPlaying([fixtures.long])
        let signals = try monitor(daemon)
        let mark = signals.mark
        try playerctl("shuffle", "On")
        XCTAssertEqual(signals.waitForPlayerChange("Shuffle", after: mark), .boolean(true))
    }

    func testSetPositionEmitsSeekedWithTheNewPosition() throws {
        let daemon = try startPlaying([fixtures.long])
        let signals = try monitor(daemon)
        let mark = signals.mark
        try playerctl("position", "30")
        let seeked = signals.waitForMessage(after: mark) { $0.kind == "signal" && $0.member == "Seeked" }
        XCTAssertEqual(seeked?.interface, Bus.playerInterface)
        XCTAssertEqual(seeked?.arguments.first?.signature, "x")
        XCTAssertEqual(Double(seeked?.arguments.first?.int64 ?? 0), 30_000_000, accuracy: 500_000,
                       "Seeked: \(seeked.map(String.init(describing:)) ?? "none")")
    }

    func testRelativeSeekEmitsSeeked() throws {
        let daemon = try startPlaying([fixtures.long])
        try playerctl("pause")
        try waitForStatus("Paused")
        let before = try position()
        let signals = try monitor(daemon)
        let mark = signals.mark
        try playerctl("position", "5+")
        let seeked = signals.waitForMessage(after: mark) { $0.kind == "signal" && $0.member == "Seeked" }
        XCTAssertEqual(Double(seeked?.arguments.first?.int64 ?? 0), Double(before + 5_000_000), accuracy: 300_000,
                       "Seeked: \(seeked.map(String.init(describing:)) ?? "none")")
    }

    func testPositionAndCanControlAreNeverInPropertiesChanged() throws {
        let daemon = try startPlaying([fixtures.long, fixtures.long2])
        let signals = try monitor(daemon)
        try playerctl("pause")
        try playerctl("play")
        try playerctl("position", "20")
        try playerctl("position", "3+")
        try playerctl("next")
        try waitForTitle("Long Two")
        try playerctl("volume", "0.7")
        try playerctl("stop")
        try waitForStatus("Stopped")
        // The last of these changes must have arrived before the whole stream is judged.
        XCTAssertNotNil(signals.waitForMessage(timeout: 5) {
            $0.changedInterface == Bus.playerInterface && $0.changedProperties["PlaybackStatus"] == .string("Stopped")
        }, "no PropertiesChanged(PlaybackStatus: Stopped)")
        let changes = signals.messages.filter(\.isPropertiesChanged)
        XCTAssertFalse(changes.isEmpty, "no PropertiesChanged at all")
        for change in changes {
            XCTAssertNil(change.changedProperties["Position"], "Position announced: \(change)")
            XCTAssertFalse(change.invalidatedProperties.contains("Position"), "Position invalidated: \(change)")
            XCTAssertNil(change.changedProperties["CanControl"], "CanControl announced: \(change)")
        }
    }
}
