import DBusKit
import Foundation
import XCTest
@testable import TestSupport

/// Issue 10, finding 6 (last item): what a client sends is repeated in the daemon's log, in the
/// CommandReceived signal (to every listener) and in error replies. A 1 MiB URI, a newline that
/// forges a log line or a terminal escape must come out capped and escaped.
final class EchoLimitTests: AubadeTestCase {
    private static let path = "/org/mpris/MediaPlayer2"
    private static let player = "org.mpris.MediaPlayer2.Player"
    /// EchoText's cap is 200 scalars per argument; a command has at most three, plus words.
    private static let commandLimit = 700
    private static let forged = "aubade: error: forged line"

    func testHugeAndControlArgumentsAreCappedInSignalLogAndReply() throws {
        let daemon = try startPlaying([fixtures.long])
        let client = try BusClient()
        let unique = try XCTUnwrap(daemon.uniqueName)
        try client.watchSignals(matching: "type='signal',sender='\(unique)',interface='org.aubade.AudioSession1',member='CommandReceived'")
        let logStart = daemon.stderrLines.count

        // A file URI of more than a megabyte, with a forged log line and terminal escapes in it.
        let hostile = "\u{1B}[31m\u{1B}]0;title\u{07}\n\(Self.forged)\n\u{202E}"
        let uri = "file:///nowhere/" + String(repeating: "a", count: 1 << 20) + hostile
        let (openOutcome, _) = try client.call(path: Self.path, interface: Self.player, member: "OpenUri", [.string(uri)],
                                               timeoutMilliseconds: 20_000)
        guard case .error(let name, let text) = openOutcome else { return XCTFail("OpenUri of nothing: \(openOutcome)") }
        XCTAssertEqual(name, DBusError.invalidArgsName)
        XCTAssertLessThanOrEqual(text.unicodeScalars.count, 1_000, "the error reply repeats the whole URI")
        assertNoControls(text, "the error reply")

        // A property write with a huge value and name: refused, but announced (capped).
        let value = String(repeating: "z", count: 1 << 20) + hostile
        let (setOutcome, _) = try client.call(path: Self.path, interface: "org.freedesktop.DBus.Properties", member: "Set",
                                              [.string(Self.player), .string("LoopStatus"), .variant(.string(value))])
        XCTAssertEqual(setOutcome.errorName, DBusError.invalidArgsName, "\(setOutcome)")
        let (seekOutcome, _) = try client.call(path: Self.path, interface: Self.player, member: "SetPosition",
                                               [.objectPath("/" + String(repeating: "p", count: 100_000)), .int64(0)])
        XCTAssertTrue(seekOutcome.isReply, "\(seekOutcome)")

        for prefix in ["OpenUri ", "Set LoopStatus ", "SetPosition "] {
            guard let signal = client.waitForSignal({ ((try? $0.arguments().first?.asString) ?? "").hasPrefix(prefix) }),
                  let command = try signal.arguments().first?.asString else {
                XCTFail("no CommandReceived \(prefix)…; got \(client.signals.compactMap { try? $0.arguments().first?.asString?.prefix(40) })")
                continue
            }
            XCTAssertLessThanOrEqual(command.unicodeScalars.count, Self.commandLimit, "CommandReceived \(prefix)…")
            XCTAssertTrue(command.contains("…"), "a cut argument ends in an ellipsis: \(command.prefix(80))")
            assertNoControls(command, "CommandReceived \(prefix)…")
        }

        // The daemon logged the failed OpenUri: one capped line, nothing forged.
        XCTAssertNotNil(daemon.waitForLog(containing: "file:///nowhere/", from: logStart), "the failed OpenUri is logged")
        let lines = Array(daemon.stderrLines.dropFirst(logStart))
        for line in lines {
            XCTAssertLessThanOrEqual(line.unicodeScalars.count, 1_000, "log line: \(line.prefix(120))…")
            assertNoControls(line, "log line \(line.prefix(60))")
            XCTAssertFalse(line.hasPrefix(Self.forged), "a newline from the bus forged a log line: \(line)")
        }
        assertStillAnswers()
    }

    private func assertNoControls(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let controls = text.unicodeScalars.filter { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E }
        XCTAssertEqual(controls.map { String($0.value, radix: 16) }, [], "raw control characters in \(what)",
                       file: file, line: line)
    }
}
