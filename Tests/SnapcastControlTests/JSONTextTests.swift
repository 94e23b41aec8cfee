import JSON
import SnapcastControl
import Testing

/// The bounded JSON of the control script: what snapserver sends parses, what is hostile is
/// refused with a reason, and what is written is one line.
@Suite struct JSONTextTests {
    @Test func theProtocolsLinesParse() throws {
        let line = #"{"id": 1, "jsonrpc": "2.0", "method": "Plugin.Stream.Player.Control", "params": {"command": "setPosition", "params": {"position": 170.5}}}"#
        let value = try JSONText.parse(line)
        #expect(value["id"] == 1)
        #expect(value["method"]?.string == "Plugin.Stream.Player.Control")
        #expect(value["params"]?["params"]?["position"]?.double == 170.5)
    }

    @Test func stringsEscapesAndUnicode() throws {
        #expect(try JSONText.parse(#""a\"b\\c\/d\n\u00e9\ud83c\udfb5""#) == .string("a\"b\\c/d\né🎵"))
        // A lone surrogate half is replaced, not an error.
        #expect(try JSONText.parse(#""\ud83c""#) == .string("\u{FFFD}"))
        #expect(JSONText.write(.string("line\nbreak \"quoted\" \u{1}")) == #""line\nbreak \"quoted\" \u0001""#)
    }

    @Test func numbersKeepWhetherTheyWereIntegers() throws {
        #expect(try JSONText.parse("7") == .integer(7))
        #expect(try JSONText.parse("-0.25e1") == .number(-2.5))
        #expect(JSONText.write(["id": 7, "x": 0.5]) == #"{"id":7,"x":0.5}"#)
        #expect(try JSONText.parse("123456789012345678901234567890") == .number(123456789012345678901234567890))
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\" 1}", "tru", "01x", "\"unterminated", "{\"a\":1}}", "[1] [2]",
        "\"tab\there\"", "1e999", "nul", "{\"a\":}", "\u{FF}",
    ])
    func malformedTextIsAnError(_ text: String) {
        #expect(throws: JSONText.ParseError.self) { try JSONText.parse(text) }
    }

    @Test func invalidUTF8InAStringIsAnError() {
        #expect(throws: JSONText.ParseError.self) { try JSONText.parse([0x22, 0xC3, 0x28, 0x22]) }
    }

    @Test func deepNestingIsRefusedWithoutRecursingDeep() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONText.ParseError.self) { try JSONText.parse(deep) }
        let fine = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        #expect((try? JSONText.parse(fine)) != nil)
    }
}
