import Foundation
import Handoff
import XCTest
@testable import AudioOutput
import PlayerCore
@testable import TestSupport

/// PulseAudioOutput against a real PulseAudio (a private one unless PULSE_SERVER is set).
final class PulseAudioOutputTests: XCTestCase {
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
    private let a = EntryID(1), b = EntryID(2)

    private func makeOutput(_ log: EventLog,
                            extra: (@Sendable (OutputEvent, PulseAudioOutput) -> Void)? = nil) throws -> PulseAudioOutput {
        let box = OutputBox()
        let output = PulseAudioOutput(identity: StreamIdentity(applicationName: "AubadeTest", applicationID: "org.aubade.Test"),
                                      soundServerEvents: { log.append($0) }) { event in
            log.append(event)
            if let extra, let output = box.output { extra(event, output) }
        }
        box.output = output
        try output.connect()
        addTeardownBlock { output.shutdown() }
        return output
    }

    func testStreamAppearsWithMusicRoleAndApplicationName() throws {
        let log = EventLog()
        let output = try makeOutput(log)
        XCTAssertEqual(log.events.first, .serverConnected)
        XCTAssertEqual(log.playbackEvents, [])
        output.play(sineSource(seconds: 5), entry: a, title: "Sine", artist: "Tester", playing: true)
        XCTAssertNotNil(log.wait(for: .started(a)))
        let index = try XCTUnwrap(output.streamIndex)
        let block = try XCTUnwrap(try server.sinkInput(index))
        XCTAssertTrue(block.contains("media.role = \"music\""), block)
        XCTAssertTrue(block.contains("application.name = \"AubadeTest\""), block)
        XCTAssertTrue(block.contains("application.id = \"org.aubade.Test\""), block)
        XCTAssertTrue(try eventually { try server.sinkInput(index)?.contains("media.title = \"Sine\"") == true })
        XCTAssertTrue(block.contains("media.artist = \"Tester\""), block)
    }

    func testAudioReachesTheSink() throws {
        let log = EventLog()
        let output = try makeOutput(log)
        output.play(sineSource(seconds: 5), entry: a, title: "Sine", artist: nil, playing: true)
        XCTAssertNotNil(log.wait(for: .started(a)))
        let samples = try server.record(from: "@DEFAULT_MONITOR@", seconds: 0.8)
        XCTAssertGreaterThan(samples.count, 2_000)
        XCTAssertGreaterThan(peak(samples), 4000, "the sine should be audible on the monitor")
    }

    func testPauseCorksAndPlaysNothingThenResumes() throws {
        let log = EventLog()
        let output = try makeOutput(log)
        output.play(sineSource(seconds: 10), entry: a, title: "Sine", artist: nil, playing: true)
        XCTAssertNotNil(log.wait(for: .started(a)))
        let index = try XCTUnwrap(output.streamIndex)
        output.pause()
        XCTAssertTrue(try eventually { try server.sinkInput(index)?.contains("Corked: yes") == true })
        usleep(150_000)  // let the sink play out what it already mixed
        let paused = try server.record(from: "@DEFAULT_MONITOR@", seconds: 0.5)
        XCTAssertLessThan(peak(paused), 100, "nothing may play while corked")
        output.resume()
        XCTAssertTrue(try eventually { try server.sinkInput(index)?.contains("Corked: no") == true })
        let resumed = try server.record(from: "@DEFAULT_MONITOR@", seconds: 0.5)
        XCTAssertGreaterThan(peak(resumed), 4000)
    }

