import MusicDatabase
import Testing
@testable import MPDProtocol

/// Nothing a client sends may trap, hang or grow without bound: seeded random lines and filters,
/// deep nesting, huge numbers, NULs and invalid UTF-8. Each input must get an answer — a
/// command, an outcome or an MPDError — and the run must finish.
@Suite struct HostileInputTests {
    /// Bytes that mean something to the tokenizer and the filter parser, and some that do not.
    static let alphabet: [[UInt8]] = [
        "(", ")", "(", ")", "!", "'", "\"", "\\", " ", " ", "\t", "==", "!=", "=~", "!~", "contains ", "AND ", "OR ",
        "artist", "Album", "any", "file", "base", "modified-since", "AudioFormat", "prio", "44100:16:2", "*:*:*", "dsd64:2",
        "2020-01-01T10:30Z", "+01:00", "-1", "0", "1:", "4294967296", "99999999999999999999", "1e999", "nan", ":", "+", "-",
        "x", "é", "[", "]", "{", "*", ".", "..", "/",
    ].map { Array($0.utf8) } + [[0x00], [0x01], [0x7F], [0xFF], [0xC3], [0xE2, 0x82], [0x0D]]

    static let commandNames = CommandTable.commands.map(\.name) + ["command_list_begin", "command_list_ok_begin", "command_list_end", "noidle", "foo", "Ping", ""]

    private static func randomBytes(_ generator: inout SeededGenerator, pieces: ClosedRange<Int>) -> [UInt8] {
        var bytes = [UInt8]()
        for _ in 0..<Int.random(in: pieces, using: &generator) {
            bytes += alphabet.randomElement(using: &generator)!
        }
        return bytes
    }

    @Test func tenThousandRandomLinesEachGetAnAnswer() {
        var generator = SeededGenerator(seed: 0x4D50_4423)
        var reader = CommandReader(commandListLimit: 64 * 1024)
        var outcomes = [String: Int]()
        for _ in 0..<10_000 {
            var line = Array(Self.commandNames.randomElement(using: &generator)!.utf8)
            if Bool.random(using: &generator) { line += [0x20] }
            line += Self.randomBytes(&generator, pieces: 0...12)
            switch reader.read(line, idling: Int.random(in: 0..<50, using: &generator) == 0) {
            case .run(let batch):
                for request in batch {
                    do {
                        let parsed = try MPDCommand.parse(request, permissions: .all)
                        outcomes[parsed.name, default: 0] += 1
                    } catch {
                        var writer = ResponseWriter()
                        writer.ack(error, listIndex: 0)
                        #expect(writer.bytes.last == UInt8(ascii: "\n"))
                        #expect(writer.bytes.filter { $0 == UInt8(ascii: "\n") }.count == 1)
                        outcomes["ACK \(error.code)", default: 0] += 1
                    }
                }
            case .noidle: outcomes["noidle", default: 0] += 1
            case .gathering: outcomes["gathering", default: 0] += 1
            case .close(let reason): outcomes["close \(reason)", default: 0] += 1
            }
        }
        // The run reached every kind of answer, not just one.
        #expect(outcomes["ACK argument", default: 0] > 100)
        #expect(outcomes["ACK unknown", default: 0] > 100)
        #expect(outcomes["gathering", default: 0] > 100)
        #expect(outcomes.count > 40)
    }

    @Test func tenThousandRandomFiltersEachGetAnAnswer() {
        var generator = SeededGenerator(seed: 0x46_494C_54)
        var parsed = 0
        var refused = 0
        for index in 0..<10_000 {
            var text = index % 2 == 0 ? [UInt8(ascii: "(")] : []
            text += Self.randomBytes(&generator, pieces: 1...16)
            let argument = String(decoding: text, as: UTF8.self)
            let arguments = Bool.random(using: &generator) ? [argument] : [argument, "x"]
            do {
                _ = try FilterParser.parse(arguments, foldCase: Bool.random(using: &generator))
                parsed += 1
            } catch {
                #expect(error.code == .argument)
                refused += 1
            }
        }
        #expect(parsed + refused == 10_000)
        #expect(parsed > 0 && refused > 0)
    }

    @Test func validExpressionsFromRandomPieces() throws {
        // Well-formed expressions of random depth and width parse into filters of that shape.
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<500 {
            let (text, expected) = Self.expression(&generator, depth: Int.random(in: 1...6, using: &generator))
            #expect(try FilterParser.parse([text], foldCase: false) == expected, "\(text)")
        }
    }

