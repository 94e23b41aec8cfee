import Foundation
import XCTest
@testable import TestSupport

/// mpris:artUrl: an embedded picture is written to `$XDG_CACHE_HOME/aubade/covers/` and
/// published as a file:// URI; otherwise `cover.jpg` beside the file; otherwise none.
final class CoverArtTests: AubadeTestCase {
    private var queueFixtures: QueueFixtures!

    override func setUpWithError() throws {
        try super.setUpWithError()
        queueFixtures = try QueueFixtures.shared()
    }

    /// The current track's mpris:artUrl as a file URL. Covers are looked up once a track is
    /// current, off the daemon's main queue: waits up to 5 s for it to appear.
    private func artFile(file: StaticString = #filePath, line: UInt = #line) throws -> URL? {
        let deadline = Date(timeIntervalSinceNow: 5)
        while try metadata()["mpris:artUrl"] == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        guard let art = try metadata()["mpris:artUrl"] else {
            XCTFail("no mpris:artUrl in \((try? metadata()).map(String.init(describing:)) ?? "?")", file: file, line: line)
            return nil
        }
        XCTAssertEqual(art.signature, "s", "mpris:artUrl's type", file: file, line: line)
        guard let text = art.string, let url = URL(string: text), url.isFileURL else {
            XCTFail("mpris:artUrl is not a file:// URI: \(art)", file: file, line: line)
            return nil
        }
        return url
    }

    func testAnEmbeddedPictureIsCachedAndPublished() throws {
        let daemon = try startPlaying([queueFixtures.embeddedCover])
        XCTAssertEqual(try title(), "Covered")
        guard let art = try artFile() else { return }
        let covers = daemon.home.appendingPathComponent(".cache/aubade/covers", isDirectory: true)
        XCTAssertEqual(art.deletingLastPathComponent().standardizedFileURL.path, covers.standardizedFileURL.path,
                       "the cover is not in $XDG_CACHE_HOME/aubade/covers: \(art)")
        let written = try Data(contentsOf: art)
        XCTAssertEqual(written, try Data(contentsOf: queueFixtures.coverImage), "the cached cover differs from the embedded picture")
        XCTAssertEqual(art.pathExtension.lowercased(), "png", "a PNG cached as \(art.lastPathComponent)")
        // GetTracksMetadata says the same.
        let id = try trackID() ?? ""
        XCTAssertEqual(try Bus.tracksMetadata([id]).first?["mpris:artUrl"]?.string, art.absoluteString)
    }

    func testTheSamePictureIsWrittenOnce() throws {
        let daemon = try startPlaying([queueFixtures.embeddedCover, queueFixtures.embeddedCover])
        guard let art = try artFile() else { return }
        try playerctl("next")
        try eventually("the second entry") { try trackID() == tracks().last }
        XCTAssertEqual(try artFile(), art, "the same picture got another cache file")
        let covers = daemon.home.appendingPathComponent(".cache/aubade/covers")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: covers.path).count, 1)
    }

    func testACoverFoundWhenATrackBecomesCurrentIsAnnounced() throws {
        let daemon = try startPlaying([fixtures.long, queueFixtures.embeddedCover])
        let ids = try tracks()
        let signals = try monitor(daemon)
        let mark = signals.mark
        try playerctl("next")
        try waitForTitle("Covered")
        guard let art = try artFile() else { return }
        XCTAssertEqual(try trackID(), ids[1], "the entry's id changed with its metadata")
        let announced = signals.waitForMessage(after: mark) {
            $0.changedInterface == Bus.playerInterface && $0.changedProperties["Metadata"]?.dictionary?["mpris:artUrl"] != nil
        }
        XCTAssertEqual(announced?.changedProperties["Metadata"]?.dictionary?["mpris:artUrl"]?.string, art.absoluteString,
                       "PropertiesChanged(Metadata) with the artUrl")
        // The entry's metadata changed: the TrackList says so too.
        let changed = signals.waitForMessage(after: mark, timeout: 2) {
            $0.kind == "signal" && $0.interface == Bus.trackListInterface && $0.member == "TrackMetadataChanged"
        }
        if let changed {
            XCTAssertEqual(changed.arguments.map(\.signature), ["o", "a{sv}"], "\(changed)")
            XCTAssertEqual(changed.arguments.first, .objectPath(ids[1]))
            XCTAssertEqual(changed.arguments.last?.dictionary?["mpris:artUrl"]?.string, art.absoluteString)
        } else {
            XCTFail("no TrackMetadataChanged for the entry whose cover was found")
        }
        XCTAssertEqual(try Bus.tracksMetadata([ids[1]]).first?["mpris:artUrl"]?.string, art.absoluteString)
    }

    func testACoverJpgBesideTheFileIsPublished() throws {
        try startPlaying([queueFixtures.folderCoverTrack])
        guard let art = try artFile() else { return }
        // A copy named by its content (so the URL changes when the picture does).
        XCTAssertEqual(try Data(contentsOf: art), try Data(contentsOf: queueFixtures.folderCoverImage))
    }

    func testNoPictureMeansNoArtUrl() throws {
        try startPlaying([fixtures.alpha])
        Thread.sleep(forTimeInterval: 0.5)  // time for a lookup to finish
        let fields = try metadata()
        XCTAssertNil(fields["mpris:artUrl"], "artUrl for a file without a picture: \(fields)")
    }
}
