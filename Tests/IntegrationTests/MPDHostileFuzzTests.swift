import Foundation
import XCTest
@testable import TestSupport

/// Seeded random lines by the thousand, over TCP (the daemon's exposed side; over it no path
/// outside the library is reachable, so `add /` cannot make the run walk the disk): mixes of
/// real command names, random arguments, quotes, brackets of filters, huge numbers, control
/// bytes and invalid UTF-8. Every line gets an answer that parses (lines of `key: value`, each
/// valid UTF-8 without a control character, ending in `OK` or one `ACK`) or its connection
/// closed as mpd would; other clients are served throughout; memory and descriptors stay flat.
///
/// The seed is printed; `AUBADE_FUZZ_SEED=N` replays a run, `AUBADE_FUZZ_LINES=N` changes its
/// length. `idle`, `noidle` and command lists are left out (their answers come later or not
/// at all: MPDHostileInputTests has them), and `kill` (it stops the daemon).
final class MPDHostileFuzzTests: MPDDaemonTestCase {
    static let names = [
        "add", "addid", "albumart", "binarylimit", "clear", "close", "commands", "consume", "count", "crossfade",
        "currentsong", "decoders", "delete", "deleteid", "disableoutput", "enableoutput", "find", "findadd",
        "getvol", "list", "listall", "listallinfo", "listfiles", "listpartitions", "listplaylist", "listplaylistinfo",
        "listplaylists", "load", "lsinfo", "move", "moveid", "next", "notcommands", "outputs", "password", "pause",
        "ping", "play", "playid", "playlist", "playlistadd", "playlistclear", "playlistdelete", "playlistfind",
        "playlistid", "playlistinfo", "playlistmove", "playlistsearch", "plchanges", "plchangesposid", "previous",
        "prio", "prioid", "random", "readpicture", "rename", "repeat", "replay_gain_mode", "replay_gain_status",
        "rescan", "rm", "save", "search", "searchadd", "seek", "seekcur", "seekid", "setvol", "shuffle", "single",
        "stats", "status", "stop", "swap", "swapid", "tagtypes", "toggleoutput", "update", "urlhandlers", "volume",
        "Ping", "frobnicate", "",
    ]

    /// Pieces of arguments: what the tokenizer and the filter parser look for, and junk.
    static let pieces: [[UInt8]] = [
        "\"", "\"", "'", "\\", "(", ")", "((", "))", "!", " ", " ", "\t", "==", "!=", "=~", "contains", "AND", "artist",
        "Album", "title", "any", "file", "base", "modified-since", "AudioFormat", "prio", "sort", "window", "group",
        "0", "1", "-1", "1:", ":", "2:5", "-1:", "+1", "-0", "4294967296", "99999999999999999999999", "-9223372036854775809",
        "1e999", "nan", "inf", "0x10", "album", "album/one.mp3", "three.mp3", "..", "../..", "./", "album/../..", "//",
        "http://127.0.0.1:1/x.mp3", "file:///etc/passwd", "/etc/passwd", "x", "é", "日本", "[", "]", "{", "*", ".*",
        "clear", "all", "enable", "disable", "list", "on", "off", "oneshot", "a b", "\"a b\"", "'a b'",
    ].map { Array($0.utf8) } + [[0x00], [0x01], [0x1B], [0x7F], [0xFF], [0xC3], [0xE2, 0x82], [0x0D], [0xC0, 0xAF]]

    private static func line(_ generator: inout SeededGenerator) -> [UInt8] {
        var line = Array(names.randomElement(using: &generator)!.utf8)
        let count = Int.random(in: 0...8, using: &generator)
        for index in 0..<count {
            if index == 0 || Bool.random(using: &generator) { line.append(0x20) }
            line += pieces.randomElement(using: &generator)!
        }
        // Now and then a long argument, near mpd's 8 KiB line.
        if Int.random(in: 0..<200, using: &generator) == 0 {
            line += [0x20] + Array(repeating: UInt8(ascii: "z"), count: Int.random(in: 1000...8000, using: &generator))
        }
        return line.filter { $0 != 0x0A }
    }

    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["AUBADE_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x4D50_4446_555A
    }

    static func count(_ plain: Int) -> Int {
        if let given = ProcessInfo.processInfo.environment["AUBADE_FUZZ_LINES"].flatMap({ Int($0) }) { return given }
        return Sanitizer.isOn ? plain / 5 : plain
    }