    func testGaplessSwitchAnnouncesTheNextEntryAtTheBoundary() throws {
        let log = EventLog()
        let (a, b) = (self.a, self.b)
        let output = try makeOutput(log) { event, output in
            // Answer like the app would, from the events thread.
            if event == .needsNext(after: a) {
                output.enqueue(sineSource(seconds: 0.5, frequency: 660), entry: b, title: "B", artist: nil)
            } else if event == .needsNext(after: b) {
                output.endOfQueue()
            }
        }
        output.play(sineSource(seconds: 0.5), entry: a, title: "A", artist: nil, playing: true)
        XCTAssertNotNil(log.wait(for: .finished(b), timeout: 5))
        let startA = try XCTUnwrap(log.time(of: .started(a)))
        let startB = try XCTUnwrap(log.time(of: .started(b)))
        let finished = try XCTUnwrap(log.time(of: .finished(b)))
        let gap = (startB - startA).seconds
        print("gapless: started(b) \(String(format: "%.3f", gap)) s after started(a); "
              + "finished \(String(format: "%.3f", (finished - startB).seconds)) s after started(b)")
        XCTAssertTrue((0.3...0.9).contains(gap), "gap \(gap)")
        let events = log.playbackEvents
        XCTAssertEqual(Set(events.map { "\($0)" }),
                       Set([OutputEvent.started(a), .needsNext(after: a), .started(b), .needsNext(after: b),
                            .finished(b)].map { "\($0)" }))
        XCTAssertEqual(events.last, .finished(b))
        let order = events.firstIndex(of: .needsNext(after: a))! < events.firstIndex(of: .started(b))!
        XCTAssertTrue(order, "needsNext(a) before started(b): \(events)")
    }

    /// Issue 12: a follow-up of another sample rate was fed into the old stream (played at the
    /// wrong speed). Now the stream plays out, and a stream of the new format starts with the
    /// next track, announced when it is heard; what follows it (same format) joins it there.
    func testAFollowUpOfAnotherRateGetsAStreamOfItsOwnAtTheBoundary() throws {
        let log = EventLog()
        let c = EntryID(3)
        let (a, b) = (self.a, self.b)
        let stereo48k = PCMFormat(sampleRate: 48_000, channels: 2)
        let output = try makeOutput(log) { event, output in
            switch event {
            case .needsNext(after: a):
                output.enqueue(sineSource(seconds: 0.6, format: stereo48k, frequency: 660), entry: b, title: "B", artist: nil)
            case .needsNext(after: b):
                output.enqueue(sineSource(seconds: 0.4, format: stereo48k), entry: c, title: "C", artist: nil)
            case .needsNext(after: c):
                output.endOfQueue()
            default:
                break
            }
        }
        output.play(sineSource(seconds: 0.5), entry: a, title: "A", artist: nil, playing: true)
        XCTAssertNotNil(log.wait(for: .started(a)))
        let firstStream = try XCTUnwrap(output.streamIndex)
        XCTAssertTrue(try server.sinkInput(firstStream)?.contains("44100Hz") == true)
        XCTAssertNotNil(log.wait(for: .started(b), timeout: 5))
        let secondStream = try XCTUnwrap(output.streamIndex)
        XCTAssertNotEqual(firstStream, secondStream, "a new stream for the new rate")
        XCTAssertTrue(try eventually { try server.sinkInput(secondStream)?.contains("48000Hz") == true })
        XCTAssertNotNil(log.wait(for: .finished(c), timeout: 5))
        let startA = try XCTUnwrap(log.time(of: .started(a)))
        let startB = try XCTUnwrap(log.time(of: .started(b)))
        let startC = try XCTUnwrap(log.time(of: .started(c)))
        let finished = try XCTUnwrap(log.time(of: .finished(c)))
        // All of A plays before B (0.5 s), with at most a short gap for the new stream; B and C
        // join gaplessly in the new stream.
        // The upper bounds are loose: announcements ride on timers that a busy machine (or a
        // sanitizer) delays; the boundary's real gap is measured at the monitor by
        // IntegrationTests.FormatBoundaryTests.
        print("format boundary: A \((startB - startA).seconds) s, B \((startC - startB).seconds) s, C \((finished - startC).seconds) s")
        XCTAssertTrue((0.45...2.0).contains((startB - startA).seconds), "A lasted \((startB - startA).seconds) s")
        XCTAssertTrue((0.5...1.5).contains((startC - startB).seconds), "B lasted \((startC - startB).seconds) s")
        XCTAssertTrue((0.3...1.5).contains((finished - startC).seconds), "C lasted \((finished - startC).seconds) s")
        let events = log.playbackEvents
        XCTAssertFalse(events.contains(.finished(a)), "the boundary is not the end of the queue: \(events)")
        XCTAssertEqual(events.last, .finished(c))
    }

