import Foundation
import XCTest
import AudioOutput
import PlayerCore
@testable import TestSupport

/// `soundServerChanged`, `corkRequested` and `uncorkRequested` against a real PulseAudio.
/// Each test unloads, moves or adds devices, so each gets a private server of its own (even
/// when `PULSE_SERVER` points at a shared one).
final class SoundServerFactsTests: XCTestCase {
    private var server: PulseServer!
    private let a = EntryID(1)

    override func setUpWithError() throws {
        let server = try PulseServer(alwaysPrivate: true)
        self.server = server
        try server.start()
    }

    override func tearDown() {
        server?.stop()
        server?.removeFiles()
        server = nil
        super.tearDown()
    }

    private func makeOutput(_ log: EventLog) throws -> PulseAudioOutput {
        let output = PulseAudioOutput(identity: StreamIdentity(applicationName: "AubadeTest", applicationID: "org.aubade.Test"),
                                      soundServerEvents: { log.append($0) }) { log.append($0) }
        // Teardown blocks run before tearDown(): the output goes before its server.
        addTeardownBlock { output.shutdown() }
        try output.connect()
        return output
    }

    /// Connects and plays a long sine on the default sink (`headphones`).
    private func playing(_ log: EventLog) throws -> PulseAudioOutput {
        let output = try makeOutput(log)
        output.play(sineSource(seconds: 30), entry: a, title: "Sine", artist: nil, playing: true)
        XCTAssertNotNil(log.wait(for: .started(a)))
        XCTAssertNotNil(log.waitForFacts { $0.ourSinkName == "headphones" }, "\(log.facts)")
        return output
    }

    func testFactsAfterConnectDescribeTheSinksThenFollowOurStream() throws {
        let log = EventLog()
        let output = try makeOutput(log)
        // Reported without any stream too.
        let first = try XCTUnwrap(log.waitForFacts { _ in true }).facts
        XCTAssertNil(first.ourSinkName)
        XCTAssertEqual(first.defaultSinkName, "headphones")
        // Described by the adapter: form factor headphone → headphones, speaker → builtInSpeaker.
        XCTAssertEqual(first.sink(named: "headphones")?.portType, .headphones)
        XCTAssertEqual(first.sink(named: "speakers")?.portType, .builtInSpeaker)
        XCTAssertEqual(first.sinks.count, 2, "\(first.sinks)")
        XCTAssertEqual(first.phoneStreamCount, 0)
        XCTAssertEqual(output.soundServerFacts, first)
        XCTAssertNil(output.sinkName)

        output.play(sineSource(seconds: 30), entry: a, title: "Sine", artist: nil, playing: true)
        XCTAssertNotNil(log.wait(for: .started(a)))
        let playing = try XCTUnwrap(log.waitForFacts { $0.ourSinkName != nil }).facts
        XCTAssertEqual(playing.ourSinkName, "headphones")
        XCTAssertEqual(output.sinkName, "headphones")

        // Pausing, retitling and volume changes are sink-input events too, but change no fact.
        output.pause()
        output.setVolume(0.5)
        output.resume()
        usleep(200_000)
        let facts = log.facts
        XCTAssertTrue(zip(facts, facts.dropFirst()).allSatisfy { $0 != $1 }, "repeated facts: \(facts)")
        XCTAssertEqual(facts.count, 2, "\(facts)")

        let stopped = ContinuousClock.now
        output.stop()
        let after = try XCTUnwrap(log.waitForFacts(since: stopped) { _ in true }, "\(log.facts)").facts
        XCTAssertEqual(after, first, "without a stream, the facts are those before playing")
    }

    func testUnloadingOurSinkReportsTheMoveToTheRemainingSink() throws {
        let log = EventLog()
        let output = try playing(log)
        let module = try XCTUnwrap(try server.moduleIndex(ofSink: "headphones"))
        let before = log.facts.count
        let issued = ContinuousClock.now
        try server.pactl("unload-module", module)
        let returned = ContinuousClock.now
        let hit = try XCTUnwrap(log.waitForFacts(since: issued) {
            $0.ourSinkName == "speakers" && $0.sink(named: "headphones") == nil
        }, "\(log.facts)")
        print(String(format: "unload → facts: %.1f ms after pactl returned (%.1f ms after it started); ",
                     (hit.time - returned).seconds * 1000, (hit.time - issued).seconds * 1000)
              + "reports in between: \(log.facts.count - before - 1)")
        XCTAssertEqual(hit.facts.defaultSinkName, "speakers")
        XCTAssertEqual(output.sinkName, "speakers")
        // Nothing half-done was reported first (e.g. moved, but the old sink still listed).
        XCTAssertEqual(Array(log.facts.dropFirst(before)), [hit.facts])
    }

