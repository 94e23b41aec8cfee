import Foundation
import XCTest

/// mpris:artUrl: an embedded picture is written to `$XDG_CACHE_HOME/aubade/covers/` and
/// published as a file:// URI; otherwise `cover.jpg` beside the file; otherwise none.
final class CoverArtTests: AubadeTestCase {
    private var queueFixtures: QueueFixtures!

    override func setUpWithError() throws {
        try super.setUpWithError()
        queueFixtures = try QueueFixtures.shared()
    }

    private func artFile(file: StaticString = #filePath, line: UInt = #line) throws -> URL? {
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

    func testACoverJpgBesideTheFileIsPublished() throws {
        try startPlaying([queueFixtures.folderCoverTrack])
        guard let art = try artFile() else { return }
        XCTAssertEqual(art.standardizedFileURL.path, queueFixtures.folderCoverImage.standardizedFileURL.path)
    }

    func testNoPictureMeansNoArtUrl() throws {
        try startPlaying([fixtures.alpha])
        let fields = try metadata()
        XCTAssertNil(fields["mpris:artUrl"], "artUrl for a file without a picture: \(fields)")
    }
}
