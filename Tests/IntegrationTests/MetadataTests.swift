import Foundation
import XCTest
@testable import TestSupport

/// Metadata: every xesam/mpris key Aubade fills, with its exact type, for tagged, untagged,
/// listed and folder-queued files.
final class MetadataTests: AubadeTestCase {
    func testTaggedFileHasEveryKeyWithItsType() throws {
        try startDaemon([fixtures.alpha, fixtures.long])
        // a.mp3 lasts 3 s: hold it.
        try playerctl("pause")
        try waitForStatus("Paused")
        let metadata = try metadata()
        XCTAssertEqual(metadata["xesam:title"], .string("Alpha"), "\(metadata)")

        XCTAssertEqual(metadata["mpris:trackid"]?.signature, "o")
        XCTAssertTrue(metadata["mpris:trackid"]?.string?.hasPrefix("/org/aubade/Track/") == true,
                      "trackid: \(metadata["mpris:trackid"].map(String.init(describing:)) ?? "missing")")
        XCTAssertEqual(metadata["mpris:length"]?.signature, "x")
        XCTAssertEqual(Double(metadata["mpris:length"]?.int64 ?? 0), Double(TestMusic.alphaLengthMicroseconds),
                       accuracy: 30_000)
        XCTAssertEqual(metadata["xesam:artist"]?.signature, "as")
        XCTAssertEqual(metadata["xesam:artist"]?.strings, ["Ann"])
        XCTAssertEqual(metadata["xesam:album"], .string("Demo"))
        XCTAssertEqual(metadata["xesam:albumArtist"]?.signature, "as")
        XCTAssertEqual(metadata["xesam:albumArtist"]?.strings, ["Various"])
        XCTAssertEqual(metadata["xesam:genre"]?.signature, "as")
        XCTAssertEqual(metadata["xesam:genre"]?.strings, ["Rock"])
        XCTAssertEqual(metadata["xesam:trackNumber"], .integer("i", 1))
        XCTAssertEqual(metadata["xesam:discNumber"], .integer("i", 1))
        XCTAssertEqual(metadata["xesam:contentCreated"]?.signature, "s")
        XCTAssertTrue(metadata["xesam:contentCreated"]?.string?.hasPrefix("2009") == true,
                      "contentCreated: \(metadata["xesam:contentCreated"].map(String.init(describing:)) ?? "missing")")
        XCTAssertEqual(metadata["xesam:url"], .string(fixtures.alpha.absoluteString))
    }

    func testMetadataIsAStringToVariantDictionary() throws {
        try startPlaying([fixtures.long])
        let reply = try Bus.getRaw(Bus.playerInterface, "Metadata")
        XCTAssertEqual(reply.values.first?.unwrapped.signature, "a{sv}", "\(reply)")
    }

    func testUntaggedFileIsTitledByItsFileName() throws {
        try startDaemon([fixtures.untagged, fixtures.long])
        try playerctl("pause")
        let metadata = try metadata()
        XCTAssertEqual(metadata["xesam:title"], .string("c tone"))
        // The space is percent-encoded: file:///…/c%20tone.mp3
        XCTAssertEqual(metadata["xesam:url"], .string(fixtures.untagged.absoluteString))
        XCTAssertTrue(metadata["xesam:url"]?.string?.hasSuffix("/c%20tone.mp3") == true)
        XCTAssertEqual(metadata["mpris:length"]?.signature, "x")
    }

    func testEachQueueEntryHasItsOwnTrackID() throws {
        try startDaemon([fixtures.long, fixtures.long])
        guard let first = try trackID() else { return XCTFail("no trackid") }
        try playerctl("next")
        try eventually("a new trackid after next") { try self.trackID() != first }
        XCTAssertEqual(try title(), "Long One", "same file, so same title")
        XCTAssertTrue(try trackID()?.hasPrefix("/org/aubade/Track/") == true)
    }

    func testPlaylistQueuesItsRelativePaths() throws {
        try startDaemon([fixtures.playlist])
        try playerctl("pause")
        try waitForTitle("Alpha")
        try playerctl("next")
        try waitForTitle("Beta")
        XCTAssertEqual(try metadata()["xesam:url"], .string(fixtures.beta.absoluteString))
    }

    func testFolderIsQueuedInTrackOrder() throws {
        // "10 z.mp3" sorts before "2 y.mp3" as plain strings; by track number or natural order, 2 comes first.
        try startDaemon([fixtures.albumDirectory])
        try playerctl("pause")
        try waitForTitle("Two")
        XCTAssertEqual(try metadata()["xesam:trackNumber"], .integer("i", 2))
        try playerctl("next")
        try waitForTitle("Ten")
        XCTAssertEqual(try metadata()["xesam:trackNumber"], .integer("i", 10))
    }

    func testPlayerctlReadsTheMetadata() throws {
        try startDaemon([fixtures.alpha, fixtures.long])
        try playerctl("pause")
        XCTAssertEqual(try playerctl("metadata", "title"), "Alpha")
        XCTAssertEqual(try playerctl("metadata", "artist"), "Ann")
        XCTAssertEqual(try playerctl("metadata", "album"), "Demo")
        let length = Int64(try playerctl("metadata", "mpris:length")) ?? 0
        XCTAssertEqual(Double(length), Double(TestMusic.alphaLengthMicroseconds), accuracy: 30_000)
    }
}
