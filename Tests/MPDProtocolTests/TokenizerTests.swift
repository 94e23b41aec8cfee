import Testing
@testable import MPDProtocol

/// mpd's tokenizer: words, quoted strings and their escapes, what counts as white space, and the
/// bytes that are not text. The error answers are in ParseErrorTests.
@Suite struct TokenizerTests {
    private func request(_ bytes: [UInt8]) throws -> MPDRequest {
        try RequestLine(bytes).request()
    }

    private func request(_ line: String) throws -> MPDRequest {
        try request(Array(line.utf8))
    }

    @Test func splitsWordsAndQuotedStrings() throws {
        #expect(try request("find artist \"The Who\" album Tommy") == MPDRequest(name: "find", arguments: ["artist", "The Who", "album", "Tommy"]))
        #expect(try request("ping") == MPDRequest(name: "ping"))
        #expect(try request("lsinfo \"\"") == MPDRequest(name: "lsinfo", arguments: [""]))
        // Unquoted parameters take anything above 0x20 but quotes: slashes, colons, parentheses.
        #expect(try request("add http://host:8000/a(b).mp3 +1") == MPDRequest(name: "add", arguments: ["http://host:8000/a(b).mp3", "+1"]))
    }

    @Test func aBackslashEscapesTheNextByte() throws {
        #expect(try request(#"find "(Artist == \"foo\\'bar\\\"\")""#).arguments == [#"(Artist == "foo\'bar\"")"#])
        #expect(try request(#"ping "a\b\\c""#).arguments == [#"ab\c"#])
    }

    @Test func whiteSpaceIsEveryByteUpTo0x20() throws {
        // mpd strips every control character at the end of the line and splits on them.
        #expect(try request("ping \t\r") == MPDRequest(name: "ping"))
        #expect(try request([0x70, 0x69, 0x6E, 0x67, 0x01]) == MPDRequest(name: "ping"))
        #expect(try request("ping\ta\u{1}b  c") == MPDRequest(name: "ping", arguments: ["a", "b", "c"]))
        // DEL is not white space; inside quotes, control characters are kept.
        #expect(try request("ping \u{7F}").arguments == ["\u{7F}"])
        #expect(try request("ping \"\u{1}\"").arguments == ["\u{1}"])
    }

    @Test func aNULEndsTheLine() throws {
        #expect(try request([0x70, 0x69, 0x6E, 0x67, 0x00, 0x21, 0x21]) == MPDRequest(name: "ping"))
        #expect(RequestLine([0x61, 0x00, 0x62]).bytes == [0x61])
    }

    @Test func invalidUTF8IsReplacedAfterTokenizing() throws {
        // mpd passes the bytes on and finds nothing with them; U+FFFD finds nothing either.
        #expect(try request([0x66, 0x69, 0x6E, 0x64, 0x20, 0x61, 0x20, 0x22, 0xFF, 0xC3, 0x22]).arguments == ["a", "\u{FFFD}\u{FFFD}"])
        // A backslash escapes a byte, not a character: an escaped lead byte stays valid.
        #expect(try request([0x70, 0x20, 0x22, 0x5C, 0xC3, 0xA9, 0x22]).arguments == ["\u{E9}"])
    }

    @Test func aLineOfNothingIsNoCommand() {
        #expect(throws: MPDError(.unknown, "No command given", closesConnection: true)) { try request("") }
        #expect(throws: MPDError(.unknown, "Letter expected", closesConnection: true)) { try request("9ping") }
    }
}
