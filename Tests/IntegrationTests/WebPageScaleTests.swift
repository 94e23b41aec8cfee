import Foundation
import XCTest
@testable import TestSupport

/// A big library in the page, in a real browser (`Browser`, a phone's window): a folder of
/// 20,000 songs scrolls to its middle and its end while the page holds a few dozen rows and has
/// asked for a few pages of it — not the 100 pages of 200 the folder is.
final class WebPageScaleTests: WebPageTestCase {
    func testTwentyThousandTracksScrollWithoutLoadingThemAll() throws {
        let music = TestRunDirectory.url.appendingPathComponent("big-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: music) }
        // Hard links of one tagged MP3 (its title, artist and album 120 characters long, enough
        // to need ellipses on a phone): 20,000 songs made in about a second.
        let count = 20_000
        let songs = try Self.folderOfLinks(in: music, count: count)
        try serve(music: music, songs: songs, scanTimeout: 120)
        let folder = Self.folder

        let page = try openPage("/#/folders/" + folder.replacingOccurrences(of: " ", with: "%20"))
        let rows = "document.querySelectorAll('[data-test=track-row]')"
        try page.waitFor("the folder's first rows", "\(rows).length > 0")
        let rowHeight = try XCTUnwrap(try page.script("return \(rows)[0].getBoundingClientRect().height") as? NSNumber).doubleValue
        XCTAssertEqual(try page.script("return parseFloat(document.querySelector('#view .vl').style.height)") as? Double,
                       Double(count) * rowHeight, "the list is as tall as 20,000 rows")

        // The middle, then the end: the rows there are the folder's songs at those places.
        for (index, place) in [(count / 2, "the middle"), (count - 1, "the end")] {
            try page.script("""
                const view = document.getElementById('view'), list = view.querySelector('.vl');
                view.scrollTop = arguments[0] === \(count - 1) ? view.scrollHeight : list.offsetTop + arguments[0] * \(rowHeight);
                """, [index])
            let row = "document.querySelector('[data-test=track-row][aria-posinset=\"\(index + 1)\"]')"
            try page.waitFor("row \(index + 1), at \(place)", "\(row) !== null")
            let expected = try web.object("/api/folder?path=\(folder.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&offset=\(index)&limit=1")
            let uri = ((expected["items"] as? [[String: Any]])?.first?["uri"] as? String) ?? "?"
            XCTAssertEqual(try page.script("return \(row).dataset.uri") as? String, uri, "row \(index + 1) at \(place)")
            XCTAssertEqual(expected["total"] as? Int, count)
        }

        let held = try page.script("return document.querySelectorAll('#view .vl > *').length") as? Int ?? -1
        let requests = try page.script("return performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/folder')).map((e) => e.name)") as? [String] ?? []
        print("a 20,000-song folder scrolled to its middle and end: \(held) rows in the page, \(requests.count) pages asked for")
        XCTAssertLessThan(held, 100, "the page holds the rows in view and a margin, not the folder")
        XCTAssertGreaterThan(requests.count, 0)
        XCTAssertLessThanOrEqual(requests.count, 8, "pages asked for: \(requests)")
        XCTAssertEqual(try page.script("return document.documentElement.scrollWidth <= innerWidth") as? Bool, true,
                       "200-character names scroll nothing sideways")
    }

    private static let folder = "many songs"

    /// `count` hard links of one tagged MP3 in `music/many songs/`, named `song 00000.mp3` on.
    /// (MPDLibraryFixtures.bigLibrary's songs carry an 8 KB comment for MPD's answers: a library
    /// of them took three times as long to scan, 36 s against 12 on a busy 2-core machine.)
    private static func folderOfLinks(in music: URL, count: Int) throws -> Int {
        let folder = music.appendingPathComponent(Self.folder, isDirectory: true)
        let seed = music.appendingPathComponent(".seed.mp3")
        let long = { (word: String) in MPDLibraryFixtures.text(String(repeating: word + " ", count: 120 / (word.count + 1))) }
        try MPDLibraryFixtures.write([("TIT2", long("Title")), ("TPE1", long("Artist")), ("TALB", long("Album"))], to: seed)
        defer { try? FileManager.default.removeItem(at: seed) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for index in 0..<count {
            let target = folder.appendingPathComponent(String(format: "song %05d.mp3", index)).path
            guard link(seed.path, target) == 0 else { throw DaemonError("link \(target): errno \(errno)") }
        }
        return count
    }
}