    func testSetVolumeAndExternalVolumeChange() throws {
        let log = EventLog()
        let output = try makeOutput(log)
        output.play(sineSource(seconds: 5), entry: a, title: "Sine", artist: nil, playing: true)
        XCTAssertNotNil(log.wait(for: .started(a)))
        let index = try XCTUnwrap(output.streamIndex)
        output.setVolume(0.5)
        XCTAssertTrue(try eventually { try server.sinkInput(index)?.contains("32768 /  50%") == true })
        usleep(100_000)
        XCTAssertFalse(log.events.contains { if case .volumeChanged = $0 { true } else { false } },
                       "our own change is not reported back")
        try server.pactl("set-sink-input-volume", "\(index)", "30%")
        let changed = log.wait { if case .volumeChanged = $0 { true } else { false } }
        XCTAssertNotNil(changed)
        guard case .volumeChanged(let volume) = log.events.last(where: {
            if case .volumeChanged = $0 { true } else { false }
        }) else { return XCTFail("no volumeChanged") }
        XCTAssertEqual(volume, 0.3, accuracy: 0.01)
    }

    func testStopRemovesTheSinkInput() throws {
        let log = EventLog()
        let output = try makeOutput(log)
        output.play(sineSource(seconds: 5), entry: a, title: "Sine", artist: nil, playing: true)
        XCTAssertNotNil(log.wait(for: .started(a)))
        let index = try XCTUnwrap(output.streamIndex)
        output.stop()
        XCTAssertNil(output.streamIndex)
        XCTAssertTrue(try eventually { try server.sinkInput(index) == nil })
        XCTAssertTrue(output.isConnected, "stop keeps the context")
    }

    /// A stop while the server is still creating the stream (a Clear right after a play on a
    /// busy machine): libpulse cannot disconnect a stream before the server's reply, and one
    /// merely let go of lived on as a silent, uncorked sink input until the daemon exited.
    func testStopWhileTheStreamIsBeingCreatedLeavesNoSinkInput() throws {
        let log = EventLog()
        let output = try makeOutput(log)
        for round in 0..<5 {
            // Open before the play, so the play creates the stream at once.
            let source = DecodeAhead(sineSource(seconds: 5))
            XCTAssertTrue(eventually { if case .open = source.status { true } else { false } })
            output.play(source, entry: a, title: "Sine", artist: nil, playing: true)
            output.stop()
            let gone = try eventually { try server.pactl("list", "short", "sink-inputs").isEmpty }
            XCTAssertTrue(gone, "round \(round): \((try? server.pactl("list", "sink-inputs")) ?? "")")
        }
        // And the output still plays afterwards.
        output.play(sineSource(seconds: 5), entry: b, title: "Sine", artist: nil, playing: true)
        XCTAssertNotNil(log.wait(for: .started(b)))
    }

