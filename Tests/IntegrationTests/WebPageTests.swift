import Foundation
import XCTest
@testable import TestSupport

/// The page (web/, docs/web.md) in a real browser: Debian's chromium, headless, in a phone's
/// window (390×844 at 3×, touch), driven through chromedriver by python3-selenium
/// (`Browser`), against `aubade serve` on the test library (`ClientLibrary`). The page is found
/// by its `data-test` hooks; every wait is for what the page shows, never a fixed time.
final class WebPageTests: WebPageTestCase {
    private var library: ClientLibrary!

    override func setUpWithError() throws {
        try super.setUpWithError()
        library = try ClientLibrary.shared()
    }

    private func serveTheLibrary() throws {
        try serve(music: library.directory, songs: ClientLibrary.songs.count)
    }

    private static func uri(_ title: String) -> String {
        ClientLibrary.songs.first { $0.title == title }!.uri
    }

    /// What the page's now-playing shows: `[status, title]`.
    private static let nowShown = "[document.querySelector('[data-test=now-status]').textContent, document.querySelector('[data-test=now-title]').textContent]"

    /// The library as album cards, a search, an album played from its page, and the queue
    /// reordered by dragging an entry (the phone's way) and by its down button: each change
    /// seen by the API, by mpc and on MPRIS.
    func testThePageShowsTheLibrarySearchesPlaysAnAlbumAndReordersTheQueue() throws {
        try serveTheLibrary()
        let page = try openPage()

        // The album grid: a card for each album, by album artist then album.
        try page.waitFor("a card for each of the \(ClientLibrary.albums.count) albums",
                         "document.querySelectorAll('[data-test=album-card]').length === \(ClientLibrary.albums.count)")
        let cards = try page.script("return [...document.querySelectorAll('[data-test=album-card]')].map((c) => c.dataset.artist + ' / ' + c.dataset.album)")
        XCTAssertEqual(cards as? [String], ClientLibrary.albums.map { "\($0.albumArtist) / \($0.album)" })

        // A search: any tag, whatever the case.
        try page.click("[data-test=tab-search]")
        try page.type("[data-test=search-input]", "ARBOR")
        let arbor = ClientLibrary.songs.filter { $0.artist == "Ann Arbor" }.map(\.uri)
        try page.waitFor("a row for each of the \(arbor.count) Ann Arbor songs",
                         "document.querySelectorAll('[data-test=track-row]').length === \(arbor.count)")
        XCTAssertEqual(Set(try page.attributes("data-uri", of: "[data-test=track-row]")), Set(arbor))
        // A file with no tags, by its name (docs/web.md: "any tag or file name").
        try page.type("[data-test=search-input]", "LOOSE")
        try page.waitFor("the untagged file, by its name",
                         "[...document.querySelectorAll('[data-test=track-row]')].map((r) => r.dataset.uri).join('|') === 'loose tone.mp3'")
        try page.type("[data-test=search-input]", "café")
        try page.waitFor("one row, Café Noir",
                         "[...document.querySelectorAll('[data-test=track-row]')].map((r) => r.dataset.uri).join('|') === \(Browser.quoted(Self.uri("Café Noir")))")

        // An album played from its page: it starts at its first track.
        try page.click("[data-test=tab-albums]")
        try page.click("[data-test=album-card][data-album=\"Second Wind\"] button")
        try page.waitFor("the album's three tracks", "document.querySelectorAll('[data-test=track-row]').length === 3")
        try page.click("[data-test=play-album]")
        try page.waitFor("playing Gale", "\(Self.nowShown).join('|') === 'playing|Gale'")
        try waitForStatus("Playing")
        try waitForTitle("Gale")

        // The queue, dragged by its grip: Calm (third) goes to the top.
        try page.click("[data-test=tab-queue]")
        let shownQueue = "[...document.querySelectorAll('[data-test=queue-row]')].sort((a, b) => a.dataset.index - b.dataset.index).map((r) => r.querySelector('.t1').textContent).join('|')"
        try page.waitFor("the queue Gale, Breeze, Calm", "\(shownQueue) === 'Gale|Breeze|Calm'")
        let rowHeight = try XCTUnwrap(try page.script("return document.querySelector('[data-test=queue-row]').getBoundingClientRect().height") as? NSNumber).intValue
        try page.drag("[data-test=queue-row][data-index=\"2\"] .handle", dy: -2 * rowHeight)
        try assertQueue(["Calm", "Gale", "Breeze"], shown: shownQueue, on: page)

        // The down button (on a phone, shown when its row has the focus): Calm one down.
        try page.script("document.querySelector('[data-test=queue-row][data-index=\"0\"] [data-test=queue-play]').focus()")
        try page.click("[data-test=queue-row][data-index=\"0\"] [data-test=queue-down]")
        try assertQueue(["Gale", "Calm", "Breeze"], shown: shownQueue, on: page)
        // Still playing Gale, marked as the current entry where it is now.
        try page.waitFor("Gale marked current", "document.querySelector('[data-test=queue-row][aria-current=true] .t1')?.textContent === 'Gale'")
        XCTAssertEqual(try title(), "Gale")
    }

