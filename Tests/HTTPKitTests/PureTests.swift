@testable import HTTPKit
import XCTest

/// The parts without sockets: the request target's decoding, the events' format.
final class PureTests: XCTestCase {
    func testTargetsDecode() {
        let target = RequestTarget(Array("/a%2Fb/c+d?q=a+b%26c&empty=&q=second&=x".utf8))
        XCTAssertEqual(target?.path, "/a/b/c+d")
        XCTAssertEqual(target?.query, ["q": "a b&c", "empty": "", "": "x"])
    }

    func testInvalidTargets() {
        for raw in ["", "x", "/%", "/%4", "/%4g", "/%00", "/%C3", "/?a=%FF", "/?%00=1", "*"] {
            XCTAssertNil(RequestTarget(Array(raw.utf8)), raw)
        }
    }

    func testEventsFormat() {
        XCTAssertEqual(String(decoding: EventBuffer.event(named: "state", data: "{}"), as: UTF8.self),
                       "event: state\ndata: {}\n\n")
        XCTAssertEqual(String(decoding: EventBuffer.event(named: nil, data: "a\nb\r\nc\rd"), as: UTF8.self),
                       "data: a\ndata: b\ndata: c\ndata: d\n\n")
        XCTAssertEqual(String(decoding: EventBuffer.event(named: "x\ny", data: ""), as: UTF8.self),
                       "event: xy\ndata: \n\n")
    }

    func testEventBufferHandsOutInOrder() {
        var buffer = EventBuffer()
        buffer.append(Array(0..<200))
        var out = [UInt8](repeating: 0, count: 150)
        XCTAssertEqual(out.withUnsafeMutableBytes { buffer.take(into: $0) }, 150)
        XCTAssertEqual(out, Array(0..<150))
        buffer.append([1, 2])
        XCTAssertEqual(out.withUnsafeMutableBytes { buffer.take(into: $0) }, 52)
        XCTAssertEqual(Array(out[0..<52]), Array(150..<200) + [1, 2])
        XCTAssertEqual(buffer.count, 0)
    }

    func testHeadersIgnoreCase() {
        var headers = HTTPHeaders([("Content-Type", "a")])
        headers.add("X-Two", "1")
        headers.add("x-two", "2")
        XCTAssertEqual(headers["content-type"], "a")
        XCTAssertEqual(headers["X-TWO"], "1")
        headers.set("X-Two", "3")
        XCTAssertEqual(headers.fields.count, 2)
        XCTAssertEqual(headers["x-two"], "3")
    }

    func testErrorBodiesAreJSON() {
        XCTAssertEqual(HTTPResponse.error("a \"b\"\n", status: 400).body, .bytes(Array("{\"error\": \"a \\\"b\\\"\\u000a\"}".utf8)))
    }
}
