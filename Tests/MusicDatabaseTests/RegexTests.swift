import Foundation
import Testing
@testable import MusicDatabase

/// The regular expressions of `=~` filters: PCRE's meaning on bytes, linear time, refusals.
@Suite struct RegexTests {
    func matches(_ pattern: String, _ value: String, caseless: Bool = false) throws -> Bool {
        try RegexProgram(pattern: pattern, caseless: caseless).matches(Array(value.utf8))
    }

    @Test func theSubsetClientsSend() throws {
        #expect(try matches("^T[0-9]", "T1"))
        #expect(try !matches("^T[0-9]", "xT1"))
        #expect(try matches("d[12]t", "dup d1t2 b"))
        #expect(try matches("a.c", "a\nc"))  // DOTALL, as mpd compiles
        #expect(try matches("colou?r", "color") && matches("colou?r", "colour"))
        #expect(try matches("^(ab)+$", "ababab") && !matches("^(ab)+$", "ababa"))
        #expect(try matches("^a{2,3}$", "aaa") && !matches("^a{2,3}$", "aaaa") && matches("^a{2}$", "aa"))
        #expect(try matches("^a{2,}$", "aaaaa") && !matches("^a{2,}$", "a"))
        #expect(try matches("cat|dog", "hotdog") && !matches("^(cat|dog)$", "hotdog"))
        #expect(try matches("[^a-z]", "abc1") && !matches("^[^a-z]+$", "abc"))
        #expect(try matches("\\d\\s\\w", "x 1 a") && matches("\\bword\\b", "a word.") && !matches("\\bword\\b", "swordfish"))
        #expect(try matches("a\\.b", "a.b") && !matches("a\\.b", "axb"))
        #expect(try matches("end$", "the end\n") && !matches("end\\z", "the end\n"))
        #expect(try matches("[[:upper:]][[:digit:]]", "xA1") && matches("\\x41", "A") && matches("a{", "a{"))
        #expect(try matches("(?i)beatles", "The BEATLES") && matches("BEATLES", "the beatles", caseless: true))
        #expect(try matches("^.*?x", "aax") && matches("[]a]", "]") && matches("[a-]", "-"))
        #expect(try matches("\\Qa.b\\E", "a.b") && !matches("\\Qa.b\\E", "axb"))
        #expect(try matches("", "anything") && matches("x*", ""))
    }

    @Test func bytesAsPCREWithoutUTF() throws {
        // "é" is two bytes: `.` takes one, a class holds bytes, caseless folds ASCII only.
        #expect(try matches("^caf..$", "café") && !matches("^caf.$", "café"))
        #expect(try matches("É", "É") && !matches("É", "é", caseless: true))
    }

    @Test func refusesWhatIsNotLinearOrMalformed() {
        for pattern in ["(a)\\1", "a(?=b)", "a(?!b)", "(?<=a)b", "(?>a)", "a*+", "(", "a)", "[a", "*a", "a{1001}",
                        "a{3,2}", "\\", "\\q", String(repeating: "a", count: 1025), "((a{1000}){1000})"] {
            #expect(throws: RegexError.self, "\(pattern.prefix(40))") { try RegexProgram(pattern: pattern, caseless: false) }
        }
        let filter = SongFilter.tag(.kind(.title), StringMatch("(a)\\1", isRegex: true))
        #expect(throws: SongFilterError.self) { try filter.validate() }
        #expect((try? filter.validate()) == nil)
        do {
            try SongFilter.and([.base(""), .tag(.any, StringMatch("a(", isRegex: true))]).validate()
            Issue.record("a bad pattern passed")
        } catch {
            #expect(error.description.hasPrefix("Error in regex at offset"))
        }
    }

    @Test func pathologicalPatternsStayLinear() throws {
        // Exponential for a backtracking engine; here (value length + 1) × program steps. The
        // value is as long as the library keeps one (`LibraryBuilder.maximumValueBytes`).
        let value = Array(String(repeating: "a", count: LibraryBuilder.maximumValueBytes).utf8)
        for pattern in ["(a*)*b", "(a|a)*b", "(a|aa)*$b", "^(a+)+$x", "(.*a){20}b"] {
            let program = try RegexProgram(pattern: pattern, caseless: false)
            var matcher = RegexMatcher(program)
            let start = Date()
            #expect(!value.withUnsafeBufferPointer { matcher.matches($0) })
            // The bound that makes it linear, counted rather than timed (a debug build under
            // parallel tests is slow and uneven; optimised, each takes milliseconds).
            #expect(matcher.steps <= (value.count + 1) * program.instructions.count, "\(pattern)")
            #expect(Date().timeIntervalSince(start) < 30, "\(pattern)")
        }
    }
}