    /// The queue holds `titles`, in order, on the page, in the API, for mpc and on MPRIS.
    private func assertQueue(_ titles: [String], shown: String, on page: Browser,
                             file: StaticString = #filePath, line: UInt = #line) throws {
        let uris = titles.map(Self.uri)
        var api: [String] = []
        try eventually("the API's queue \(titles) (last \(api))", timeout: Sanitizer.scaled(10), file: file, line: line) {
            api = try queueURIs()
            return api == uris
        }
        try page.waitFor("the page's queue \(titles)", "\(shown) === \(Browser.quoted(titles.joined(separator: "|")))", file: file, line: line)
        XCTAssertEqual(try mpc("-f", "%file%", "playlist", file: file, line: line).split(separator: "\n").map(String.init), uris,
                       "mpc playlist", file: file, line: line)
        let tracks = try Bus.tracks()
        let mpris = try Bus.tracksMetadata(tracks).map { $0["xesam:title"]?.string ?? "?" }
        XCTAssertEqual(mpris, titles, "MPRIS TrackList", file: file, line: line)
    }

    /// What playerctl (MPRIS, on the test's bus) and mpc (MPD, over TCP) change is on the page
    /// at once: play and pause, volume, next, loop and shuffle.
    func testChangesFromPlayerctlAndMpcAppearOnThePage() throws {
        try serveTheLibrary()
        try post("/api/queue", ["action": "addAlbum", "album": "First Light", "artist": "Ann Arbor", "at": "now"])
        try waitForStatus("Playing")
        let page = try openPage()
        try page.waitFor("playing Dawn", "\(Self.nowShown).join('|') === 'playing|Dawn'")

        try playerctl("play-pause")
        try page.waitFor("paused by playerctl", "\(Self.nowShown)[0] === 'paused'")
        XCTAssertNotNil(try page.script("return window.aubadeLastChange"), "a pushed change sets window.aubadeLastChange")
        try playerctl("play-pause")
        try page.waitFor("playing again by playerctl", "\(Self.nowShown)[0] === 'playing'")
        try mpc("pause")
        try page.waitFor("paused by mpc", "\(Self.nowShown)[0] === 'paused'")
        try mpc("next")
        try page.waitFor("Morning, by mpc next", "\(Self.nowShown)[1] === 'Morning'")

        // The volume, loop and shuffle are behind now-expand on a phone.
        XCTAssertEqual(try page.script("return document.querySelector('[data-test=volume]').offsetParent === null") as? Bool, true,
                       "the volume is hidden until the player is expanded")
        try page.click("[data-test=now-expand]")
        try page.waitFor("the volume shown", "document.querySelector('[data-test=volume]').offsetParent !== null")
        let before = try XCTUnwrap(state()["volume"] as? Double)
        try mpc("volume", "30")
        var volume = before
        try eventually("the volume changed by mpc (still \(volume))", timeout: Sanitizer.scaled(5)) {
            volume = try XCTUnwrap(state()["volume"] as? Double)
            return abs(volume - before) > 0.01
        }
        XCTAssertEqual(volume, 0.3, accuracy: 0.011, "mpc volume 30")
        try page.waitFor("the volume slider at \(volume)", "Math.abs(document.querySelector('[data-test=volume]').valueAsNumber - \(volume)) < 0.006")
        try playerctl("loop", "Track")
        try page.waitFor("Loop: Track, by playerctl", "document.querySelector('[data-test=loop]').textContent === 'Loop: Track'")
        try mpc("random", "on")
        try page.waitFor("shuffle on, by mpc", "document.querySelector('[data-test=shuffle]').getAttribute('aria-pressed') === 'true'")
        // What the page shows is the last state pushed.
        let version = try XCTUnwrap(state()["version"] as? NSNumber).intValue
        try page.waitFor("the page at the state's version \(version)", "Number(document.body.dataset.stateVersion) >= \(version)")
    }

