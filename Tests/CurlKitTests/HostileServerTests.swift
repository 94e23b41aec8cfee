import CurlKit
import XCTest

final class HostileServerTests: ServerTestCase {
    func testBodyShorterThanContentLengthIsClosedEarly() throws {
        let recorder = TransferRecorder(HTTPRequest(url: try server.url("/short?size=1000"))).start()
        recorder.waitForEnd()
        XCTAssertEqual(recorder.failure?.kind, .closedEarly, "\(String(describing: recorder.failure))")
        XCTAssertEqual(recorder.head?.contentLength, 1000)
        XCTAssertEqual(recorder.body, pattern(0..<500))
    }

    func testResetConnectionIsClosedEarly() throws {
        let recorder = TransferRecorder(HTTPRequest(url: try server.url("/reset?size=1000"))).start()
        recorder.waitForEnd()
        XCTAssertEqual(recorder.failure?.kind, .closedEarly, "\(String(describing: recorder.failure))")
        XCTAssertEqual(recorder.body, pattern(0..<100))
    }

    func testHugeHeaderLineEndsTheTransfer() throws {
        let recorder = TransferRecorder(HTTPRequest(url: try server.url("/huge-header?size=20000"))).start()
        recorder.waitForEnd()
        XCTAssertEqual(recorder.failure?.kind, .other)
        XCTAssertEqual(recorder.failure?.message, "a response header line is longer than 8192 bytes")
        XCTAssertNil(recorder.head)
    }

    func testHeaderLineJustUnderTheLimitIsKept() throws {
        // "X-Huge: " + value + CR LF = 8192 bytes.
        let recorder = TransferRecorder(HTTPRequest(url: try server.url("/huge-header?size=8182"))).start()
        recorder.waitForEnd()
        XCTAssertTrue(recorder.succeeded, "\(String(describing: recorder.result))")
        XCTAssertEqual(recorder.head?["x-huge"]?.count, 8182)
    }

    func testTooManyHeaderLinesEndTheTransfer() throws {
        let recorder = TransferRecorder(HTTPRequest(url: try server.url("/many-headers?size=150"))).start()
        recorder.waitForEnd()
        XCTAssertEqual(recorder.failure?.kind, .other)
        XCTAssertEqual(recorder.failure?.message, "a response has more than 100 header lines")
    }

    func testHeadersThenSilenceIsStalled() throws {
        var request = HTTPRequest(url: try server.url("/stall-after-headers"))
        request.stallTimeout = 1
        let began = ContinuousClock.now
        let recorder = TransferRecorder(request).start()
        recorder.waitForEnd()
        let took = ContinuousClock.now - began
        XCTAssertEqual(recorder.failure?.kind, .stalled, "\(String(describing: recorder.failure))")
        XCTAssertEqual(recorder.head?.status, 200, "the head was complete before the silence")
        XCTAssertGreaterThanOrEqual(took, .milliseconds(950))
        XCTAssertLessThan(took, .seconds(4))
    }

    func testSilenceInTheMiddleOfTheBodyIsStalled() throws {
        var request = HTTPRequest(url: try server.url("/stall-mid-body"))
        request.stallTimeout = 1
        let recorder = TransferRecorder(request).start()
        recorder.waitForEnd()
        XCTAssertEqual(recorder.failure?.kind, .stalled)
        XCTAssertEqual(recorder.body, pattern(0..<100))
    }

    func testAServerThatNeverAnswersIsStalled() throws {
        var request = HTTPRequest(url: "http://127.0.0.1:\(try server.silentPort)/")
        request.connectTimeout = 0.5
        request.stallTimeout = 1
        let began = ContinuousClock.now
        let recorder = TransferRecorder(request).start()
        recorder.waitForEnd()
        let took = ContinuousClock.now - began
        XCTAssertEqual(recorder.failure?.kind, .stalled, "\(String(describing: recorder.failure))")
        // Before the first byte the allowance is connectTimeout + stallTimeout.
        XCTAssertGreaterThanOrEqual(took, .milliseconds(1450))
        XCTAssertLessThan(took, .seconds(5))
    }

    func testCredentialsNeverAppearInMessages() throws {
        var request = HTTPRequest(url: "http://listener:s3cret@127.0.0.1:\(try server.httpPort)/stall-after-headers")
        request.stallTimeout = 0.5
        let recorder = TransferRecorder(request).start()
        recorder.waitForEnd()
        let failure = try XCTUnwrap(recorder.failure)
        XCTAssertEqual(failure.kind, .stalled)
        XCTAssertFalse(failure.message.contains("s3cret"), failure.message)
        XCTAssertFalse(failure.message.contains("listener"), failure.message)
        XCTAssertTrue(failure.message.contains("127.0.0.1"), failure.message)
    }
}
