import Foundation
import XCTest
@testable import AudioOutput
import PlayerCore
import PulseKit

/// The card facts (`cardName`, the card's profiles, whether it records) from fabricated server
/// replies: a headless server has null sinks only, which have no card, and real Bluetooth
/// cannot be produced here.
final class CardMappingTests: XCTestCase {
    // A headset in the call profile: card 7 with its microphone (source 3) and the monitor of
    // its sink (source 4); a sound card 1 with a microphone (source 5); a null sink's monitor
    // (source 6, no card).
    private let sources = [
        SourceInfo(index: 3, name: "bluez_source.00_11_22_33_44_55.headset_head_unit", cardIndex: 7),
        SourceInfo(index: 4, name: "bluez_sink.00_11_22_33_44_55.headset_head_unit.monitor", cardIndex: 7,
                   monitorOfSinkIndex: 2),
        SourceInfo(index: 5, name: "alsa_input.pci-0000_00_1f.3.analog-stereo", cardIndex: 1),
        SourceInfo(index: 6, name: "headphones.monitor", monitorOfSinkIndex: 0),
    ]

    func testNoCaptureStreamsMeansNoCardInCapture() {
        XCTAssertEqual(SoundServerObserver.cardsInCapture(sources: sources, sourceOutputs: []), [])
    }

    func testACaptureStreamMarksTheCardOfItsSource() {
        let call = SourceOutputInfo(index: 20, sourceIndex: 3, properties: ["media.role": "phone"])
        let dictation = SourceOutputInfo(index: 21, sourceIndex: 5)
        XCTAssertEqual(SoundServerObserver.cardsInCapture(sources: sources, sourceOutputs: [call]), [7])
        XCTAssertEqual(SoundServerObserver.cardsInCapture(sources: sources, sourceOutputs: [dictation]), [1])
        XCTAssertEqual(SoundServerObserver.cardsInCapture(sources: sources, sourceOutputs: [call, dictation]), [1, 7])
        // A call that corked its microphone stream still holds the card.
        let corked = SourceOutputInfo(index: 22, sourceIndex: 3, isCorked: true)
        XCTAssertEqual(SoundServerObserver.cardsInCapture(sources: sources, sourceOutputs: [corked]), [7])
    }

    func testMonitorsCardlessAndUnknownSourcesDoNotCount() {
        let meter = SourceOutputInfo(index: 30, sourceIndex: 4)      // the headset sink's monitor
        let recorder = SourceOutputInfo(index: 31, sourceIndex: 6)   // a null sink's monitor
        let orphan = SourceOutputInfo(index: 32, sourceIndex: 99)    // source gone meanwhile
        XCTAssertEqual(SoundServerObserver.cardsInCapture(sources: sources, sourceOutputs: [meter, recorder, orphan]), [])
    }

    func testAvailableProfileNamesKeepTheServerOrderAndSkipUnavailableOnes() {
        let card = CardInfo(index: 7, name: "bluez_card.00_11_22_33_44_55", activeProfileName: "headset_head_unit",
                            profiles: [.init(name: "a2dp_sink"), .init(name: "headset_head_unit"),
                                       .init(name: "handsfree_head_unit", isAvailable: false), .init(name: "off")])
        XCTAssertEqual(card.availableProfileNames, ["a2dp_sink", "headset_head_unit", "off"])
    }
}

/// Card facts and `switchCardProfile` against a real PulseAudio (a private one unless
/// PULSE_SERVER is set), whose sinks have no cards.
final class CardProfileOutputTests: XCTestCase {
    nonisolated(unsafe) static var server: PulseServer?

    override class func setUp() {
        super.setUp()
        do {
            let server = try PulseServer()
            try server.start()
            self.server = server
        } catch {
            print("could not start pulseaudio: \(error)")
        }
    }

    override class func tearDown() {
        server?.stop()
        server?.removeFiles()
        server = nil
        super.tearDown()
    }

    private var server: PulseServer { get throws { try XCTUnwrap(Self.server) } }
    private let a = EntryID(1)

    private func makeOutput(_ log: EventLog) -> PulseAudioOutput {
        let output = PulseAudioOutput(identity: StreamIdentity(applicationName: "AubadeTest", applicationID: "org.aubade.Test"),
                                      soundServerEvents: { log.append($0) }) { log.append($0) }
        addTeardownBlock { output.shutdown() }
        return output
    }