    /// What each answer must be: lines of valid UTF-8 without control characters (binary
    /// chunks apart), the last `OK` or one `ACK [code@index] {command} message`.
    private func check(_ answer: RawMPDAnswer, for line: [UInt8], file: StaticString = #filePath, lineNumber: UInt = #line) -> Bool {
        var good = true
        for raw in answer.rawLines {
            if String(validating: raw, as: UTF8.self) == nil || raw.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
                XCTFail("answer line \(raw) to \(line)", file: file, line: lineNumber)
                good = false
            }
        }
        let lines = answer.lines
        for text in lines.dropLast() where !text.contains(": ") && text != "list_OK" {
            XCTFail("answer line \(text.debugDescription) is not key: value, to \(String(decoding: line, as: UTF8.self).debugDescription)",
                    file: file, line: lineNumber)
            good = false
        }
        if let ack = answer.ack, ack.range(of: #"^ACK \[\d+@\d+\] \{[^}]*\} "#, options: .regularExpression) == nil {
            XCTFail("malformed ACK \(ack.debugDescription)", file: file, line: lineNumber)
            good = false
        }
        return good
    }

    private func startFuzzTarget() throws -> Served {
        let music = try makeDirectory("music")
        let songs = try MPDLibraryFixtures.smallLibrary(in: music)
        return try startMPD(music: music, songs: songs, tcp: true)
    }

    func testThousandsOfRandomLinesOnOneConnection() throws {
        let served = try startFuzzTarget()
        let seed = Self.seed
        let total = Self.count(3000)
        print("MPD fuzz (one connection): seed \(seed), \(total) lines; replay with AUBADE_FUZZ_SEED=\(seed)")
        var generator = SeededGenerator(seed: seed)
        var client = try served.connectTCP()
        let bystander = try served.connect()
        _ = try client.command("status")
        let descriptors = try served.openDescriptors() - 1  // without `client`, which may be replaced
        let before = try served.residentKilobytes()
        var outcomes: [String: Int] = [:]
        var bad = 0
        let started = Date()
        for index in 0..<total {
            let line = Self.line(&generator)
            do {
                try client.send(line + [0x0A])
                let answer = try client.readAnswer(timeout: Sanitizer.scaled(10))
                if !check(answer, for: line) { bad += 1 }
                outcomes[answer.ack.map { String($0.prefix(while: { $0 != "]" })) + "]" } ?? "OK", default: 0] += 1
            } catch MPDTestError.closed, MPDTestError.system {
                // `close`, an unreadable command name, a line that is no protocol: mpd closes too.
                outcomes["closed", default: 0] += 1
                client = try served.connectTCP()
            } catch {
                XCTFail("line \(index) \(String(decoding: line, as: UTF8.self).debugDescription) (seed \(seed)): \(error)")
                bad += 1
                client = try served.connectTCP()
            }
            if index % 500 == 499 { XCTAssertTrue(try bystander.command("ping").isOK, "the bystander after line \(index)") }
            if bad > 10 { break }
        }
        let seconds = Date().timeIntervalSince(started)
        print("MPD fuzz (one connection): \(total) lines in \(String(format: "%.1f", seconds)) s: \(outcomes.sorted { $0.key < $1.key })")
        XCTAssertGreaterThan(outcomes["OK", default: 0], total / 20, "too few lines were commands that ran")
        XCTAssertGreaterThan(outcomes["ACK [2@0]", default: 0], total / 20, "too few lines were bad arguments")
        client.close()
        assertStillServes(served)
        assertDescriptorsBack(served, to: descriptors + 1)
        let after = try served.residentKilobytes()
        print("MPD fuzz (one connection): resident memory \(before) → \(after) KiB")
        if Sanitizer.judgesMemory { XCTAssertLessThan(after - before, 16 * 1024, "resident memory \(before) → \(after) KiB") }
    }

    func testThousandsOfRandomLinesPipelinedOverManyConnections() throws {
        let served = try startFuzzTarget()
        let seed = Self.seed &+ 1
        let rounds = Self.count(100)
        let connections = 10
        let batch = 5
        print("MPD fuzz (\(connections) connections): seed \(seed), \(rounds * connections * batch) lines")
        var generator = SeededGenerator(seed: seed)
        let descriptors = try served.openDescriptors()
        let before = try served.residentKilobytes()
        var clients = try (0..<connections).map { _ in try served.connectTCP() }
        var answers = 0
        var closes = 0
        for round in 0..<rounds {
            // Every connection sends its lines at once, then every one reads its answers.
            var sent: [[[UInt8]]] = []
            for client in clients {
                let lines = (0..<batch).map { _ in Self.line(&generator) }
                sent.append(lines)
                try? client.send(lines.flatMap { $0 + [0x0A] })
            }
            for (index, client) in clients.enumerated() {
                for line in sent[index] {
                    do {
                        let answer = try client.readAnswer(timeout: Sanitizer.scaled(10))
                        _ = check(answer, for: line)
                        answers += 1
                    } catch MPDTestError.closed, MPDTestError.system {
                        closes += 1
                        clients[index] = try served.connectTCP()
                        break  // the lines after the one that closed it went with it
                    } catch {
                        XCTFail("round \(round), connection \(index), \(String(decoding: line, as: UTF8.self).debugDescription) (seed \(seed)): \(error)")
                        clients[index] = try served.connectTCP()
                        break
                    }
                }
            }
        }
        print("MPD fuzz (\(connections) connections): \(answers) answers, \(closes) connections closed")
        XCTAssertGreaterThan(answers, rounds * connections * batch / 2)
        for client in clients { client.close() }
        assertStillServes(served)
        assertDescriptorsBack(served, to: descriptors)
        let after = try served.residentKilobytes()
        print("MPD fuzz (\(connections) connections): resident memory \(before) → \(after) KiB")
        if Sanitizer.judgesMemory { XCTAssertLessThan(after - before, 16 * 1024, "resident memory \(before) → \(after) KiB") }
    }
}
