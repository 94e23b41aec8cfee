import Testing
@testable import MPDProtocol

/// Lines and the ACK a real mpd 0.23.12 sent for each (Debian's, over TCP; the literal bytes),
/// for every failure that happens while the line is read and its arguments parsed.
@Suite struct ParseErrorTests {
    static let cases: [(line: String, answer: String)] = [
        // The tokenizer.
        ("ping!", "ACK [5@0] {} Invalid word character\n"), // closes
        ("ping \"a", "ACK [5@0] {} Missing closing '\"'\n"),
        ("foo \"a", "ACK [5@0] {} Missing closing '\"'\n"),
        ("ping \"a\"b", "ACK [5@0] {} Space expected after closing '\"'\n"),
        ("ping \"a\\", "ACK [5@0] {} Missing closing '\"'\n"),
        ("ping \"a\u{0}b\"", "ACK [5@0] {} Missing closing '\"'\n"),
        ("ping 'a'", "ACK [5@0] {} Invalid unquoted character\n"),
        ("ping a\"b", "ACK [5@0] {} Invalid unquoted character\n"),
        ("ping a'b", "ACK [5@0] {} Invalid unquoted character\n"),
        ("ping \"\"x", "ACK [5@0] {} Space expected after closing '\"'\n"),
        ("péng", "ACK [5@0] {} Invalid word character\n"), // closes
        ("foo", "ACK [5@0] {} unknown command \"foo\"\n"),
        ("ping_x", "ACK [5@0] {} unknown command \"ping_x\"\n"),
        ("ping9", "ACK [5@0] {} unknown command \"ping9\"\n"),
        ("command_list_end", "ACK [5@0] {} unknown command \"command_list_end\"\n"),
        // Argument counts.
        ("ping a", "ACK [2@0] {ping} wrong number of arguments for \"ping\"\n"),
        ("add", "ACK [2@0] {add} too few arguments for \"add\"\n"),
        ("add a b c", "ACK [2@0] {add} too many arguments for \"add\"\n"),
        ("move 1", "ACK [2@0] {move} wrong number of arguments for \"move\"\n"),
        ("password", "ACK [2@0] {password} wrong number of arguments for \"password\"\n"),
        ("ping \"\"", "ACK [2@0] {ping} wrong number of arguments for \"ping\"\n"),
        ("ping \"\" \"\"", "ACK [2@0] {ping} wrong number of arguments for \"ping\"\n"),
        ("ping \u{7f}", "ACK [2@0] {ping} wrong number of arguments for \"ping\"\n"),
        ("ping\tping", "ACK [2@0] {ping} wrong number of arguments for \"ping\"\n"),
        // Numbers, booleans, ranges.
        ("repeat 2", "ACK [2@0] {repeat} Boolean (0/1) expected: 2\n"),
        ("repeat \"\"", "ACK [2@0] {repeat} Boolean (0/1) expected: \n"),
        ("repeat 1x", "ACK [2@0] {repeat} Boolean (0/1) expected: 1x\n"),
        ("repeat -1", "ACK [2@0] {repeat} Boolean (0/1) expected: -1\n"),
        ("setvol 101", "ACK [2@0] {setvol} Number too large: 101\n"),
        ("setvol -1", "ACK [2@0] {setvol} Number too large: -1\n"),
        ("setvol 99999999999999999999999", "ACK [2@0] {setvol} Number too large: 99999999999999999999999\n"),
        ("volume 101", "ACK [2@0] {volume} Number too large: 101\n"),
        ("volume -101", "ACK [2@0] {volume} Number too large: -101\n"),
        ("volume x", "ACK [2@0] {volume} Integer expected: x\n"),
        ("crossfade -1", "ACK [2@0] {crossfade} Number too large: -1\n"),
        ("crossfade x", "ACK [2@0] {crossfade} Integer expected: x\n"),
        ("delete -2", "ACK [2@0] {delete} Number is negative: -2\n"),
        ("delete 5:2", "ACK [2@0] {delete} Malformed range: 5:2\n"),
        ("delete 2:x", "ACK [2@0] {delete} Integer or range expected: 2:x\n"),
        ("delete :3", "ACK [2@0] {delete} Integer or range expected: :3\n"),
        ("delete 3000000000", "ACK [2@0] {delete} Number too large: 3000000000\n"),
        ("delete 1:3000000000", "ACK [2@0] {delete} Number too large: 1:3000000000\n"),
        ("delete 1:-3", "ACK [2@0] {delete} Number is negative: 1:-3\n"),
        ("delete x", "ACK [2@0] {delete} Integer or range expected: x\n"),
        ("delete \"\"", "ACK [2@0] {delete} Integer or range expected: \n"),
        ("playlistinfo 5:2", "ACK [2@0] {playlistinfo} Malformed range: 5:2\n"),
        ("play x", "ACK [2@0] {play} Integer expected: x\n"),
        ("play 99999999999", "ACK [2@0] {play} Number too large: 99999999999\n"),
        ("play 1.5", "ACK [2@0] {play} Integer expected: 1.5\n"),
        ("deleteid x", "ACK [2@0] {deleteid} Integer expected: x\n"),
        ("deleteid -1", "ACK [2@0] {deleteid} Number too large: -1\n"),
        ("deleteid 4294967296", "ACK [2@0] {deleteid} Number too large: 4294967296\n"),
        ("plchanges x", "ACK [2@0] {plchanges} Integer expected: x\n"),
        ("swap 1 x", "ACK [2@0] {swap} Integer expected: x\n"),
        ("swap x 1", "ACK [2@0] {swap} Integer expected: x\n"),
        ("move 0:1 x", "ACK [2@0] {move} Integer expected: x\n"),
        ("move 0: 1", "ACK [2@0] {move} Open-ended range not supported\n"),
        ("move -1 1", "ACK [2@0] {move} Open-ended range not supported\n"),
        ("pause 2", "ACK [2@0] {pause} Boolean (0/1) expected: 2\n"),
        ("seek 0 -1", "ACK [2@0] {seek} Negative value not allowed: -1\n"),
        ("seek 0 x", "ACK [2@0] {seek} Float expected: x\n"),
        ("seek x 1", "ACK [2@0] {seek} Integer expected: x\n"),
        ("seek 0 1x", "ACK [2@0] {seek} Float expected: 1x\n"),
        ("seek 0 1e", "ACK [2@0] {seek} Float expected: 1e\n"),
        ("seek 0 0x", "ACK [2@0] {seek} Float expected: 0x\n"),
        ("seek 0 .", "ACK [2@0] {seek} Float expected: .\n"),
        ("seek 0 -", "ACK [2@0] {seek} Float expected: -\n"),
        ("seek 0 1e+", "ACK [2@0] {seek} Float expected: 1e+\n"),
        ("seekid 0 -0.5", "ACK [2@0] {seekid} Negative value not allowed: -0.5\n"),
        ("seekcur x", "ACK [2@0] {seekcur} Float expected: x\n"),
        ("seekcur", "ACK [2@0] {seekcur} wrong number of arguments for \"seekcur\"\n"),
        ("single 2", "ACK [2@0] {single} Unrecognized single mode, expected 0, 1, or oneshot\n"),
        ("single ONESHOT", "ACK [2@0] {single} Unrecognized single mode, expected 0, 1, or oneshot\n"),
        ("replay_gain_mode x", "ACK [2@0] {replay_gain_mode} Unrecognized replay gain mode\n"),
        ("replay_gain_mode Off", "ACK [2@0] {replay_gain_mode} Unrecognized replay gain mode\n"),
        ("binarylimit 63", "ACK [2@0] {binarylimit} Value too small\n"),
        ("binarylimit 8400897", "ACK [2@0] {binarylimit} Number too large: 8400897\n"),
        ("binarylimit x", "ACK [2@0] {binarylimit} Integer expected: x\n"),
        ("prio 256 1", "ACK [2@0] {prio} Number too large: 256\n"),
        ("prio 1 x", "ACK [2@0] {prio} Integer or range expected: x\n"),
        ("prio x 1", "ACK [2@0] {prio} Integer expected: x\n"),
        ("prioid 1 x", "ACK [2@0] {prioid} Integer expected: x\n"),
        ("prioid 1 -1", "ACK [2@0] {prioid} Number too large: -1\n"),
        ("enableoutput x", "ACK [2@0] {enableoutput} Integer expected: x\n"),
        ("disableoutput -1", "ACK [2@0] {disableoutput} Number too large: -1\n"),
        ("toggleoutput 1x", "ACK [2@0] {toggleoutput} Integer expected: 1x\n"),
        ("albumart a.mp3 x", "ACK [2@0] {albumart} Integer expected: x\n"),
        ("readpicture a.mp3 -1", "ACK [2@0] {readpicture} Number too large: -1\n"),
        ("playlistadd p a.mp3 x", "ACK [2@0] {playlistadd} Integer expected: x\n"),
        ("playlistdelete p x", "ACK [2@0] {playlistdelete} Integer or range expected: x\n"),
        ("playlistmove p 0 x", "ACK [2@0] {playlistmove} Integer expected: x\n"),
        ("playlistmove p x 0", "ACK [2@0] {playlistmove} Integer expected: x\n"),
        ("load p x", "ACK [2@0] {load} Integer or range expected: x\n"),
        ("add \"\" x", "ACK [2@0] {add} Integer expected: x\n"),
        ("findadd artist Nobody position x", "ACK [2@0] {findadd} Integer expected: x\n"),
        ("update /x/../y", "ACK [2@0] {update} Malformed path\n"),
        ("update ../x", "ACK [2@0] {update} Malformed path\n"),
        ("update x//y", "ACK [2@0] {update} Malformed path\n"),
        ("rescan .", "ACK [2@0] {rescan} Malformed path\n"),
        ("idle foo", "ACK [2@0] {idle} Unrecognized idle event: foo\n"),
        ("idle player foo", "ACK [2@0] {idle} Unrecognized idle event: foo\n"),
        ("tagtypes foo", "ACK [2@0] {tagtypes} Unknown sub command\n"),
        ("tagtypes all x", "ACK [2@0] {tagtypes} Too many arguments\n"),
        ("tagtypes clear x", "ACK [2@0] {tagtypes} Too many arguments\n"),
        ("tagtypes enable", "ACK [2@0] {tagtypes} Not enough arguments\n"),
        ("tagtypes enable foo", "ACK [2@0] {tagtypes} Unknown tag type\n"),
        ("tagtypes disable artist foo", "ACK [2@0] {tagtypes} Unknown tag type\n"),
        ("tagtypes Enable artist", "ACK [2@0] {tagtypes} Unknown sub command\n"),
    ]

