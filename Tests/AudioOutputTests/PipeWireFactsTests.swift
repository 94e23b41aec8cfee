import Foundation
import XCTest
import AudioOutput
import PlayerCore
@testable import TestSupport

/// The unplug and phone-stream facts on PipeWire (pipewire-pulse), the sound server of current
/// desktops. Runs in make test's pipewire phase (AUBADE_SOUND_SERVER=pipewire), on the server
/// PULSE_SERVER names or else on a PipeWire session of its own; skipped otherwise. It unloads
/// and reloads the `headphones` sink, leaving it as it found it (the default sink again).
final class PipeWireFactsTests: XCTestCase {
    private var server: PulseServer!
    private let a = EntryID(1)

    /// This process's own PipeWire session (scripts/audio-session --print-env, running `cat` on
    /// a pipe this process holds, so it ends with the process), when none is given.
    private static let session: Result<Void, any Error> = Result {
        guard ProcessInfo.processInfo.environment["PULSE_SERVER"] == nil else { return }
        let script = Repository.file("scripts/audio-session").path
        let process = Process(), stdin = Pipe(), stdout = Pipe()
        _ = fcntl(stdin.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        process.executableURL = URL(fileURLWithPath: script)
        process.arguments = ["--server", "pipewire", "--print-env", "--", "cat"]
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        keptStdin = stdin.fileHandleForWriting
        keptProcess = process
        // The session ends with this process, and is waited for: nothing of it outlives it.
        atexit {
            try? PipeWireFactsTests.keptStdin?.close()
            PipeWireFactsTests.keptProcess?.waitUntilExit()
        }
        var text = ""
        while !text.contains("AUBADE_SESSION_READY\n") {
            let chunk = stdout.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw CocoaError(.fileReadUnknown) }
            text += String(decoding: chunk, as: UTF8.self)
        }
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            setenv(String(line[..<equals]), String(line[line.index(after: equals)...]), 1)
        }
    }
    nonisolated(unsafe) private static var keptStdin: FileHandle?
    nonisolated(unsafe) private static var keptProcess: Process?

    override func setUpWithError() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["AUBADE_SOUND_SERVER"] == "pipewire",
                          "the pipewire phase of make test runs these (AUBADE_SOUND_SERVER=pipewire)")
        try Self.session.get()
        let server = try PulseServer()
        try XCTSkipUnless(server.isExternal, "needs PULSE_SERVER pointing at pipewire-pulse")
        let info = try server.pactl("info")
        try XCTSkipUnless(info.contains("PipeWire"), "the server at PULSE_SERVER is not PipeWire")
        try XCTSkipUnless(try server.moduleIndex(ofSink: "headphones") != nil, "no headphones null sink")
        self.server = server
    }

    private func playing(_ log: EventLog) throws -> PulseAudioOutput {
        let output = PulseAudioOutput(identity: StreamIdentity(applicationName: "AubadeTest", applicationID: "org.aubade.Test"),
                                      soundServerEvents: { log.append($0) }) { log.append($0) }
        addTeardownBlock { output.shutdown() }
        try output.connect()
        output.play(sineSource(seconds: 30), entry: a, title: "Sine", artist: nil, playing: true)
        XCTAssertNotNil(log.wait(for: .started(a)))
        XCTAssertNotNil(log.waitForFacts { $0.ourSinkName == "headphones" }, "\(log.facts)")
        return output
    }

    func testUnloadingOurSinkReportsTheMove() throws {
        let log = EventLog()
        let output = try playing(log)
        let module = try XCTUnwrap(try server.moduleIndex(ofSink: "headphones"))
        addTeardownBlock { [server] in
            // Put the device back for the tests after this one.
            _ = try? server?.pactl("load-module", "module-null-sink", "sink_name=headphones",
                                   "sink_properties=\"device.form_factor=headphone device.description=Headphones\"")
            _ = try? server?.pactl("set-default-sink", "headphones")
            _ = eventually(timeout: 3) { (try? server?.pactl("get-default-sink"))??.hasPrefix("headphones") == true }
        }
        let issued = ContinuousClock.now
        try server.pactl("unload-module", module)
        let returned = ContinuousClock.now
        let hit = try XCTUnwrap(log.waitForFacts(since: issued) {
            $0.ourSinkName == "speakers" && $0.sink(named: "headphones") == nil
        }, "\(log.facts)")
        print(String(format: "PipeWire unload → facts: %.1f ms after pactl returned (%.1f ms after it started)",
                     (hit.time - returned).seconds * 1000, (hit.time - issued).seconds * 1000))
        // The stream's own sink name follows the facts by a moment on PipeWire (it moves us last).
        XCTAssertTrue(eventually(timeout: 2) { output.sinkName == "speakers" }, "sinkName \(output.sinkName ?? "nil")")
    }

    /// PipeWire has no role-cork: the phone stream is counted, but no cork request comes.
    func testPhoneStreamIsCountedWithoutCorkRequest() throws {
        let log = EventLog()
        _ = try playing(log)
        let wav = FileManager.default.temporaryDirectory
            .appendingPathComponent("aubade-call-\(getpid()).wav").path
        defer { unlink(wav) }
        _ = try Subprocess.run("/usr/bin/sox", ["-n", "-r", "44100", "-c", "2", wav, "synth", "0.5", "sine", "300",
                                                "gain", "-20"])
        let issued = ContinuousClock.now
        let call = try Subprocess("/usr/bin/paplay", ["--property=media.role=phone", wav], captureOutput: false)
        let counted = try XCTUnwrap(log.waitForFacts(since: issued) { $0.phoneStreamCount == 1 }, "\(log.facts)")
        print(String(format: "PipeWire phone stream: facts %.1f ms after paplay started",
                     (counted.time - issued).seconds * 1000))
        _ = call.finish()
        XCTAssertNotNil(log.waitForFacts(since: counted.time) { $0.phoneStreamCount == 0 }, "\(log.facts)")
        XCTAssertFalse(log.events.contains(.corkRequested), "\(log.events)")
    }
}
