import Testing
@testable import MPDProtocol

/// The line-level state machine: command lists, noidle, and the lines mpd closes on — as a real
/// mpd 0.23.12 behaved for each (noted per test).
@Suite struct CommandReaderTests {
    private func lines(_ batch: CommandBatch) -> [String] {
        batch.map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    @Test func aLineOutsideAListRunsAlone() {
        var reader = CommandReader()
        guard case .run(let batch) = reader.read(Array("ping  \r".utf8)) else {
            Issue.record("not run")
            return
        }
        #expect(lines(batch) == ["ping"])
        #expect(!batch.isList)
        #expect(!batch.sendsListOK)
    }

    @Test func aListRunsAtItsEnd() {
        // "command_list_ok_begin\nping\nstatus\ncommand_list_end\n" → list_OK after each, then OK.
        var reader = CommandReader()
        #expect(reader.read(Array("command_list_ok_begin".utf8)) == .gathering)
        #expect(reader.isGatheringList)
        #expect(reader.read(Array("ping".utf8)) == .gathering)
        #expect(reader.read(Array("status".utf8)) == .gathering)
        guard case .run(let batch) = reader.read(Array("command_list_end".utf8)) else {
            Issue.record("not run")
            return
        }
        #expect(lines(batch) == ["ping", "status"])
        #expect(batch.isList && batch.sendsListOK)
        #expect(!reader.isGatheringList)
    }

    @Test func theListKeywordsMayHaveTrailingWhiteSpace() {
        // "command_list_begin \nping\ncommand_list_end\t\n" → OK.
        var reader = CommandReader()
        #expect(reader.read(Array("command_list_begin ".utf8)) == .gathering)
        #expect(reader.read(Array("ping".utf8)) == .gathering)
        guard case .run(let batch) = reader.read(Array("command_list_end\t".utf8)) else {
            Issue.record("not run")
            return
        }
        #expect(batch.count == 1)
    }

    @Test func anEmptyListRunsNothing() {
        // "command_list_begin\ncommand_list_end\n" → OK.
        var reader = CommandReader()
        _ = reader.read(Array("command_list_begin".utf8))
        guard case .run(let batch) = reader.read(Array("command_list_end".utf8)) else {
            Issue.record("not run")
            return
        }
        #expect(batch.isEmpty && batch.isList)
    }

    @Test func aNestedBeginIsKeptAndFailsWhenTheListRuns() throws {
        // "command_list_begin\nping\ncommand_list_begin\nping\ncommand_list_end\n"
        //   → ACK [5@1] {} unknown command "command_list_begin"
        var reader = CommandReader()
        for line in ["command_list_begin", "ping", "command_list_begin", "ping"] {
            #expect(reader.read(Array(line.utf8)) == .gathering)
        }
        guard case .run(let batch) = reader.read(Array("command_list_end".utf8)) else {
            Issue.record("not run")
            return
        }
        #expect(batch.count == 3)
        #expect(throws: MPDError(.unknown, "unknown command \"command_list_begin\"")) {
            try MPDCommand.parse(batch[1], permissions: .all)
        }
    }

    @Test func anEndWithoutBeginIsAnUnknownCommand() {
        var reader = CommandReader()
        guard case .run(let batch) = reader.read(Array("command_list_end".utf8)) else {
            Issue.record("not run")
            return
        }
        #expect(parseAnswer(bytes: batch[0].bytes) == "ACK [5@0] {} unknown command \"command_list_end\"\n")
    }

    @Test func linesThatDoNotStartWithALowerCaseLetterClose() {
        // " ping", "", "Ping" → closed without an answer; inside a list too.
        var reader = CommandReader()
        #expect(reader.read(Array(" ping".utf8)) == .close(.notTheProtocol))
        #expect(reader.read([]) == .close(.notTheProtocol))
        #expect(reader.read(Array("Ping".utf8)) == .close(.notTheProtocol))
        #expect(reader.read(Array("GET / HTTP/1.1".utf8)) == .close(.notTheProtocol))
        _ = reader.read(Array("command_list_begin".utf8))
        #expect(reader.read(Array(" Ping".utf8)) == .close(.notTheProtocol))
    }

    @Test func noidleComesFirstEvenInsideAList() {
        // "noidle\nping\n" → OK (only ping's); "command_list_begin\nnoidle\nping\ncommand_list_end\n"
        // → OK; "idle\nnoidle\n" → OK; "idle\nping\n" → closed.
        var reader = CommandReader()
        #expect(reader.read(Array("noidle".utf8)) == .noidle)
        #expect(reader.read(Array("noidle".utf8), idling: true) == .noidle)
        #expect(reader.read(Array("ping".utf8), idling: true) == .close(.commandWhileIdle))
        reader = CommandReader()
        _ = reader.read(Array("command_list_begin".utf8))
        #expect(reader.read(Array("noidle".utf8)) == .noidle)
        _ = reader.read(Array("ping".utf8))
        guard case .run(let batch) = reader.read(Array("command_list_end".utf8)) else {
            Issue.record("not run")
            return
        }
        #expect(lines(batch) == ["ping"])
    }

    @Test func aNULEndsTheLineInsideAListToo() {
        // "command_list_begin\nping\0foo\ncommand_list_end\n" → OK.
        var reader = CommandReader()
        _ = reader.read(Array("command_list_begin".utf8))
        _ = reader.read([0x70, 0x69, 0x6E, 0x67, 0x00, 0x66, 0x6F, 0x6F])
        guard case .run(let batch) = reader.read(Array("command_list_end".utf8)) else {
            Issue.record("not run")
            return
        }
        #expect(lines(batch) == ["ping"])
    }

    @Test func aListPastItsLimitCloses() {
        // mpd counts each line plus one byte: a list of exactly the limit is fine.
        var reader = CommandReader(commandListLimit: 10)
        _ = reader.read(Array("command_list_begin".utf8))
        #expect(reader.read(Array("ping".utf8)) == .gathering)
        #expect(reader.read(Array("ping".utf8)) == .gathering)
        #expect(reader.read(Array("p".utf8)) == .close(.commandListTooLarge))
        #expect(!reader.isGatheringList)

        reader = CommandReader()
        _ = reader.read(Array("command_list_begin".utf8))
        let line = Array(repeating: UInt8(ascii: "a"), count: 8191)
        var outcome = LineOutcome.gathering
        var added = 0
        while outcome == .gathering {
            outcome = reader.read(line)
            added += 1
        }
        #expect(outcome == .close(.commandListTooLarge))
        #expect(added == 2 * 1024 * 1024 / 8192 + 1)
    }

    @Test func aLongListCostsItsBytes() {
        // A million one-letter lines: one buffer of their bytes and one offset each.
        var reader = CommandReader()
        _ = reader.read(Array("command_list_begin".utf8))
        for _ in 0..<1_000_000 { _ = reader.read([UInt8(ascii: "p")]) }
        guard case .run(let batch) = reader.read(Array("command_list_end".utf8)) else {
            Issue.record("not run")
            return
        }
        #expect(batch.count == 1_000_000)
        #expect(batch[999_999].bytes == [UInt8(ascii: "p")])
    }
}