    @Test(arguments: cases)
    func answersAsMPD(_ line: String, _ answer: String) {
        #expect(parseAnswer(line) == answer)
    }

    @Test func aWordWithABadCharacterClosesTheConnection() throws {
        for line in ["ping!", "p\u{E9}ng", "st-atus"] {
            #expect(throws: MPDError(.unknown, "Invalid word character", closesConnection: true)) {
                try RequestLine(Array(line.utf8)).request()
            }
        }
        #expect(throws: MPDError(.unknown, "Missing closing '\"'")) { try RequestLine(Array("ping \"a".utf8)).request() }
    }

    @Test func sixtyThreeArgumentsReachTheTableSixtyFourDoNot() {
        let args63 = String(repeating: " a", count: 63)
        let args64 = String(repeating: " a", count: 64)
        #expect(parseAnswer("ping" + args63) == "ACK [2@0] {ping} wrong number of arguments for \"ping\"\n")
        #expect(parseAnswer("ping" + args64) == "ACK [2@0] {} Too many arguments\n")
        #expect(parseAnswer("foo" + args64) == "ACK [2@0] {} Too many arguments\n")
        // The count is checked before the 65th parameter is read, so its error never shows.
        #expect(parseAnswer("ping" + args64 + " \"") == "ACK [2@0] {} Too many arguments\n")
    }

    @Test func argumentErrorsAreCutAt255BytesAsMPDsBufferCutsThem() {
        let answer = parseAnswer("repeat " + String(repeating: "x", count: 300))
        #expect(answer == "ACK [2@0] {repeat} Boolean (0/1) expected: " + String(repeating: "x", count: 255 - 24) + "\n")
        // mpd cuts inside the character and sends half of it; a Swift string drops it whole.
        let accented = parseAnswer("repeat " + String(repeating: "\u{E9}", count: 150))
        #expect(accented.utf8.count == 274)
        #expect(accented.hasSuffix("\u{E9}\n"))
    }
}
