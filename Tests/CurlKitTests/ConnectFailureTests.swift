import CurlKit
import XCTest

final class ConnectFailureTests: XCTestCase {
    func testAClosedPortIsConnectQuickly() {
        let began = ContinuousClock.now
        let recorder = TransferRecorder(HTTPRequest(url: "http://127.0.0.1:\(closedPort())/")).start()
        recorder.waitForEnd()
        XCTAssertEqual(recorder.failure?.kind, .connect, "\(String(describing: recorder.failure))")
        XCTAssertLessThan(ContinuousClock.now - began, .seconds(2))
        XCTAssertNil(recorder.head)
        XCTAssertEqual(recorder.entries, [.ended])
    }

    func testAnUnresolvableHostIsResolve() {
        var request = HTTPRequest(url: "http://nonexistent.invalid/stream")
        request.connectTimeout = 10
        let recorder = TransferRecorder(request).start()
        recorder.waitForEnd(timeout: 20)
        XCTAssertEqual(recorder.failure?.kind, .resolve, "\(String(describing: recorder.failure))")
        XCTAssertTrue(recorder.failure?.message.contains("nonexistent.invalid") == true)
    }

    func testAMalformedURLIsOther() {
        let recorder = TransferRecorder(HTTPRequest(url: "http://[::1/")).start()
        recorder.waitForEnd()
        XCTAssertEqual(recorder.failure?.kind, .other)
    }

    func testCredentialsAreRedactedFromConnectFailures() {
        let recorder = TransferRecorder(HTTPRequest(url: "http://me:pa55@127.0.0.1:\(closedPort())/")).start()
        recorder.waitForEnd()
        XCTAssertEqual(recorder.failure?.kind, .connect)
        XCTAssertFalse(recorder.failure?.message.contains("pa55") ?? true)
    }
}