    func testSinksWithoutACardHaveNoCardFacts() throws {
        _ = try server
        let log = EventLog()
        try makeOutput(log).connect()
        let facts = try XCTUnwrap(log.waitForFacts { _ in true }).facts
        XCTAssertFalse(facts.sinks.isEmpty)
        // Null sinks (our private server) have no card; on a shared server only check those.
        for sink in facts.sinks where sink.bluetooth == nil && sink.bus == nil {
            XCTAssertNil(sink.cardName, "\(sink)")
            XCTAssertNil(sink.bluetooth, "\(sink)")
        }
    }

    /// The PulseKit requests underneath: the source list (a null sink's monitor: no card,
    /// monitors its sink) and the server's refusal of a profile switch for an unknown card.
    func testSourceListAndRefusedProfileSwitch() throws {
        _ = try server
        let mainloop = try ThreadedMainloop()
        let context = try Context(mainloop: mainloop, name: "aubade-card-test")
        try mainloop.start(threadName: "card-test-pulse")
        defer {
            mainloop.withLock {
                context.onStateChange = nil
                context.disconnect()
            }
            mainloop.stop()
        }
        let (sinks, sources, switched) = try mainloop.withLock { () throws -> ([SinkInfo]?, [SourceInfo]?, Bool?) in
            context.onStateChange = { [mainloop] in mainloop.signal() }
            try context.connect()
            while context.state != .ready {
                if context.state.isFinal { throw context.lastError("pa_context_connect") }
                mainloop.wait()
            }
            var sinks: [SinkInfo]??, sources: [SourceInfo]??, switched: Bool?
            try context.sinks { sinks = .some($0); mainloop.signal() }
            try context.sources { sources = .some($0); mainloop.signal() }
            try context.setCardProfile(card: "nonexistent", profile: "a2dp_sink") { switched = $0; mainloop.signal() }
            while sinks == nil || sources == nil || switched == nil { mainloop.wait() }
            return (sinks ?? nil, sources ?? nil, switched)
        }
        XCTAssertEqual(switched, false)
        let sink = try XCTUnwrap(sinks?.first { $0.cardIndex == nil }, "\(String(describing: sinks))")
        let monitor = try XCTUnwrap(sources?.first { $0.name == "\(sink.name).monitor" }, "\(String(describing: sources))")
        XCTAssertEqual(monitor.monitorOfSinkIndex, sink.index)
        XCTAssertNil(monitor.cardIndex)
    }

    func testSwitchingAnUnknownCardChangesNothingAndKeepsPlaying() throws {
        let server = try server
        let log = EventLog()
        let output = makeOutput(log)
        output.switchCardProfile(card: "nonexistent", profile: "a2dp_sink")  // not connected yet
        try output.connect()
        output.play(sineSource(seconds: 30), entry: a, title: "Sine", artist: nil, playing: true)
        XCTAssertNotNil(log.wait(for: .started(a)))
        let facts = try XCTUnwrap(log.waitForFacts { $0.ourSinkName != nil }).facts
        let index = try XCTUnwrap(output.streamIndex)
        let sink = try XCTUnwrap(facts.ourSinkName)
        let before = log.events.count

        output.switchCardProfile(card: "nonexistent", profile: "a2dp_sink")
        output.switchCardProfile(card: "", profile: "")
        // Still playing, audibly, on the same stream and sink, and the connection survived the
        // server's refusal.
        let samples = try server.record(from: "\(sink).monitor", seconds: 0.3)
        XCTAssertGreaterThan(peak(samples), 4000)
        XCTAssertTrue(output.isConnected)
        XCTAssertEqual(output.streamIndex, index)
        XCTAssertEqual(output.sinkName, sink)
        XCTAssertTrue(try server.sinkInput(index)?.contains("Corked: no") == true)
        XCTAssertEqual(Array(log.events.dropFirst(before)).filter { !$0.isAboutServer }, [], "\(log.events)")
        XCTAssertFalse(log.events.contains { if case .serverLost = $0 { true } else { false } })

        output.shutdown()
        output.switchCardProfile(card: "nonexistent", profile: "a2dp_sink")  // after shutdown: no-op
    }
}
