import CurlKit
import XCTest

final class TLSTests: ServerTestCase {
    override class var usesTLS: Bool { true }

    func testTheTestCAIsTrustedWhenGiven() throws {
        for host in ["127.0.0.1", "localhost"] {
            var request = HTTPRequest(url: try server.tlsURL("/fixed?size=30000", host: host))
            request.caFile = try server.caFile
            let recorder = TransferRecorder(request).start()
            recorder.waitForEnd()
            XCTAssertTrue(recorder.succeeded, "\(host): \(String(describing: recorder.result))")
            XCTAssertEqual(recorder.head?.status, 200)
            XCTAssertEqual(recorder.body, pattern(0..<30000))
        }
    }

    func testTheSystemCAsDoNotTrustTheTestCA() throws {
        let recorder = TransferRecorder(HTTPRequest(url: try server.tlsURL("/fixed"))).start()
        recorder.waitForEnd()
        XCTAssertEqual(recorder.failure?.kind, .tls, "\(String(describing: recorder.failure))")
        XCTAssertNil(recorder.head)
    }

    func testAMissingCAFileIsATLSFailure() throws {
        var request = HTTPRequest(url: try server.tlsURL("/fixed"))
        request.caFile = "/nonexistent/ca.pem"
        let recorder = TransferRecorder(request).start()
        recorder.waitForEnd()
        XCTAssertEqual(recorder.failure?.kind, .tls, "\(String(describing: recorder.failure))")
    }

    func testAHandshakeThatNeverEndsTimesOut() throws {
        // The silent port accepts the TCP connection (the kernel does) but never answers the
        // ClientHello: CONNECTTIMEOUT covers the handshake.
        var request = HTTPRequest(url: "https://127.0.0.1:\(try server.silentPort)/")
        request.connectTimeout = 1
        request.stallTimeout = 30
        let began = ContinuousClock.now
        let recorder = TransferRecorder(request).start()
        recorder.waitForEnd()
        XCTAssertEqual(recorder.failure?.kind, .timeout, "\(String(describing: recorder.failure))")
        XCTAssertLessThan(ContinuousClock.now - began, .seconds(5))
    }
}
