import PlayerCore
import Testing

@Suite struct StreamURLTests {
    @Test func acceptsHTTPAndHTTPS() throws {
        #expect(try StreamURL(validating: "http://127.0.0.1:8000/radio.mp3").text == "http://127.0.0.1:8000/radio.mp3")
        #expect(try StreamURL(validating: "HTTPS://radio.example/live").redacted == "HTTPS://radio.example/live")
    }

    @Test func refusesWhatIsNotAStreamAddress() {
        #expect(throws: StreamURL.Problem.notHTTP) { try StreamURL(validating: "ftp://x/y") }
        #expect(throws: StreamURL.Problem.notHTTP) { try StreamURL(validating: "file:///a.mp3") }
        #expect(throws: StreamURL.Problem.noHost) { try StreamURL(validating: "http:///path") }
        #expect(throws: StreamURL.Problem.badCharacters) { try StreamURL(validating: "http://x/a b") }
        #expect(throws: StreamURL.Problem.badCharacters) { try StreamURL(validating: "http://x/\u{0}") }
        #expect(throws: StreamURL.Problem.tooLong) { try StreamURL(validating: "http://x/" + String(repeating: "a", count: 9000)) }
    }

    @Test func credentialsAreNeverShown() throws {
        let url = try StreamURL(validating: "http://user:s3cret@radio.example:8000/live?key=1")
        #expect(url.redacted == "http://radio.example:8000/live?key=1")
        #expect(url.description == url.redacted)
        #expect(!Track(stream: url).displayTitle.contains("s3cret"))
        #expect(MediaLocation.stream(url).displayString == url.redacted)
    }

    @Test func displayNameIsTheLastPathPart() throws {
        #expect(try StreamURL(validating: "http://radio.example/live.mp3?x=1").displayName == "live.mp3")
        #expect(try StreamURL(validating: "http://radio.example").displayName == "radio.example")
    }
}
