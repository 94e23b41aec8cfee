import CurlKit
import XCTest

final class BodyTests: ServerTestCase {
    func testFixedBodyWithContentLength() throws {
        let url = try server.url("/fixed?size=100000")
        let recorder = TransferRecorder(HTTPRequest(url: url)).start()
        recorder.waitForEnd()
        XCTAssertTrue(recorder.succeeded, "\(String(describing: recorder.result))")
        let head = try XCTUnwrap(recorder.head)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.contentLength, 100_000)
        XCTAssertEqual(head.effectiveURL, url)
        XCTAssertEqual(head["Content-Type"], "application/octet-stream", "lookup ignores case")
        XCTAssertEqual(head["content-length"], "100000")
        XCTAssertTrue(head.headers.allSatisfy { $0.name == $0.name.lowercased() })
        XCTAssertEqual(recorder.body, pattern(0..<100_000))
        XCTAssertEqual(recorder.transfer.bytesReceived, 100_000)
        // .head first, .ended once and last.
        XCTAssertEqual(recorder.entries.first, .head)
        XCTAssertEqual(recorder.entries.last, .ended)
        XCTAssertEqual(recorder.entries.filter { $0 == .head }.count, 1)
        XCTAssertEqual(recorder.entries.filter { $0 == .ended }.count, 1)
        usleep(100_000)
        XCTAssertEqual(recorder.endedCount, 1, "nothing after .ended")
    }

    func testNotFoundIsAHeadAndABodyNotAFailure() throws {
        let recorder = TransferRecorder(HTTPRequest(url: try server.url("/missing"))).start()
        recorder.waitForEnd()
        XCTAssertTrue(recorder.succeeded)
        XCTAssertEqual(recorder.head?.status, 404)
        XCTAssertEqual(recorder.body, Array("not found".utf8))
    }

    func testAnEmptyBodyStillHasItsHeadBeforeTheEnd() throws {
        let recorder = TransferRecorder(HTTPRequest(url: try server.url("/empty-missing"))).start()
        recorder.waitForEnd()
        XCTAssertTrue(recorder.succeeded)
        XCTAssertEqual(recorder.head?.status, 404)
        XCTAssertEqual(recorder.head?.contentLength, 0)
        XCTAssertEqual(recorder.entries, [.head, .ended])
    }

    func testRangeStartAsksForTheRestOfTheFile() throws {
        var request = HTTPRequest(url: try server.url("/range?size=5000"))
        request.rangeStart = 1000
        let recorder = TransferRecorder(request).start()
        recorder.waitForEnd()
        XCTAssertTrue(recorder.succeeded)
        // The server answers 416 to anything but "Range: bytes=1000-".
        XCTAssertEqual(recorder.head?.status, 206)
        XCTAssertEqual(recorder.head?["content-range"], "bytes 1000-4999/5000")
        XCTAssertEqual(recorder.head?.contentLength, 4000)
        XCTAssertEqual(recorder.body, pattern(1000..<5000))
    }

    func testNegativeRangeStartIsRefused() throws {
        var request = HTTPRequest(url: try server.url("/range?size=5000"))
        request.rangeStart = -1
        let recorder = TransferRecorder(request).start()
        recorder.waitForEnd()
        XCTAssertEqual(recorder.failure?.kind, .other)
        XCTAssertNil(recorder.head)
    }

    func testRequestHeaders() throws {
        var request = HTTPRequest(url: try server.url("/echo"))
        request.headers = ["Icy-MetaData: 1", "X-Test: yes"]
        let recorder = TransferRecorder(request).start()
        recorder.waitForEnd()
        let sent = String(decoding: recorder.body, as: UTF8.self)
        XCTAssertTrue(sent.contains("Icy-MetaData: 1"), sent)
        XCTAssertTrue(sent.contains("X-Test: yes"), sent)
        XCTAssertTrue(sent.contains("User-Agent: Aubade"), sent)
        XCTAssertTrue(sent.contains("Accept-Encoding: identity"), sent)
    }

    func testHeaderInjectionIsRefused() throws {
        var request = HTTPRequest(url: try server.url("/echo"))
        request.headers = ["X-Test: yes\r\nX-Evil: 1"]
        let recorder = TransferRecorder(request).start()
        recorder.waitForEnd()
        XCTAssertEqual(recorder.failure?.kind, .other)
        XCTAssertTrue(recorder.failure?.message.contains("CR, LF or NUL") == true, "\(String(describing: recorder.failure))")
    }

    func testShoutcastICYAnswerIsStatus200() throws {
        var request = HTTPRequest(url: try server.url("/icy?size=50000"))
        request.headers = ["Icy-MetaData: 1"]
        let recorder = TransferRecorder(request).start()
        recorder.waitForEnd()
        XCTAssertTrue(recorder.succeeded, "\(String(describing: recorder.result))")
        XCTAssertEqual(recorder.head?.status, 200)
        XCTAssertEqual(recorder.head?["icy-metaint"], "16000")
        XCTAssertEqual(recorder.head?["icy-name"], "Aubade Test")
        XCTAssertNil(recorder.head?.contentLength)
        XCTAssertEqual(recorder.body, pattern(0..<50000))
    }

    func testHeaderBytesThatAreNotUTF8AreLatin1() throws {
        let recorder = TransferRecorder(HTTPRequest(url: try server.url("/latin1"))).start()
        recorder.waitForEnd()
        XCTAssertEqual(recorder.head?["icy-name"], "Caf\u{e9}")
    }
}