    /// A resume, or a pause, while the server is still creating the stream (a Play right after
    /// a Pause, the daemon just started on a busy machine): libpulse corks and uncorks only a
    /// ready stream, and the stream stayed as it was created (ci19: corked for good while the
    /// player said Playing).
    func testACorkChangeWhileTheStreamIsBeingCreatedHoldsOnceItIsReady() throws {
        let log = EventLog()
        let output = try makeOutput(log)
        for round in 0..<3 {
            let entry = EntryID(UInt64(100 + round))
            let corked = try openSource()
            output.play(corked, entry: entry, title: "Sine", artist: nil, playing: false)
            output.resume()
            XCTAssertNotNil(log.wait(for: .started(entry)), "round \(round): resumed while being created, never heard")
            let resumed = try XCTUnwrap(output.streamIndex)
            XCTAssertTrue(try eventually { try server.sinkInput(resumed)?.contains("Corked: no") == true },
                          "round \(round): resumed while being created, it stays corked")
            output.stop()
            XCTAssertTrue(try eventually { try server.pactl("list", "short", "sink-inputs").isEmpty })

            let playing = try openSource()
            output.play(playing, entry: EntryID(UInt64(200 + round)), title: "Sine", artist: nil, playing: true)
            output.pause()
            XCTAssertTrue(eventually { output.streamIndex != nil })
            let index = try XCTUnwrap(output.streamIndex)
            XCTAssertTrue(try eventually { try server.sinkInput(index)?.contains("Corked: yes") == true },
                          "round \(round): paused while being created, it plays: \((try? server.sinkInput(index)) ?? "gone")")
            output.stop()
            XCTAssertTrue(try eventually { try server.pactl("list", "short", "sink-inputs").isEmpty })
        }
    }

    /// A source already open, so that a play creates the stream at once.
    private func openSource() throws -> DecodeAhead {
        let source = DecodeAhead(sineSource(seconds: 5))
        XCTAssertTrue(eventually { if case .open = source.status { true } else { false } })
        return source
    }

    func testOneStreamAcrossTwoPlays() throws {
        let log = EventLog()
        let output = try makeOutput(log)
        output.play(sineSource(seconds: 5), entry: a, title: "A", artist: nil, playing: true)
        XCTAssertNotNil(log.wait(for: .started(a)))
        let first = try XCTUnwrap(output.streamIndex)
        output.play(sineSource(seconds: 5), entry: b, title: "B", artist: nil, playing: true)
        let startB = log.wait(for: .started(b))
        XCTAssertNotNil(startB)
        XCTAssertEqual(output.streamIndex, first)
        XCTAssertTrue(try eventually { try server.sinkInput(first)?.contains("media.title = \"B\"") == true })
    }

    func testRestartFlushesWithoutAnnouncingTheEntryAgain() throws {
        let log = EventLog()
        let output = try makeOutput(log)
        output.play(sineSource(seconds: 5), entry: a, title: "A", artist: nil, playing: true)
        XCTAssertNotNil(log.wait(for: .started(a)))
        let index = output.streamIndex
        output.restart(sineSource(seconds: 0.3, frequency: 880), entry: a)  // "seeked" near the end
        XCTAssertNotNil(log.wait(for: .needsNext(after: a), timeout: 2))
        XCTAssertEqual(output.streamIndex, index)
        XCTAssertEqual(log.events.filter { $0 == .started(a) }.count, 1)
        let samples = try server.record(from: "@DEFAULT_MONITOR@", seconds: 0.2)
        XCTAssertGreaterThan(peak(samples), 4000, "the restarted source plays")
    }

    func testPreparedButCorkedPlayStartsOnResume() throws {
        let log = EventLog()
        let output = try makeOutput(log)
        output.play(sineSource(seconds: 5), entry: a, title: "A", artist: nil, playing: false)
        XCTAssertTrue(eventually { output.streamIndex != nil })
        let index = try XCTUnwrap(output.streamIndex)
        XCTAssertTrue(try eventually { try server.sinkInput(index)?.contains("Corked: yes") == true })
        XCTAssertNil(log.wait(for: .started(a), timeout: 0.3), "not audible while corked")
        output.resume()
        XCTAssertNotNil(log.wait(for: .started(a)))
    }

    func testASourceFailingPartWayReportsFailedThenNeedsNext() throws {
        let log = EventLog()
        let output = try makeOutput(log)
        let tone = sineSource(seconds: 0.6)
        let reads = LockedState(0)
        let breaking = PCMSource(format: tone.format) { buffer in
            // A little audio, then a broken frame.
            guard reads.withLock({ count in count += 1; return count }) <= 2 else { throw BrokenSource() }
            return try tone.read(buffer)
        }
        output.play(breaking, entry: a, title: "Breaking", artist: nil, playing: true)
        XCTAssertNotNil(log.wait(for: .needsNext(after: a)))
        XCTAssertTrue(log.playbackEvents.contains(.failed(a, "broken frame")), "\(log.playbackEvents)")
    }

