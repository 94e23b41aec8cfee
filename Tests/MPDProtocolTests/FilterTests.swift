import MusicDatabase
import PlayerCore
import Testing
@testable import MPDProtocol

/// What filters parse into: the `SongFilter` each form of mpd 0.23 means. (A real mpd matched
/// each of these forms against a small library; the error answers are in FilterErrorTests.)
@Suite struct FilterTests {
    @Test func oldStylePairsAreExactForFindAndSubstringsForSearch() throws {
        #expect(try findFilter("find artist A") == .tag(.kind(.artist), StringMatch("A")))
        #expect(try findFilter("find Artist A album L") == .and([
            .tag(.kind(.artist), StringMatch("A")), .tag(.kind(.album), StringMatch("L")),
        ]))
        guard case .search(let query) = try command("search artist a") else { throw UnexpectedCommand() }
        #expect(query.filter == .tag(.kind(.artist), StringMatch("a", foldCase: true, substring: true)))
        #expect(try findFilter("find any A") == .tag(.any, StringMatch("A")))
        #expect(try findFilter("find file a.mp3") == .uri(StringMatch("a.mp3")))
        #expect(try findFilter("find filename a.mp3") == .uri(StringMatch("a.mp3")))
        #expect(try findFilter("find base A/B") == .base("A/B"))
        #expect(try findFilter("find modified-since 1600000000") == .modifiedSince(1_600_000_000))
        #expect(try findFilter("find MUSICBRAINZ_TRACKID x") == .tag(.kind(.musicBrainzTrackID), StringMatch("x")))
        // mpd then compares a tag type that does not exist: nothing matches.
        #expect(try findFilter("find AudioFormat 44100:16:2") == FilterParser.matchesNothing)
    }

    @Test func expressionsCompareTagsAndURIs() throws {
        #expect(try findFilter("find \"(Artist == 'x')\"") == .tag(.kind(.artist), StringMatch("x")))
        #expect(try findFilter("find \"(artist != \\\"x\\\")\"") == .tag(.kind(.artist), StringMatch("x", negated: true)))
        #expect(try findFilter("find \"(artist contains 'B')\"") == .tag(.kind(.artist), StringMatch("B", substring: true)))
        #expect(try findFilter("find \"(artist CONTAINS 'B')\"") == .tag(.kind(.artist), StringMatch("B", substring: true)))
        #expect(try findFilter("find \"(artist !contains 'B')\"") == .tag(.kind(.artist), StringMatch("B", substring: true, negated: true)))
        #expect(try findFilter("find \"(artist =~ '^A')\"") == .tag(.kind(.artist), StringMatch("^A", isRegex: true)))
        #expect(try findFilter("find \"(artist !~'^A')\"") == .tag(.kind(.artist), StringMatch("^A", isRegex: true, negated: true)))
        #expect(try findFilter("find \"(file == 'a.mp3')\"") == .uri(StringMatch("a.mp3")))
        #expect(try findFilter("find \"(ANY == 'A')\"") == .tag(.any, StringMatch("A")))
        #expect(try findFilter("find \"(artist==\\\"\\\")\"") == .tag(.kind(.artist), StringMatch("")))
        // Expressions fold case in search, but stay whole-value comparisons.
        guard case .search(let query) = try command("search \"(artist == 'a')\"") else { throw UnexpectedCommand() }
        #expect(query.filter == .tag(.kind(.artist), StringMatch("a", foldCase: true)))
    }

    @Test func notAndBaseAndTime() throws {
        let artistA = SongFilter.tag(.kind(.artist), StringMatch("A"))
        #expect(try findFilter("find \"(!(artist == 'A'))\"") == .not(artistA))
        #expect(try findFilter("find \"(! (artist == 'A') )\"") == .not(artistA))
        #expect(try findFilter("find \"((artist == 'A'))\"") == artistA)
        #expect(try findFilter("find \"((artist == 'A') AND (album == 'L') AND (title == 'T'))\"") == .and([
            artistA, .tag(.kind(.album), StringMatch("L")), .tag(.kind(.title), StringMatch("T")),
        ]))
        #expect(try findFilter("find \"((artist == 'A')AND(album == 'L'))\"") == .and([artistA, .tag(.kind(.album), StringMatch("L"))]))
        // An expression's base is not checked here: mpd answers "No such directory" later.
        #expect(try findFilter("find \"(base '../A')\"") == .base("../A"))
        #expect(try findFilter("find \"(modified-since '2020-01-01T00:00:00Z')\"") == .modifiedSince(1_577_836_800))
        #expect(try findFilter("find \"(modified-since '1600000000')\"") == .modifiedSince(1_600_000_000))
        // Expressions and pairs mix; each is one more condition.
        #expect(try findFilter("find \"(artist == 'A')\" album L") == .and([artistA, .tag(.kind(.album), StringMatch("L"))]))
    }

    @Test func audioFormats() throws {
        #expect(try findFilter("find \"(AudioFormat == '44100:16:2')\"") ==
            .audioFormat(AudioFormatPattern(sampleRate: 44100, bitsPerSample: .some(16), channels: 2, isMask: false)))
        #expect(try findFilter("find \"(audioformat == '48000:f:1')\"") ==
            .audioFormat(AudioFormatPattern(sampleRate: 48000, bitsPerSample: .some(nil), channels: 1, isMask: false)))
        #expect(try findFilter("find \"(AudioFormat == '44100:24_3:2')\"") ==
            .audioFormat(AudioFormatPattern(sampleRate: 44100, bitsPerSample: .some(24), channels: 2, isMask: false)))
        #expect(try findFilter("find \"(AudioFormat =~ '44100:*:*')\"") ==
            .audioFormat(AudioFormatPattern(sampleRate: 44100, bitsPerSample: nil, channels: nil, isMask: true)))
        // strtoul's leniencies and mpd's 32-bit parameters: 4294967297 Hz is 1 Hz.
        #expect(try findFilter("find \"(AudioFormat == ' +44100:16:2')\"") ==
            .audioFormat(AudioFormatPattern(sampleRate: 44100, bitsPerSample: .some(16), channels: 2, isMask: false)))
        #expect(try findFilter("find \"(AudioFormat == '4294967297:16:2')\"") ==
            .audioFormat(AudioFormatPattern(sampleRate: 1, bitsPerSample: .some(16), channels: 2, isMask: false)))
        // DSD: valid for mpd, never a format of Aubade's songs.
        for format in ["dsd64:2", "44100:dsd:2"] {
            #expect(try findFilter("find \"(AudioFormat == '\(format)')\"") == FilterParser.matchesNothing)
        }
        #expect(try findFilter("find \"(AudioFormat =~ 'dsd64:*')\"") == FilterParser.matchesNothing)
    }

    @Test func sortWindowAndPosition() throws {
        guard case .find(let query) = try command("find \"(artist == 'A')\" sort -title window 0:1") else { throw UnexpectedCommand() }
        #expect(query.sort == SortOrder(.tag(.title), descending: true))
        #expect(query.window == SongRange(start: 0, end: 1))
        guard case .find(let byDate) = try command("find artist A sort last-modified") else { throw UnexpectedCommand() }
        #expect(byDate.sort == SortOrder(.lastModified))
        #expect(byDate.window == nil)
        guard case .searchAdd(let added, let position) = try command("searchadd any a sort Album window 2: position +1") else {
            throw UnexpectedCommand()
        }
        #expect(added.sort == SortOrder(.tag(.album)))
        #expect(added.window == SongRange(start: 2, end: nil))
        #expect(position == InsertPosition("+1"))
    }

    @Test func countAndList() throws {
        #expect(try command("count group artist") == .count(CountQuery(filter: nil, group: .artist)))
        #expect(try command("count artist A group album") == .count(CountQuery(filter: .tag(.kind(.artist), StringMatch("A")), group: .album)))
        #expect(try command("list album") == .list(ListQuery(target: .tag(.album))))
        // mpd 0.12's form: `list album ARTIST`.
        #expect(try command("list album A") == .list(ListQuery(target: .tag(.album), filter: .tag(.kind(.artist), StringMatch("A")))))
        #expect(try command("list album \"(artist == 'A')\"") == .list(ListQuery(target: .tag(.album), filter: .tag(.kind(.artist), StringMatch("A")))))
        // The last group is the outermost: artist, then date, then the albums.
        #expect(try command("list album group date group artist") == .list(ListQuery(target: .tag(.album), groups: [.artist, .date])))
        #expect(try command("list date artist A group album") == .list(ListQuery(target: .tag(.date), filter: .tag(.kind(.artist), StringMatch("A")), groups: [.album])))
        #expect(try command("list filename artist A") == .list(ListQuery(target: .file, filter: .tag(.kind(.artist), StringMatch("A")))))
    }

    @Test func regularExpressionsAreCheckedWhenParsed() {
        // mpd's form: "Error in regex at offset N: …" (its words are PCRE's; ours the library's).
        #expect(parseAnswer("find \"(artist =~ '(')\"").hasPrefix("ACK [2@0] {find} Error in regex at offset "))
        #expect(parseAnswer("find \"(artist =~ 'a{2,1}')\"").hasPrefix("ACK [2@0] {find} Error in regex at offset "))
        // What cannot run in linear time is refused as mpd refuses a bad pattern.
        #expect(throws: MPDError.self) { try RegexCheck.validate("(a)\\1", foldCase: false) }
        #expect(throws: MPDError.self) { try RegexCheck.validate("(?<=x)a", foldCase: true) }
        let deep = String(repeating: "(", count: 100) + "a" + String(repeating: ")", count: 100)
        #expect(parseAnswer("find \"(artist =~ '\(deep)')\"").hasPrefix("ACK [2@0] {find} Error in regex at offset "))
        let escaped = String(repeating: "\\\\\\\\(", count: 40)
        #expect(parseAnswer("find \"(artist =~ '\(escaped)')\"") == "OK\n")
    }

    @Test func nestingIsBounded() {
        func nested(_ depth: Int) -> String {
            "find \"" + String(repeating: "(!", count: depth - 1) + "(artist == 'A')" + String(repeating: ")", count: depth - 1) + "\""
        }
        #expect(parseAnswer(nested(FilterParser.maximumDepth)) == "OK\n")
        #expect(parseAnswer(nested(FilterParser.maximumDepth + 1)) == "ACK [2@0] {find} Expression nested too deeply\n")
        // A whole line of parentheses, as deep as an 8 KiB line allows.
        #expect(parseAnswer("find \"" + String(repeating: "(", count: 8000) + "\"") == "ACK [2@0] {find} Expression nested too deeply\n")
    }

    @Test func quotedValuesStopAt4095Bytes() {
        let value = String(repeating: "x", count: 4095)
        #expect(parseAnswer("find \"(artist == '\(value)')\"") == "OK\n")
        #expect(parseAnswer("find \"(artist == '\(value)x')\"") == "ACK [2@0] {find} Quoted value is too long\n")
    }

    @Test func longMessagesAreCutAsMPDCutsThem() {
        // "Unknown filter type: %s" into mpd's 1024-byte buffer.
        let answer = parseAnswer("find \"(" + String(repeating: "a", count: 2000) + " == 'x')\"")
        #expect(answer == "ACK [2@0] {find} Unknown filter type: " + String(repeating: "a", count: 1023 - 21) + "\n")
    }
}