    /// The daemon stopped (by PID) and started again on the same ports and home: the page says
    /// it is reconnecting, comes back by itself and shows the new daemon's state, and follows
    /// its changes.
    func testThePageComesBackByItselfWhenTheDaemonRestarts() throws {
        try serveTheLibrary()
        try post("/api/queue", ["action": "addAlbum", "album": "Night Songs", "artist": "Bea Quartet", "at": "now"])
        try waitForStatus("Playing")
        let page = try openPage()
        try page.waitFor("playing Owl", "\(Self.nowShown).join('|') === 'playing|Owl'")
        let banner = "document.querySelector('[data-test=reconnecting]')"
        XCTAssertEqual(try page.script("return \(banner).hidden") as? Bool, true, "no banner while connected")

        try restart(songs: ClientLibrary.songs.count) {
            try page.waitFor("the reconnecting banner", "!\(banner).hidden", timeout: 15)
        }
        // Back by itself: EventSource retries, the page backs off and tries again.
        try page.waitFor("the banner gone", "\(banner).hidden", timeout: 40)
        let restarted = try state()
        let current = restarted["current"] as? [String: Any]
        try page.waitFor("the new daemon's state (\(restarted["status"] ?? "?"), \(current?["title"] ?? "nothing"))",
                         "\(Self.nowShown).join('|') === \(Browser.quoted("\(restarted["status"] as? String ?? "?")|\(current?["title"] as? String ?? "Nothing queued")"))")
        // And it follows the new daemon.
        try playerctl("play")
        try page.waitFor("playing, on the new daemon", "\(Self.nowShown)[0] === 'playing'")
        try mpc("volume", "55")
        try page.waitFor("the new daemon's volume", "(() => { document.querySelector('[data-test=now-expand]').click(); return Math.abs(document.querySelector('[data-test=volume]').valueAsNumber - 0.55) < 0.011 })()")
        let version = try XCTUnwrap(state()["version"] as? NSNumber).intValue
        try page.waitFor("the page at the new daemon's version \(version)", "Number(document.body.dataset.stateVersion) === \(version)")
    }

