@testable import CurlKit
import XCTest

/// The parts that need no server: header lines, limits, Content-Length, redaction.
final class HeadParsingTests: XCTestCase {
    private func take(_ parser: inout ResponseHeadParser, _ line: String) -> ResponseHeadParser.Outcome {
        Array(line.utf8).withUnsafeBytes { parser.take($0) }
    }

    func testFieldsOfTheLastResponseOnly() {
        var parser = ResponseHeadParser()
        XCTAssertEqual(take(&parser, "HTTP/1.1 302 Found\r\n"), .statusLine)
        XCTAssertEqual(take(&parser, "Location: /x\r\n"), .more)
        XCTAssertEqual(take(&parser, "\r\n"), .endOfFields)
        XCTAssertEqual(take(&parser, "ICY 200 OK\r\n"), .statusLine)
        XCTAssertEqual(take(&parser, "icy-metaint:8192\r\n"), .more)
        XCTAssertEqual(take(&parser, "Content-Type :  audio/mpeg \t\r\n"), .more)
        XCTAssertEqual(take(&parser, "no colon here\r\n"), .more)
        XCTAssertEqual(take(&parser, " folded continuation\r\n"), .more)
        XCTAssertEqual(parser.fields.map(\.name), ["icy-metaint", "content-type"])
        XCTAssertEqual(parser.fields.map(\.value), ["8192", "audio/mpeg"])
    }

    func testLimits() {
        var parser = ResponseHeadParser()
        _ = take(&parser, "HTTP/1.1 200 OK\r\n")
        for index in 1..<100 { XCTAssertEqual(take(&parser, "X-\(index): 1\r\n"), .more) }
        if case .refused = take(&parser, "X-100: 1\r\n") {} else { XCTFail("line 101 refused") }
        var long = ResponseHeadParser()
        if case .refused = take(&long, "X: " + String(repeating: "a", count: 8190) + "\r\n") {} else {
            XCTFail("8195 bytes refused")
        }
    }

    func testContentLength() {
        func length(_ lines: [String]) -> Int64? {
            var parser = ResponseHeadParser()
            for line in ["HTTP/1.1 200 OK\r\n"] + lines { _ = take(&parser, line + "\r\n") }
            return TransferCore.contentLength(of: parser)
        }
        XCTAssertEqual(length(["Content-Length: 42"]), 42)
        XCTAssertEqual(length(["Content-Length: 42", "content-length: 42"]), 42)
        XCTAssertNil(length(["Content-Length: 42", "Content-Length: 43"]))
        XCTAssertNil(length(["Content-Length: -1"]))
        XCTAssertNil(length(["Content-Length: 99999999999999999999"]))
        XCTAssertNil(length(["Content-Length: 42", "Transfer-Encoding: chunked"]))
        XCTAssertNil(length([]))
    }

    func testRedaction() {
        XCTAssertEqual(CredentialRedaction.redacting("at http://u:p@host:80/a@b"), "at http://host:80/a@b")
        XCTAssertEqual(CredentialRedaction.redacting("https://a:b@c@d/x and http://e:f@g"), "https://d/x and http://g")
        XCTAssertEqual(CredentialRedaction.redacting("no URL, just me@example.org"), "no URL, just me@example.org")
        XCTAssertEqual(CredentialRedaction.redacting("http://host/path?user=a@b"), "http://host/path?user=a@b")
    }

    func testMilliseconds() {
        XCTAssertEqual(Milliseconds.of(5), 5000)
        XCTAssertEqual(Milliseconds.of(0), 1)
        XCTAssertEqual(Milliseconds.of(-3), 1)
        XCTAssertEqual(Milliseconds.of(.nan), 1)
        XCTAssertEqual(Milliseconds.of(.infinity), 86_400_000)
        XCTAssertEqual(Milliseconds.of(1e300), 86_400_000)
    }
}
