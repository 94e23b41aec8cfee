import Foundation
import XCTest
@testable import TestSupport

/// `aubade snapcast-control` as snapserver runs it, fed hostile lines: each gets its JSON-RPC
/// error (or, when it is no request, nothing), nothing reaches the player, the script goes on
/// answering, and its memory stays bounded whatever arrives.
final class SnapcastControlScriptTests: SnapcastTestCase {
    private var script: ControlScriptProcess?

    override func tearDown() {
        script?.stop()
        script = nil
        super.tearDown()
    }

    func testBadInputGetsJSONRPCErrorsAndChangesNothing() throws {
        try startAubade([try SnapcastMusic.shared().noise])
        try waitForStatus("Playing")
        let track = try trackID()
        let script = try ControlScriptProcess()
        self.script = script
        XCTAssertNotNil(script.waitForObject(from: 0) { $0["method"] as? String == "Plugin.Stream.Ready" }, "no Plugin.Stream.Ready")
        let baseline = try XCTUnwrap(script.peakMemoryKilobytes)

        func expectError(_ line: String, code: Int, id: Any?, _ what: String, file: StaticString = #filePath, line number: UInt = #line) throws {
            let mark = script.output.lines.count
            try script.send(line + "\n")
            let answer = script.waitForObject(from: mark) { $0["error"] != nil }?.object
            let error = answer?["error"] as? [String: Any]
            XCTAssertEqual(error?["code"] as? Int, code, "\(what): \(answer.map(String.init(describing:)) ?? "no answer")",
                           file: file, line: number)
            if let id = id as? Int {
                XCTAssertEqual(answer?["id"] as? Int, id, what, file: file, line: number)
            } else {
                XCTAssertTrue(answer?["id"] is NSNull, "\(what): id \(String(describing: answer?["id"]))", file: file, line: number)
            }
        }

        try expectError("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":", code: -32700, id: nil, "malformed JSON")
        try expectError("\u{1}\u{2}garbage", code: -32700, id: nil, "binary junk")
        try expectError(String(repeating: "[", count: 30_000) + String(repeating: "]", count: 30_000), code: -32700, id: nil,
                        "nesting 30 000 deep")
        try expectError("[1,2,3]", code: -32600, id: nil, "not an object")
        try expectError(#"{"jsonrpc":"2.0","id":2,"method":"Plugin.Stream.Player.Explode"}"#, code: -32601, id: 2, "unknown method")
        try expectError(#"{"jsonrpc":"2.0","id":3,"method":"Plugin.Stream.Player.Control","params":{"command":"selfDestruct"}}"#,
                        code: -32602, id: 3, "unknown command")
        try expectError(#"{"jsonrpc":"2.0","id":4,"method":"Plugin.Stream.Player.Control","params":{"command":"seek","params":{"offset":1e308}}}"#,
                        code: -32602, id: 4, "an absurd seek")
        try expectError(#"{"jsonrpc":"2.0","id":5,"method":"Plugin.Stream.Player.SetProperty","params":{"volume":-3}}"#,
                        code: -32602, id: 5, "volume out of range")
        try expectError(#"{"jsonrpc":"2.0","id":6,"method":"Plugin.Stream.Player.SetProperty","params":{"loopStatus":"forever"}}"#,
                        code: -32602, id: 6, "a loop status that does not exist")
        try expectError(#"{"id":7,"method":"Plugin.Stream.Player.Control","params":{"command":"pause"}}"#,
                        code: -32600, id: 7, "no jsonrpc 2.0")
        // A huge line: 8 MiB with no newline, then one; answered once, never held in memory.
        let mark = script.output.lines.count
        let chunk = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
        for _ in 0..<8 { try script.send(chunk) }
        try script.send("\n")
        let huge = script.waitForObject(from: mark) { $0["error"] != nil }?.object
        XCTAssertEqual((huge?["error"] as? [String: Any])?["code"] as? Int, -32600, "the huge line: \(String(describing: huge))")
        // Responses and notifications get no answer; the next request gets its own at once.
        let quietMark = script.output.lines.count
        try script.send(#"{"jsonrpc":"2.0","id":90,"result":"ok"}"# + "\n")
        try script.send(#"{"jsonrpc":"2.0","method":"Plugin.Stream.Player.Control","params":{"command":"pause"}}"# + "\n")
        try script.send(#"{"jsonrpc":"2.0","id":8,"method":"Plugin.Stream.Player.GetProperties"}"# + "\n")
        let properties = try XCTUnwrap(script.waitForAnswer(id: 8, from: quietMark), "no answer to GetProperties after the junk")
        let result = try XCTUnwrap(properties["result"] as? [String: Any])
        XCTAssertEqual(result["playbackStatus"] as? String, "playing")
        XCTAssertEqual((result["metadata"] as? [String: Any])?["title"] as? String, "House Noise")
        let between = script.output.lines[quietMark...].filter { !$0.contains("Plugin.Stream.Player.Properties") }
        XCTAssertEqual(between.count, 1, "answers to lines that are no requests: \(between)")

        // Nothing reached the player.
        XCTAssertEqual(try playbackStatus(), "Playing")
        XCTAssertEqual(try trackID(), track)
        XCTAssertEqual(try playerProperty("Volume").double, 1.0)
        XCTAssertEqual(try playerProperty("LoopStatus").string, "None")
        XCTAssertEqual(try playerProperty("Shuffle").bool, false)
        XCTAssertTrue(script.isRunning, "the control script exited: \(script.errors.text)")
        let peak = try XCTUnwrap(script.peakMemoryKilobytes)
        print("control script memory: \(baseline) kB before the junk, \(peak) kB peak after 8 MiB of it")
        // Under AddressSanitizer every freed block waits in its quarantine (256 MB by default):
        // resident memory grows with what is read and freed, bounded or not.
        if ProcessInfo.processInfo.environment["AUBADE_SANITIZER"] != "address" {
            XCTAssertLessThan(peak - baseline, 8 * 1024, "the control script's memory grew with the junk")
        }
    }

    func testAValidRequestStillWorksAfterTheJunkAndAnswersCarryItsID() throws {
        try startAubade([try SnapcastMusic.shared().noise, try SnapcastMusic.shared().noise2])
        try waitForStatus("Playing")
        let script = try ControlScriptProcess()
        self.script = script
        _ = script.waitForObject(from: 0) { $0["method"] as? String == "Plugin.Stream.Ready" }
        try script.send("{{{{\n")
        let mark = script.output.lines.count
        try script.send(#"{"jsonrpc":"2.0","id":"next-1","method":"Plugin.Stream.Player.Control","params":{"command":"next"}}"# + "\n")
        let answer = script.waitForObject(from: mark) { $0["id"] as? String == "next-1" }?.object
        XCTAssertEqual(answer?["result"] as? String, "ok", "\(String(describing: answer))")
        try waitForTitle("Second Noise")
        // The change is pushed, not polled.
        XCTAssertNotNil(script.waitForObject(from: mark) {
            $0["method"] as? String == "Plugin.Stream.Player.Properties"
                && (($0["params"] as? [String: Any])?["metadata"] as? [String: Any])?["title"] as? String == "Second Noise"
        }, "no Plugin.Stream.Player.Properties with the new title")
    }

    /// A request and the end of input in one read: answered, acted on, and the script exits.
    /// It read one chunk per readiness event and never saw the end: it hung, never exiting.
    func testARequestThatArrivesWithTheEndOfInputIsAnsweredAndTheScriptExits() throws {
        try startAubade([try SnapcastMusic.shared().noise])
        try waitForStatus("Playing")
        let request = #"{"jsonrpc":"2.0","id":9,"method":"Plugin.Stream.Player.Control","params":{"command":"pause"}}"# + "\n"
        let script = try ControlScriptProcess(everything: Data(request.utf8))
        self.script = script
        XCTAssertEqual(script.waitForExit(timeout: 10), 0, "the script still runs after the end of its input")
        XCTAssertEqual(script.waitForAnswer(id: 9, from: 0, timeout: 1)?["result"] as? String, "ok",
                       "its output: \(script.output.lines)")
        try waitForStatus("Paused")
    }
}