    func testASourceFailingBeforeAnyAudioIsUnplayable() throws {
        // Dropped by the app rather than failing again at every pass of a looping queue.
        let log = EventLog()
        let output = try makeOutput(log)
        let broken = PCMSource(format: PCMFormat(sampleRate: 44100, channels: 2)) { _ in throw BrokenSource() }
        output.play(broken, entry: a, title: "Broken", artist: nil, playing: true)
        XCTAssertNotNil(log.wait(for: .unplayable(a, "broken frame")))
        XCTAssertNil(log.time(of: .started(a)))
    }
}

/// Lets the events closure reach the output it belongs to (set right after init).
final class OutputBox: @unchecked Sendable {
    // @unchecked Sendable: written once before any event can need it, then only read.
    var output: PulseAudioOutput?
}

/// The output with tracks that open slowly or not at all (decoded ahead off the mainloop).
extension PulseAudioOutputTests {

    func testPlayReturnsAtOnceAndStartsWhenTheSlowTrackHasOpened() throws {
        let log = EventLog()
        let output = try makeOutput(log)
        let slow = DecodeAhead {
            usleep(1_000_000)
            return sineSource(seconds: 2)
        }
        let before = ContinuousClock.now
        output.play(slow, entry: a, title: "Slow", artist: nil, playing: true)
        output.pause()
        output.resume()
        XCTAssertLessThan((ContinuousClock.now - before).seconds, 0.05, "no call waits for the disk")
        let started = try XCTUnwrap(log.wait(for: .started(a), timeout: 5))
        XCTAssertGreaterThan((started - before).seconds, 0.9)
    }

    func testAnUnplayableFollowUpIsReportedAndTheOutputWaitsForTheNext() throws {
        let log = EventLog()
        let output = try makeOutput(log)
        struct Broken: Error, CustomStringConvertible { var description: String { "not audio" } }
        output.play(sineSource(seconds: 0.4), entry: a, title: "A", artist: nil, playing: true)
        XCTAssertNotNil(log.wait(for: .needsNext(after: a)))
        output.enqueue(DecodeAhead { throw Broken() }, entry: b, title: "B", artist: nil)
        XCTAssertNotNil(log.wait(for: .unplayable(b, "not audio")))
        output.enqueue(sineSource(seconds: 0.4), entry: EntryID(3), title: "C", artist: nil)
        XCTAssertNotNil(log.wait(for: .started(EntryID(3))))
        XCTAssertNil(log.time(of: .started(b)))
    }

    func testEventsCarryTheSerialOfTheirRun() throws {
        _ = try server
        let events = LockedState<[(OutputEvent, PlaySerial)]>([])
        let output = PulseAudioOutput(identity: StreamIdentity(), serialEvents: { event, serial in
            events.withLock { $0.append((event, serial)) }
        })
        defer { output.shutdown() }
        try output.connect()
        let first = try XCTUnwrap(output.play(sineSource(seconds: 0.3), entry: a, title: "A", artist: nil, playing: true))
        XCTAssertTrue(eventually { events.withLock { $0.contains { $0.0 == .needsNext(after: a) } } })
        output.endOfQueue()
        XCTAssertTrue(eventually { events.withLock { $0.contains { $0.0 == .finished(a) } } })
        let second = try XCTUnwrap(output.play(sineSource(seconds: 0.3), entry: a, title: "A", artist: nil, playing: true))
        XCTAssertGreaterThan(second, first)
        XCTAssertTrue(eventually { events.withLock { $0.filter { $0.0 == .started(a) }.count == 2 } })
        events.withLock { log in
            XCTAssertEqual(log.first { $0.0 == .finished(a) }?.1, first, "the old run's finish is recognisably old")
            XCTAssertEqual(log.last { $0.0 == .started(a) }?.1, second)
        }
    }
}
