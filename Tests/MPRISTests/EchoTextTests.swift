import XCTest
@testable import MPRIS

/// Text from the bus repeated in logs, CommandReceived and error replies: capped, escaped.
final class EchoTextTests: XCTestCase {
    func testShortPlainTextIsUnchanged() {
        XCTAssertEqual(EchoText.safe("file:///music/Café Müller.mp3"), "file:///music/Café Müller.mp3")
        XCTAssertEqual(EchoText.safe(""), "")
        XCTAssertEqual(EchoText.safe(String(repeating: "a", count: 200)), String(repeating: "a", count: 200))
    }

    func testLongTextIsCutWithAnEllipsisAndItsSize() {
        let text = String(repeating: "a", count: 1 << 20)
        XCTAssertEqual(EchoText.safe(text), String(repeating: "a", count: 200) + "… (1048576 bytes)")
        XCTAssertEqual(EchoText.safe("abcdef", limit: 3), "abc… (6 bytes)")
        XCTAssertEqual(EchoText.safe("abc", limit: 0), "… (3 bytes)")
    }

    /// A million combining marks are one Character: the cap counts scalars.
    func testCombiningMarksCannotHideLength() {
        let text = "e" + String(repeating: "\u{301}", count: 100_000)
        XCTAssertEqual(text.count, 1)
        XCTAssertLessThanOrEqual(EchoText.safe(text).unicodeScalars.count, 220)
    }

    func testControlCharactersBecomeVisibleEscapes() {
        XCTAssertEqual(EchoText.safe("a\nb\rc\td"), "a\\nb\\rc\\td")
        XCTAssertEqual(EchoText.safe("\u{1B}[31mred\u{07}"), "\\x1B[31mred\\x07")
        XCTAssertEqual(EchoText.safe("\u{0}\u{7F}\u{85}"), "\\x00\\x7F\\x85")
        XCTAssertEqual(EchoText.safe("abc\u{202E}fed"), "abc\\u{202E}fed")
        XCTAssertEqual(EchoText.safe("C:\\music"), "C:\\music", "a backslash alone stays")
    }

    /// Escapes count against the cap, so the result stays bounded however many controls there are.
    func testEscapesCountAgainstTheCap() {
        let text = String(repeating: "\u{1B}", count: 10_000)
        let safe = EchoText.safe(text, limit: 20)
        XCTAssertTrue(safe.hasPrefix("\\x1B\\x1B\\x1B\\x1B\\x1B… "), safe)
        XCTAssertLessThanOrEqual(safe.unicodeScalars.count, 40)
    }

    func testWholeLinesAreEscapedButNeverCut() {
        let line = String(repeating: "x", count: 5_000)
        XCTAssertEqual(EchoText.escapingControls(line), line)
        XCTAssertEqual(EchoText.escapingControls("one\nforged: line"), "one\\nforged: line")
    }
}
