import PlayerCore
import Testing
@testable import MPDProtocol

/// What a file, a station or a client says is written into answers: tags, URIs, playlist
/// names, a client's own argument echoed in an ACK. Seeded random values of every kind of
/// byte — newlines, NULs, C0 and C1 controls, DEL, invalid UTF-8, line and paragraph
/// separators — never add a line, never end one early, and always leave valid UTF-8.
@Suite struct ResponseInjectionTests {
    static let pieces: [[UInt8]] = [
        "\n", "\r", "\r\n", "OK", "OK\n", "ACK [5@0] {} x", "list_OK", "file: /etc/passwd", "binary: 10", ": ", " ",
        "é", "日本", "\u{2028}", "\u{2029}", "\u{85}", "\u{FEFF}", "x", "Title",
    ].map { Array($0.utf8) } + [[0x00], [0x01], [0x1B], [0x7F], [0xFF], [0xC3], [0xE2, 0x82], [0xC0, 0x8A], [0xED, 0xA0, 0x80]]

    static func value(_ generator: inout SeededGenerator) -> String {
        var bytes: [UInt8] = []
        for _ in 0..<Int.random(in: 0...12, using: &generator) { bytes += pieces.randomElement(using: &generator)! }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The lines of `bytes`: each valid UTF-8, none with a control character.
    static func cleanLines(_ bytes: [UInt8]) -> [[UInt8]]? {
        guard bytes.last == UInt8(ascii: "\n"), String(validating: bytes, as: UTF8.self) != nil else { return nil }
        let lines = bytes.dropLast().split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
        return lines.allSatisfy { line in !line.contains { $0 < 0x20 || $0 == 0x7F } } ? lines : nil
    }

    @Test func randomTagsURIsAndNamesWriteOneLineEach() throws {
        var generator = SeededGenerator(seed: 0x494E_4A45)
        for round in 0..<3_000 {
            let kinds = TagKind.allCases
            let tags = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                TagValue(kinds.randomElement(using: &generator)!, Self.value(&generator))
            }
            var writer = ResponseWriter()
            writer.song(SongInfo(uri: "a/" + Self.value(&generator), tags: tags), tags: Set(kinds))
            let lines = try #require(Self.cleanLines(writer.bytes), "round \(round): \(writer.bytes)")
            // `file:`, then one line a tag the client asked for.
            #expect(lines.count == 1 + tags.count, "round \(round)")
            #expect(lines.allSatisfy { String(decoding: $0, as: UTF8.self).contains(": ") }, "round \(round)")

            var other = ResponseWriter()
            other.playlist(Self.value(&generator), lastModified: nil)
            other.directory(Self.value(&generator), lastModified: nil)
            other.queueURI(position: round, uri: Self.value(&generator))
            other.ack(MPDError(.argument, Self.value(&generator)).withCommand(Self.value(&generator)), listIndex: round)
            let otherLines = try #require(Self.cleanLines(other.bytes), "round \(round): \(other.bytes)")
            #expect(otherLines.count == 4, "round \(round)")
            #expect(String(decoding: otherLines[3], as: UTF8.self).hasPrefix("ACK [2@\(round)] {"), "round \(round)")
        }
    }
}