    private static func expression(_ generator: inout SeededGenerator, depth: Int) -> (String, SongFilter) {
        let value = String(Int.random(in: 0...999, using: &generator))
        guard depth > 1 else { return ("(artist == '\(value)')", .tag(.kind(.artist), StringMatch(value))) }
        switch Int.random(in: 0..<3, using: &generator) {
        case 0:
            let (inner, filter) = expression(&generator, depth: depth - 1)
            return ("(!\(inner))", .not(filter))
        case 1:
            let parts = (0..<Int.random(in: 2...4, using: &generator)).map { _ in expression(&generator, depth: depth - 1) }
            // mpd skips no white space after the `)` of an AND group: "AND" must follow at once.
            var text = "("
            for (index, part) in parts.enumerated() {
                if index > 0 { text += parts[index - 1].1.isAnd ? "AND " : " AND " }
                text += part.0
            }
            return (text + ")", .and(parts.map(\.1)))
        default:
            return ("(album != '\(value)')", .tag(.kind(.album), StringMatch(value, negated: true)))
        }
    }

    @Test func deepNestingIsRefusedNotRecursed() {
        for opening in ["(", "(!", "((artist == 'x') AND ", "(! "] {
            let text = String(repeating: opening, count: 4000)
            #expect(throws: MPDError(.argument, "Expression nested too deeply")) { try FilterParser.parse([text], foldCase: false) }
        }
        // Deep regular expressions are refused, not recursed into (the library's compiler caps
        // the nesting and the pattern's length).
        for pattern in [String(repeating: "[", count: 4000), String(repeating: "(?:a|", count: 800), String(repeating: "(", count: 4000)] {
            #expect(parseAnswer("find \"(title =~ '\(pattern)')\"").hasPrefix("ACK [2@0] {find} Error in regex at offset "))
        }
    }

    @Test func hugeNumbersSaturateOrFail() throws {
        let digits = String(repeating: "9", count: 8000)
        #expect(parseAnswer("setvol \(digits)").hasPrefix("ACK [2@0] {setvol} Number too large: 999"))
        #expect(parseAnswer("delete \(digits):").hasPrefix("ACK [2@0] {delete} Number too large: 999"))
        #expect(parseAnswer("binarylimit 18446744073709551616") == "ACK [2@0] {binarylimit} Number too large: 18446744073709551616\n")
        #expect(parseAnswer("play -9223372036854775809") == "ACK [2@0] {play} Number too large: -9223372036854775809\n")
        guard case .seek(_, let time) = try command("seek 0 1e999999") else { throw UnexpectedCommand() }
        #expect(time > 0)
        #expect(try command("plchanges \(digits)") == .playlistChanges(since: .max, .all))
        #expect(try TimestampParser.parse(digits) == -1)
        #expect(throws: MPDError.argument("Number too large", digits)) {
            try InsertPosition(digits).resolve(queueLength: .max, currentPosition: nil)
        }
        #expect(throws: MPDError.argument("Number too large", "9223372036854775807")) {
            try InsertPosition("+9223372036854775807").resolve(queueLength: 3, currentPosition: 2)
        }
    }

    @Test func linesOfAnyLengthAreReadInOnePass() throws {
        // The server closes lines past 8 KiB; the parser must cope with anything anyway.
        let long = "ping " + String(repeating: "\"\\a\" ", count: 200_000)
        #expect(throws: MPDError(.argument, "Too many arguments")) { try RequestLine(Array(long.utf8)).request() }
        let quoted = "find \"" + String(repeating: "\\\\", count: 500_000) + "\""
        #expect(parseAnswer(quoted) == "ACK [2@0] {find} Incorrect number of filter arguments\n")
        let word = String(repeating: "a", count: 1_000_000)
        #expect(parseAnswer(word).hasPrefix("ACK [5@0] {} unknown command \"aaa"))
    }

    @Test func nulAndInvalidUTF8() {
        #expect(parseAnswer(bytes: [0x70, 0x69, 0x6E, 0x67, 0x00, 0x20, 0x78]) == "OK\n")
        #expect(parseAnswer(bytes: Array("find artist \"".utf8) + [0xFF, 0xFE] + [0x22]) == "OK\n")
        #expect(parseAnswer(bytes: Array("find \"(".utf8) + [0xFF] + Array(" == 'a')\"".utf8)) == "ACK [2@0] {find} Word expected\n")
        #expect(parseAnswer(bytes: [0x70, 0xFF, 0x6E, 0x67]) == "ACK [5@0] {} Invalid word character\n")
        var writer = ResponseWriter()
        writer.line("Title", String(decoding: [0x41, 0xFF, 0x00, 0x42], as: UTF8.self))
        #expect(writer.bytes == Array("Title: A\u{FFFD} B\n".utf8))
    }
}

extension SongFilter {
    var isAnd: Bool {
        if case .and = self { return true }
        return false
    }
}
