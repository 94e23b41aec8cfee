import CurlKit
import XCTest

final class RedirectTests: ServerTestCase {
    func testOneAndFiveRedirectsAreFollowed() throws {
        for hops in [1, 5] {
            let recorder = TransferRecorder(HTTPRequest(url: try server.url("/redirect/\(hops)"))).start()
            recorder.waitForEnd()
            XCTAssertTrue(recorder.succeeded, "\(hops): \(String(describing: recorder.result))")
            let head = try XCTUnwrap(recorder.head)
            XCTAssertEqual(head.status, 200)
            XCTAssertEqual(head.effectiveURL, try server.url("/redirect/0"))
            // Only the final response's fields: no Location, no X-Hop of the 302s.
            XCTAssertEqual(head["x-final"], "yes")
            XCTAssertNil(head["x-hop"])
            XCTAssertNil(head["location"])
            XCTAssertEqual(head.contentLength, 4)
            XCTAssertEqual(recorder.body, Array("done".utf8), "no redirect body mixed in")
            XCTAssertEqual(recorder.entries.filter { $0 == .head }.count, 1)
        }
    }

    func testSixRedirectsAreTooMany() throws {
        let recorder = TransferRecorder(HTTPRequest(url: try server.url("/redirect/6"))).start()
        recorder.waitForEnd()
        XCTAssertEqual(recorder.failure?.kind, .tooManyRedirects)
        XCTAssertNil(recorder.head)
        XCTAssertTrue(recorder.body.isEmpty)
    }

    func testNegativeMaxRedirectsMeansNone() throws {
        var request = HTTPRequest(url: try server.url("/redirect/1"))
        request.maxRedirects = -1
        let recorder = TransferRecorder(request).start()
        recorder.waitForEnd()
        XCTAssertEqual(recorder.failure?.kind, .tooManyRedirects)
    }

    func testARedirectToAFileIsNotFollowed() throws {
        let recorder = TransferRecorder(HTTPRequest(url: try server.url("/to-file"))).start()
        recorder.waitForEnd()
        XCTAssertEqual(recorder.failure?.kind, .other)
        XCTAssertTrue(recorder.body.isEmpty, "not a byte of /etc/passwd")
    }

    func testOnlyHTTPURLsAreFetched() throws {
        let recorder = TransferRecorder(HTTPRequest(url: "file:///etc/passwd")).start()
        recorder.waitForEnd()
        XCTAssertEqual(recorder.failure?.kind, .other)
        XCTAssertTrue(recorder.body.isEmpty)
    }
}