    func testMovingOurStreamIsReported() throws {
        let log = EventLog()
        let output = try playing(log)
        let index = try XCTUnwrap(output.streamIndex)
        let issued = ContinuousClock.now
        try server.pactl("move-sink-input", "\(index)", "speakers")
        let hit = try XCTUnwrap(log.waitForFacts(since: issued) { $0.ourSinkName == "speakers" }, "\(log.facts)")
        XCTAssertNotNil(hit.facts.sink(named: "headphones"))
        XCTAssertEqual(hit.facts.defaultSinkName, "headphones")
        XCTAssertEqual(output.sinkName, "speakers")
    }

    func testNewSinkIsReported() throws {
        let log = EventLog()
        _ = try playing(log)
        let issued = ContinuousClock.now
        try server.pactl("load-module", "module-null-sink", "sink_name=usb",
                         "sink_properties=\"device.bus=usb device.form_factor=headset device.description=USB\"")
        let hit = try XCTUnwrap(log.waitForFacts(since: issued) { $0.sink(named: "usb") != nil }, "\(log.facts)")
        let usb = try XCTUnwrap(hit.facts.sink(named: "usb"))
        XCTAssertEqual(usb.bus, "usb")
        XCTAssertEqual(usb.portType, .headset)
        XCTAssertEqual(usb.description, "USB")
        XCTAssertEqual(hit.facts.ourSinkName, "headphones")
        XCTAssertEqual(hit.facts.sinks.count, 3)
    }

    /// A `media.role=phone` stream: counted in the facts, and `module-role-cork` asks us to cork.
    /// Once we have corked (the core's pause) and the call ends, the uncork request follows.
    func testPhoneStreamIsCountedAndRoleCorkRequestsCorkThenUncork() throws {
        let log = EventLog()
        let output = try playing(log)
        let wav = server.directory.appendingPathComponent("call.wav").path
        _ = try Subprocess.run("/usr/bin/sox", ["-n", "-r", "44100", "-c", "2", wav, "synth", "1", "sine", "300",
                                                "gain", "-20"])
        let issued = ContinuousClock.now
        let call = try Subprocess("/usr/bin/paplay", ["--property=media.role=phone", wav], captureOutput: false)
        let counted = try XCTUnwrap(log.waitForFacts(since: issued) { $0.phoneStreamCount == 1 }, "\(log.facts)")
        let corkRequest = try XCTUnwrap(log.wait(for: .corkRequested))
        print(String(format: "phone stream: facts %.1f ms, request-cork %.1f ms after paplay started",
                     (counted.time - issued).seconds * 1000, (corkRequest - issued).seconds * 1000))
        XCTAssertEqual(counted.facts.ourSinkName, "headphones")
        XCTAssertFalse(log.events.contains(.uncorkRequested))
        let index = try XCTUnwrap(output.streamIndex)
        XCTAssertTrue(try server.sinkInput(index)?.contains("Mute: yes") == true, "role-cork mutes us at once")

        output.pause()  // what the core does; the server uncorks only a client that corked
        _ = call.finish()
        let ended = ContinuousClock.now
        XCTAssertNotNil(log.waitForFacts(since: counted.time) { $0.phoneStreamCount == 0 }, "\(log.facts)")
        let uncorkRequest = try XCTUnwrap(log.wait(for: .uncorkRequested))
        print(String(format: "phone stream ended: request-uncork %.1f ms after paplay exited",
                     (uncorkRequest - ended).seconds * 1000))
        XCTAssertEqual(log.events.filter { $0 == .corkRequested }.count, 1)
        // role-cork muted us when the call began and unmutes us when it ends, so a resume is
        // audible again.
        XCTAssertTrue(try eventually { try server.sinkInput(index)?.contains("Mute: no") == true },
                      (try? server.sinkInput(index)) ?? "no sink input")
    }

    /// Without a cork of our own, the server never sends request-uncork (the facts still say
    /// the call ended).
    func testNoUncorkRequestWhenWeDidNotCork() throws {
        let log = EventLog()
        _ = try playing(log)
        let wav = server.directory.appendingPathComponent("call.wav").path
        _ = try Subprocess.run("/usr/bin/sox", ["-n", "-r", "44100", "-c", "2", wav, "synth", "0.3", "sine", "300",
                                                "gain", "-20"])
        let issued = ContinuousClock.now
        _ = try Subprocess("/usr/bin/paplay", ["--property=media.role=phone", wav], captureOutput: false).finish()
        XCTAssertNotNil(log.wait(for: .corkRequested))
        let counted = try XCTUnwrap(log.waitForFacts(since: issued) { $0.phoneStreamCount == 1 })
        XCTAssertNotNil(log.waitForFacts(since: counted.time) { $0.phoneStreamCount == 0 })
        usleep(200_000)
        XCTAssertFalse(log.events.contains(.uncorkRequested), "\(log.events)")
    }
}