    /// The phone's layout, 390 CSS pixels wide: nothing scrolls sideways on any tab, expanded
    /// or not; the volume and seek bar wait behind now-expand. Kept as a screenshot, the
    /// README's (docs/page-phone.png is a copy of it).
    func testThePhoneLayoutHasNoSidewaysScrollAndIsKeptAsAScreenshot() throws {
        try serveTheLibrary()
        try post("/api/queue", ["action": "addAlbum", "album": "Night Songs", "artist": "Bea Quartet", "at": "now"])
        try waitForStatus("Playing")
        let page = try openPage()
        XCTAssertEqual(try page.script("return [innerWidth, devicePixelRatio]") as? [Double], [390, 3], "the phone's viewport")
        let widths = "return {html: document.documentElement.scrollWidth, body: document.body.scrollWidth, view: document.getElementById('view').scrollWidth}"
        func assertFits(_ place: String, file: StaticString = #filePath, line: UInt = #line) throws {
            let measured = try page.script(widths) as? [String: Int] ?? [:]
            XCTAssertTrue(!measured.isEmpty && measured.values.allSatisfy { $0 <= 390 }, "sideways scroll on \(place): \(measured)",
                          file: file, line: line)
        }
        // Each tab once what it shows is drawn.
        let drawn = ["albums": "[data-test=album-card]", "artists": "#view .row", "folders": "#view .row",
                     "search": "[data-test=search-input]", "queue": "[data-test=queue-row]",
                     "playlists": "#view .empty, [data-test=playlist-row]", "stations": "[data-test=station-url]"]
        for tab in ["albums", "artists", "folders", "search", "queue", "playlists", "stations"] {
            try page.click("[data-test=tab-\(tab)]")
            try page.waitFor("the \(tab) tab drawn", "document.querySelector('[data-test=tab-\(tab)]').getAttribute('aria-selected') === 'true' && document.querySelector(\(Browser.quoted(drawn[tab]!))) !== null")
            try assertFits("the \(tab) tab")
        }
        try page.click("[data-test=tab-albums]")
        try page.click("[data-test=album-card][data-album=\"First Light\"] button")
        try page.waitFor("the album's tracks", "document.querySelectorAll('[data-test=track-row]').length === 3")
        try assertFits("an album's page")

        for hook in ["volume", "seek", "loop", "shuffle"] {
            XCTAssertEqual(try page.script("return document.querySelector('[data-test=\(hook)]').offsetParent === null") as? Bool, true,
                           "\(hook) hidden on a phone until the player is expanded")
        }
        try page.click("[data-test=now-expand]")
        for hook in ["volume", "seek", "loop", "shuffle"] {
            try page.waitFor("\(hook) shown once expanded", "document.querySelector('[data-test=\(hook)]').offsetParent !== null")
        }
        try assertFits("the expanded player")
        try page.click("[data-test=now-expand]")
        try page.waitFor("the player folded again", "document.querySelector('[data-test=volume]').offsetParent === null")

        // The screenshot: the album grid with its covers, and what plays.
        try page.click("[data-test=tab-albums]")
        try page.waitFor("the album covers loaded",
                         "document.querySelectorAll('[data-test=album-card]').length === 4 && [...document.querySelectorAll('[data-test=album-card] img, #now-img')].every((i) => i.complete) && !document.getElementById('now-img').hidden")
        try page.waitFor("playing Owl", "\(Self.nowShown).join('|') === 'playing|Owl'")
        let screenshot = try artifact("page-phone", extension: "png")
        try page.screenshot(to: screenshot)
        let png = try Data(contentsOf: screenshot)
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG")
        // IHDR: width and height, big-endian, at bytes 16 and 20: the phone's device pixels.
        let size = png.count >= 24 ? [16, 20].map { png[$0..<$0 + 4].reduce(0) { $0 << 8 | Int($1) } } : []
        XCTAssertEqual(size, [1170, 2532], "390×844 CSS pixels at 3×")
        print("the page at phone size: \(screenshot.path)")
    }

