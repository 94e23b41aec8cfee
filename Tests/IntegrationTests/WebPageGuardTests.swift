import Foundation
import XCTest
@testable import TestSupport

/// The page's server against hostile requests (docs/web.md, Safety), over HTTP as any client
/// sends them (curl, and a raw socket for a body refused halfway): paths out of the library,
/// bodies too big, changes from another site, and beyond loopback, no entry without the token.
/// Each refusal changes nothing. No browser: these run in the sanitizer phases too.
final class WebPageGuardTests: WebPageTestCase {
    private var library: ClientLibrary!

    override func setUpWithError() throws {
        try super.setUpWithError()
        library = try ClientLibrary.shared()
    }

    private func serveTheLibrary(httpAddress: String = "127.0.0.1") throws {
        try serve(music: library.directory, songs: ClientLibrary.songs.count, httpAddress: httpAddress)
    }

    private static func query(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    /// `/cover` reads library songs only, in its three sizes; the page's files are a fixed list.
    func testCoversAndFilesOutsideTheLibraryAreNotFound() throws {
        try serveTheLibrary()
        for uri in ["../../etc/passwd", "/etc/passwd", "Ann Arbor/../../../../etc/passwd", "Ann Arbor/First Light/cover.jpg",
                    "file:///etc/passwd", ""] {
            let answer = try web.get("/cover?uri=\(Self.query(uri))")
            XCTAssertEqual(answer.status, 404, "cover of \(uri): \(answer)")
            XCTAssertFalse(answer.text.contains("root:"), "cover of \(uri): \(answer)")
        }
        let song = Self.query("Ann Arbor/First Light/01 Dawn.mp3")
        for size in ["7", "0", "-300", "301", "99999999999999999999", "300.0", "abc"] {
            let answer = try web.get("/cover?uri=\(song)&size=\(size)")
            XCTAssertEqual(answer.status, 400, "size=\(size): \(answer)")
        }
        // The same song in a size it serves: its cover.jpg as a JPEG, with an ETag that holds.
        let cover = try web.get("/cover?uri=\(song)&size=96")
        XCTAssertEqual(cover.status, 200, "\(cover)")
        XCTAssertEqual(cover.header("Content-Type"), "image/jpeg")
        XCTAssertEqual(Array(cover.body.prefix(2)), [0xFF, 0xD8], "a JPEG")
        let etag = try XCTUnwrap(cover.header("ETag"))
        XCTAssertEqual(try web.get("/cover?uri=\(song)&size=96", headers: ["If-None-Match": etag]).status, 304)

        for path in ["/../../../../etc/passwd", "/app.js/../../../../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
                     "/..%2f..%2f..%2fetc%2fpasswd", "/web/index.html", "/.git/config", "/manifest.webmanifest/.."] {
            let answer = try web.get(path)
            XCTAssertEqual(answer.status, 404, "\(path): \(answer)")
            XCTAssertFalse(answer.text.contains("root:"), "\(path): \(answer)")
        }
        // A NUL in the path is not a path at all.
        XCTAssertEqual(try web.get("/index.html%00.js").status, 400)
        // The page itself, with what keeps a tag that got into the DOM from running.
        let index = try web.get("/")
        XCTAssertEqual(index.status, 200, "the page itself: \(index)")
        let policy = index.header("Content-Security-Policy") ?? ""
        XCTAssertTrue(policy.contains("script-src 'self'") && policy.contains("default-src 'self'"), "CSP: \(policy)")
        XCTAssertEqual(index.header("X-Content-Type-Options"), "nosniff")
        XCTAssertEqual(try web.get("/app.js").status, 200, "the page's script")
    }

    /// A body over 64 KiB is 413, whether its length is announced or not, and changes nothing.
    func testABodyOver64KiBIsRefusedWith413() throws {
        try serveTheLibrary()
        let volume = try XCTUnwrap(state()["volume"] as? Double)
        let padding = String(repeating: "x", count: 70 * 1024)
        let big = try web.request("POST", "/api/player", headers: ["Content-Type": "application/json"],
                                  body: Data("{\"action\": \"volume\", \"volume\": 0.125, \"padding\": \"\(padding)\"}".utf8))
        XCTAssertEqual(big.status, 413, "\(big)")
        XCTAssertNotNil(try? big.object()["error"] as? String, "a JSON error: \(big)")

        // 10 MB announced, none of it sent: refused at once, not read.
        let raw = try RawHTTPConnection(port: httpPort, timeout: Sanitizer.scaled(10))
        try raw.send(Data("POST /api/queue HTTP/1.1\r\nHost: 127.0.0.1:\(httpPort)\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n{\"action\": \"clear\"".utf8))
        XCTAssertEqual(try raw.readHead().status, 413)
        raw.close()

        // Chunked, with no length: refused once past the limit. libmicrohttpd cannot answer in
        // the middle of a body, so HTTPKit closes the connection there (a 413 is as good; a
        // browser's fetch of a string body always announces its length).
        let chunked = try RawHTTPConnection(port: httpPort, timeout: Sanitizer.scaled(10))
        try chunked.send(Data("POST /api/player HTTP/1.1\r\nHost: 127.0.0.1:\(httpPort)\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
        let chunk = Data("4000\r\n".utf8) + Data(repeating: 0x20, count: 0x4000) + Data("\r\n".utf8)
        for _ in 0..<6 { try? chunked.send(chunk) }
        try? chunked.send(Data("0\r\n\r\n".utf8))
        let answer = String(decoding: (try? chunked.readToEnd()) ?? Data(), as: UTF8.self)
        XCTAssertTrue(answer.isEmpty || answer.hasPrefix("HTTP/1.1 413"), "a chunked body past 64 KiB: \(answer.prefix(300))")
        chunked.close()

        XCTAssertEqual(try XCTUnwrap(state()["volume"] as? Double), volume, accuracy: 0.0001, "the volume changed")
        // The same change, small: it is made (the refusals were for the size alone).
        try post("/api/player", ["action": "volume", "volume": 0.125])
        try eventually("the volume at 0.125", timeout: Sanitizer.scaled(5)) {
            abs((try state()["volume"] as? Double ?? -1) - 0.125) < 0.0001
        }
    }

    /// A change from another site's page (its `Origin`), a form's body (not JSON) and a name
    /// that is not this machine's (DNS rebinding) are refused, and change nothing.
    func testChangesFromAnotherSiteAreRefusedAndChangeNothing() throws {
        try serveTheLibrary()
        let before = try state()
        let queue = try queueURIs()
        let add: [String: Any] = ["action": "add", "uris": ["Ann Arbor/First Light/01 Dawn.mp3"], "at": "now"]
        for origin in ["http://evil.example", "http://127.0.0.1:\(httpPort + 1)", "https://127.0.0.1.evil.example:\(httpPort)", "null"] {
            let answer = try web.post("/api/queue", add, headers: ["Origin": origin])
            XCTAssertEqual(answer.status, 403, "Origin \(origin): \(answer)")
            let volume = try web.post("/api/player", ["action": "volume", "volume": 0.01], headers: ["Origin": origin])
            XCTAssertEqual(volume.status, 403, "Origin \(origin): \(volume)")
        }
        for type in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""] {
            let answer = try web.request("POST", "/api/queue", headers: ["Content-Type": type],
                                         body: try JSONSerialization.data(withJSONObject: add))
            XCTAssertEqual(answer.status, 415, "Content-Type \(type): \(answer)")
        }
        for host in ["evil.example", "evil.example:\(httpPort)", "127.0.0.1.evil.example:\(httpPort)"] {
            XCTAssertEqual(try web.get("/api/state", headers: ["Host": host]).status, 403, "Host \(host)")
            XCTAssertEqual(try web.post("/api/queue", add, headers: ["Host": host]).status, 403, "Host \(host)")
        }
        XCTAssertEqual(try queueURIs(), queue, "the queue changed")
        let after = try state()
        XCTAssertEqual(after["volume"] as? Double, before["volume"] as? Double, "the volume changed")
        XCTAssertEqual(after["status"] as? String, before["status"] as? String, "the status changed")

        // From the page's own origin the same change is made.
        let own = try web.post("/api/queue", add, headers: ["Origin": "http://127.0.0.1:\(httpPort)"])
        XCTAssertEqual(own.status, 200, "\(own)")
        try waitForStatus("Playing")
        XCTAssertEqual(try queueURIs(), ["Ann Arbor/First Light/01 Dawn.mp3"])
    }

    /// Beyond loopback (this machine's network address, or every address when it has none)
    /// nothing is answered without the token; `aubade web` prints the address that has it,
    /// which sets it as a cookie (HttpOnly, SameSite=Strict) and sends the browser to `/`.
    func testBeyondLoopbackEveryRequestNeedsTheToken() throws {
        let address = WebPageTestCase.lanAddress() ?? "any"
        try serveTheLibrary(httpAddress: address)
        let bare = web
        for path in ["/", "/app.js", "/api/state", "/api/events", "/api/albums", "/cover?uri=x", "/?token=wrongwrongwrongwrong"] {
            let answer = try bare.get(path)
            XCTAssertEqual(answer.status, 401, "\(path) on \(address): \(answer)")
        }
        XCTAssertEqual(try bare.post("/api/player", ["action": "play"]).status, 401)
        XCTAssertEqual(try bare.get("/api/state", headers: ["Authorization": "Bearer wrongwrongwrongwrong"]).status, 401)
        XCTAssertEqual(try bare.get("/api/state", headers: ["Cookie": "aubade_token=wrongwrongwrongwrong"]).status, 401)

        let url = try printedPageURL()
        let token = try XCTUnwrap(webToken)
        XCTAssertTrue(url.hasSuffix(":\(httpPort)/?token=\(token)"), url)
        // The URL as printed, opened: a cookie and a redirect to the page without the token.
        let path = String(url[url.range(of: ":\(httpPort)")!.upperBound...])
        let opened = try bare.get(path)
        XCTAssertEqual(opened.status, 303, "\(opened)")
        XCTAssertEqual(opened.header("Location"), "/")
        let cookie = try XCTUnwrap(opened.header("Set-Cookie"), "\(opened)")
        XCTAssertTrue(cookie.hasPrefix("aubade_token=\(token);"), cookie)
        for attribute in ["HttpOnly", "SameSite=Strict", "Path=/"] {
            XCTAssertTrue(cookie.contains(attribute), "\(attribute) in \(cookie)")
        }
        XCTAssertEqual(try bare.get("/", headers: ["Cookie": "aubade_token=\(token)"]).status, 200, "the page with the cookie")
        XCTAssertEqual(try bare.get("/api/state", headers: ["Cookie": "other=1; aubade_token=\(token)"]).status, 200)
        XCTAssertEqual(try web.get("/api/state").status, 200, "with Authorization: Bearer")
        XCTAssertEqual(try web.post("/api/player", ["action": "volume", "volume": 0.5]).status, 200)
    }
}
