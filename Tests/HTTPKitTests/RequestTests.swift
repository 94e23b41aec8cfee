import Dispatch
import Foundation
import HTTPKit
import XCTest

/// Requests and answers over real sockets: decoding, bodies and their limit, answers from
/// another thread, what the server refuses by itself.
final class RequestTests: XCTestCase {
    private var server: HTTPServer?

    override func tearDown() {
        server?.stop()
        server = nil
    }

    private func start(_ settings: HTTPServerSettings = HTTPServerSettings(port: 0),
                       handler: @escaping @Sendable (HTTPRequest, HTTPResponder) -> Void) throws -> Int {
        let server = HTTPServer(settings: settings, handler: handler)
        try server.start()
        self.server = server
        return try XCTUnwrap(server.port)
    }

    func testGetDecodesPathQueryAndHeaders() throws {
        let seen = Collector()
        let port = try start { request, responder in
            seen.note(request)
            responder.respond(.json("{\"ok\": true}"))
        }
        let response = try get(port: port, "/a%20b/%C3%A9+?x=1&y=%C3%A9+z&x=2&flag#fragment", headers: "X-Thing: value\r\n")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, "{\"ok\": true}")
        XCTAssertTrue(response.head.lowercased().contains("content-type: application/json"))
        let request = try XCTUnwrap(seen.requests.first)
        XCTAssertEqual(request.method, "GET")
        XCTAssertEqual(request.path, "/a b/é+")
        XCTAssertEqual(request.query, ["x": "1", "y": "é z", "flag": ""])
        XCTAssertEqual(request.headers["x-THING"], "value")
        XCTAssertEqual(request.headers["host"], "localhost")
        XCTAssertEqual(request.peer, "127.0.0.1")
        XCTAssertTrue(request.peerIsLoopback)
    }

    func testPostBodyReachesTheHandler() throws {
        let seen = Collector()
        let port = try start { request, responder in
            seen.note(request)
            responder.respond(.json("{\"length\": \(request.body.count)}", status: 201))
        }
        let body = String(repeating: "é", count: 3000)
        let response = try exchange(port: port, "POST /api/player HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        XCTAssertEqual(response.status, 201)
        XCTAssertEqual(response.body, "{\"length\": 6000}")
        XCTAssertEqual(seen.requests.first.map { String(decoding: $0.body, as: UTF8.self) }, body)
        XCTAssertEqual(seen.requests.first?.method, "POST")
    }

    func testBodyOverTheLimitIs413WithoutTheHandler() throws {
        let seen = Collector()
        let port = try start(HTTPServerSettings(port: 0, maximumBodyBytes: 1024)) { request, responder in
            seen.note(request)
            responder.respond(.json("{}"))
        }
        let connection = try TestConnection(port: port)
        // Announced too large: answered before the body is sent at all.
        connection.send("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n")
        let response = ReceivedResponse(connection.readUntilClosed())
        XCTAssertEqual(response.status, 413)
        XCTAssertTrue(response.body.contains("\"error\""))
        // Chunked past the limit: the connection is closed.
        let chunked = try TestConnection(port: port)
        chunked.send("POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        for _ in 0..<4 { chunked.send("200\r\n" + String(repeating: "a", count: 512) + "\r\n") }
        XCTAssertTrue(chunked.isClosed(within: 5))
        // Exactly the limit is fine.
        let exact = String(repeating: "b", count: 1024)
        let fine = try exchange(port: port, "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 1024\r\nConnection: close\r\n\r\n\(exact)")
        XCTAssertEqual(fine.status, 200)
        XCTAssertEqual(seen.requests.count, 1)
    }

    func testAnswerFromAnotherThreadLater() throws {
        let port = try start { request, responder in
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
                responder.respond(.json("{\"late\": \"\(request.path)\"}"))
            }
        }
        let started = TestConnection.now()
        let response = try get(port: port, "/slow")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, "{\"late\": \"/slow\"}")
        XCTAssertGreaterThanOrEqual(TestConnection.now() - started, 0.29)
    }

    func testKeepAliveCarriesSeveralAsyncRequests() throws {
        let port = try start { request, responder in
            DispatchQueue.global().async { responder.respond(.json("\"\(request.path)\"")) }
        }
        let connection = try TestConnection(port: port)
        for index in 0..<5 {
            connection.send("GET /\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertNotNil(connection.read(until: "\"/\(index)\""))
        }
    }

    func testNotFoundFromTheHandler() throws {
        let port = try start { _, responder in
            responder.respond(.error("no such thing", status: 404))
        }
        let response = try get(port: port, "/missing")
        XCTAssertEqual(response.status, 404)
        XCTAssertEqual(response.body, "{\"error\": \"no such thing\"}")
    }

    func testOnlyTheFirstAnswerCounts() throws {
        let port = try start { _, responder in
            responder.respond(.json("\"first\""))
            responder.respond(.json("\"second\""))
        }
        XCTAssertEqual(try get(port: port, "/").body, "\"first\"")
    }

    func testAResponderDroppedUnansweredAnswers500() throws {
        let port = try start { _, _ in }
        XCTAssertEqual(try get(port: port, "/").status, 500)
    }

    func testFilesAreSentAndMissingOnesAre404() throws {
        let path = NSTemporaryDirectory() + "httpkit-\(getpid()).css"
        try "body { color: red }".write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let port = try start { request, responder in
            responder.respond(.file(request.path == "/app.css" ? path : path + ".missing", contentType: "text/css"))
        }
        let found = try get(port: port, "/app.css")
        XCTAssertEqual(found.status, 200)
        XCTAssertEqual(found.body, "body { color: red }")
        XCTAssertTrue(found.head.lowercased().contains("content-type: text/css"))
        XCTAssertEqual(try get(port: port, "/other.css").status, 404)
    }

    func testMalformedRequestsAre400AndTheServerGoesOn() throws {
        let seen = Collector()
        let port = try start { request, responder in
            seen.note(request)
            responder.respond(.json("{}"))
        }
        // A request line libmicrohttpd cannot split (no target) or a header line without a
        // colon: it closes the connection at once, without an answer.
        for raw in ["GARBAGE\r\n\r\n", "GET\r\n\r\n", "GET /a HTTP/1.1\r\nno colon here\r\n\r\n"] {
            let started = TestConnection.now()
            XCTAssertTrue([0, 400].contains(try exchange(port: port, raw).status), raw)
            XCTAssertLessThan(TestConnection.now() - started, 2, raw)
        }
        // A target it passes on but that is no valid path or query: HTTPKit's 400.
        for target in ["/bad%zz", "/a%00b", "/latin%E9", "/x?q=%FF", "relative"] {
            XCTAssertEqual(try get(port: port, target).status, 400, target)
        }
        XCTAssertTrue(seen.requests.isEmpty)
        XCTAssertEqual(try get(port: port, "/fine").status, 200)
        XCTAssertEqual(seen.requests.map(\.path), ["/fine"])
    }
}