    /// Tags that are HTML (a script, an `<img onerror>`, an `<svg onload>`) and a file named
    /// like one: shown as text wherever the page shows them; nothing runs, nothing is added.
    func testHostileTagsAreShownAsText() throws {
        let music = TestRunDirectory.url.appendingPathComponent("hostile-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: music) }
        let title = "<img src=x onerror=\"window.__pwned='title';alert('title')\">"
        let artist = "<script>window.__pwned='artist';alert('artist')</script>"
        let album = "\"><svg onload=\"window.__pwned='album';alert('album')\">"
        let fileName = "<img src=y onerror=alert(4)>.mp3"
        let text = { (value: String) in MPDLibraryFixtures.text(value) }
        try MPDLibraryFixtures.write([("TIT2", text(title)), ("TPE1", text(artist)), ("TPE2", text(artist)), ("TALB", text(album)),
                                      ("TRCK", text("1"))], to: music.appendingPathComponent("Hostile/01.mp3"))
        try MPDLibraryFixtures.write([("TALB", text(album)), ("TPE2", text(artist)), ("TRCK", text("2"))],
                                     to: music.appendingPathComponent("Hostile/\(fileName)"))
        try serve(music: music, songs: 2)
        let page = try openPage()

        try page.waitFor("the album's card", "document.querySelectorAll('[data-test=album-card]').length === 1")
        XCTAssertEqual(try page.text("[data-test=album-card] .t1"), album)
        XCTAssertEqual(try page.text("[data-test=album-card] .t2"), artist)
        XCTAssertEqual(try page.attributes("data-album", of: "[data-test=album-card]"), [album])

        try page.click("[data-test=album-card] button")
        try page.waitFor("the album's two tracks", "document.querySelectorAll('[data-test=track-row]').length === 2")
        XCTAssertEqual(try page.script("return [...document.querySelectorAll('[data-test=track-row] .t1')].map((e) => e.textContent)") as? [String],
                       [title, fileName])
        XCTAssertEqual(try page.text(".head h1"), album)
        // The songs are a fraction of a second long: the first repeats, so that it is still the
        // one playing when the page is looked at (under load the second had begun: CI saw it).
        XCTAssertEqual(try web.post("/api/player", ["action": "loop", "loop": "Track"]).status, 200)
        try page.click("[data-test=play-album]")
        try page.waitFor("the title playing", "document.querySelector('[data-test=now-title]').textContent === \(Browser.quoted(title))")
        XCTAssertEqual(try page.text("[data-test=now-artist]"), artist)
        XCTAssertEqual(try page.script("return document.title") as? String, "\(title) · Aubade")
        XCTAssertEqual(try web.post("/api/player", ["action": "loop", "loop": "None"]).status, 200)

        try page.click("[data-test=tab-search]")
        try page.type("[data-test=search-input]", "onerror")
        try page.waitFor("both songs found", "document.querySelectorAll('[data-test=track-row]').length === 2")
        try page.click("[data-test=tab-folders]")
        try page.waitFor("the folder", "document.querySelectorAll('#view .row').length === 1")
        try page.click("#view .row .go")
        try page.waitFor("the folder's songs", "document.querySelectorAll('[data-test=track-row]').length === 2")
        try page.click("[data-test=tab-queue]")
        try page.waitFor("the queue", "document.querySelectorAll('[data-test=queue-row]').length === 2")

        XCTAssertNil(try page.alertText(), "an alert() ran")
        XCTAssertEqual(try page.script("return String(window.__pwned)") as? String, "undefined", "a tag's script ran")
        let injected = """
            return {scripts: document.scripts.length,
                    handlers: document.querySelectorAll('[onerror], [onload]').length,
                    foreign: document.querySelectorAll('img[src="x"], img[src="y"], svg[onload], body script:not([src])').length}
            """
        let found = try page.script(injected) as? [String: Any]
        XCTAssertEqual(found?["scripts"] as? Int, 1, "the page's own script only: \(found ?? [:])")
        XCTAssertEqual(found?["handlers"] as? Int, 0, "an element with an inline handler: \(found ?? [:])")
        XCTAssertEqual(found?["foreign"] as? Int, 0, "an element from a tag: \(found ?? [:])")
    }

    /// Beyond loopback: the address `aubade web` prints lets the browser in (its token becomes
    /// a cookie and leaves the address bar), and the page then works, event stream and all.
    func testTheAddressAubadeWebPrintsLetsThePageInBeyondLoopback() throws {
        let address = WebPageTestCase.lanAddress() ?? "any"
        try serveTheLibrary(httpAddress: address)
        XCTAssertEqual(try web.get("/api/state").status, 401, "the API without the token")
        let url = try printedPageURL()
        let browser = try browser()
        try browser.open(url)
        try browser.waitFor("the page, its token gone from the address",
                            "location.search === '' && location.pathname === '/' && document.body.dataset.stateVersion !== undefined")
        XCTAssertEqual(try browser.script("return document.cookie") as? String, "", "the token's cookie is HttpOnly")
        try post("/api/queue", ["action": "addAlbum", "album": "Summer Mix", "artist": "Various Artists", "at": "now"])
        try browser.waitFor("Surf playing, pushed to the page", "\(Self.nowShown).join('|') === 'playing|Surf'")
        try browser.click("[data-test=play-pause]")
        try waitForStatus("Paused")
        XCTAssertEqual(try browser.script("return document.querySelector('[data-test=toast]').hidden") as? Bool, true, "no error shown")
    }

    private func serveTheLibrary(httpAddress: String) throws {
        try serve(music: library.directory, songs: ClientLibrary.songs.count, httpAddress: httpAddress)
    }
}
