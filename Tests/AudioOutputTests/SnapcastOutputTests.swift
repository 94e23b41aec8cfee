import AudioOutput
import Foundation
import Handoff
import PlayerCore
import XCTest
@testable import TestSupport

/// `SnapcastOutput` against a FIFO read as snapserver reads it (`FakeSnapserverReader`): the
/// start announced a buffer after the server read it, a pause taken back and resumed from
/// what the rooms heard on the frame grid, gapless follow-ups, the server going and coming
/// back, and what is not a FIFO left alone.
final class SnapcastOutputTests: XCTestCase {
    private var directory: URL!
    private var reader: FakeSnapserverReader?
    private var output: SnapcastOutput?

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapcast-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        output?.shutdown()
        output = nil
        reader?.close()
        reader = nil
        try? FileManager.default.removeItem(at: directory)
        super.tearDown()
    }

    private var fifo: String { directory.appendingPathComponent("fifo").path }

    private func makeOutput(_ log: EventLog, buffer: Int64 = 200_000) -> SnapcastOutput {
        let output = SnapcastOutput(settings: SnapcastSettings(fifoPath: fifo, buffer: buffer)) { event, _ in log.append(event) }
        self.output = output
        output.connectInBackground()
        return output
    }

    /// Within 30 ms of the server's read plus the buffer; under a sanitizer within 100 ms
    /// (`Sanitizer.judgesTime`): there the fake server's reading thread, slowed and beside the
    /// other tests, takes its own time late (ci27 under ThreadSanitizer: the start 34 ms
    /// "before" it, and −34, −39 ms in earlier stops), which measures the sanitizer and the load.
    func testTheStartIsAnnouncedABufferAfterTheServerReadIt() throws {
        reader = try FakeSnapserverReader(path: fifo)
        let log = EventLog()
        let output = makeOutput(log)
        XCTAssertNotNil(log.wait(for: .serverConnected))
        output.play(DecodeAhead(countingSource(frames: 48_000)), entry: EntryID(1), title: "Count", artist: nil, playing: true)
        let started = try XCTUnwrap(log.wait(for: .started(EntryID(1))))
        let firstRead = try XCTUnwrap(reader?.readTime(ofByte: 0))
        let late = (started - firstRead).seconds - 0.2
        print(String(format: "started %.1f ms after the server read the first byte plus the buffer", late * 1000))
        XCTAssertEqual(late, 0, accuracy: Sanitizer.judgesTime ? 0.03 : 0.1)
    }

    /// The regression of a resume that began inside a frame (the rooms heard full-scale noise).
    func testAResumeWritesAgainFromWhatWasHeardOnTheFrameGrid() throws {
        reader = try FakeSnapserverReader(path: fifo)
        let log = EventLog()
        let output = makeOutput(log)
        XCTAssertNotNil(log.wait(for: .serverConnected))
        output.play(DecodeAhead(countingSource(frames: 480_000)), entry: EntryID(1), title: "Count", artist: nil, playing: true)
        XCTAssertNotNil(log.wait(for: .started(EntryID(1))))
        Thread.sleep(forTimeInterval: 0.537)  // an odd moment: the heard offset lands inside a 20 ms chunk
        output.pause()
        let readBeforeResume = try XCTUnwrap(reader).bytes.count
        Thread.sleep(forTimeInterval: 0.3)
        output.resume()
        Thread.sleep(forTimeInterval: 0.5)
        let frames = frameNumbers(try XCTUnwrap(reader).bytes).drop { $0 == 0 }
        // One run up to the pause, one from the resume: each frame follows the one before.
        let breaks = zip(frames, frames.dropFirst()).enumerated().filter { $0.element.1 != $0.element.0 + 1 && $0.element.1 != 0 }
        XCTAssertEqual(breaks.count, 1, "the frames break \(breaks.count) times: \(breaks.prefix(3).map { "\($0.element)" })")
        guard let resumeBreak = breaks.first?.element else { return }
        let lastBeforePause = resumeBreak.0, firstAfterResume = resumeBreak.1
        print("paused after frame \(lastBeforePause), resumed from frame \(firstAfterResume)")
        // The rooms had heard up to about 0.2 s (the buffer) less than the server had read.
        XCTAssertEqual(Double(lastBeforePause - firstAfterResume) / 48_000, 0.2, accuracy: 0.05)
        XCTAssertLessThan(readBeforeResume, try XCTUnwrap(reader).bytes.count)
    }

    func testGaplessFollowUpThenTheEnd() throws {
        reader = try FakeSnapserverReader(path: fifo)
        let log = EventLog()
        let output = makeOutput(log)
        XCTAssertNotNil(log.wait(for: .serverConnected))
        output.play(DecodeAhead(countingSource(frames: 9_600)), entry: EntryID(1), title: "A", artist: nil, playing: true)
        XCTAssertNotNil(log.wait(for: .needsNext(after: EntryID(1))))
        output.enqueue(DecodeAhead(countingSource(frames: 9_600)), entry: EntryID(2), title: "B", artist: nil)
        XCTAssertNotNil(log.wait(for: .needsNext(after: EntryID(2))))
        output.endOfQueue()
        XCTAssertNotNil(log.wait(for: .finished(EntryID(2)), timeout: 3))
        XCTAssertEqual(log.playbackEvents.filter { if case .started = $0 { true } else { false } },
                       [.started(EntryID(1)), .started(EntryID(2))])
        // A then B, back to back: 0…9599 twice, no silence between.
        let frames = Array(frameNumbers(try XCTUnwrap(reader).bytes).drop { $0 == 0 }.prefix(19_199))
        XCTAssertEqual(frames, Array(1..<9_600) + Array(0..<9_600))
    }

    func testTheServerGoingAwayAndComingBack() throws {
        let reader = try FakeSnapserverReader(path: fifo)
        self.reader = reader
        let log = EventLog()
        let output = makeOutput(log)
        XCTAssertNotNil(log.wait(for: .serverConnected))
        output.play(DecodeAhead(countingSource(frames: 480_000)), entry: EntryID(1), title: "Count", artist: nil, playing: true)
        XCTAssertNotNil(log.wait(for: .started(EntryID(1))))
        let gone = ContinuousClock.now
        reader.close()
        let lost = try XCTUnwrap(log.wait(timeout: 3) { if case .serverLost = $0 { true } else { false } })
        print(String(format: "serverLost %.0f ms after the reader closed", (lost - gone).seconds * 1000))
        XCTAssertLessThan((lost - gone).seconds, 1)
        try reader.open()
        XCTAssertTrue(eventually(timeout: 3) { log.events.filter { $0 == .serverConnected }.count == 2 }, "\(log.events)")
    }

    func testWhatIsNotAFIFOIsLeftAlone() throws {
        FileManager.default.createFile(atPath: fifo, contents: Data())
        let log = EventLog()
        _ = makeOutput(log)
        let lost = log.wait(timeout: 3) { if case .serverLost = $0 { true } else { false } }
        XCTAssertNotNil(lost)
        XCTAssertTrue(log.events.contains { if case .serverLost(let reason) = $0 { reason.contains("not a FIFO") } else { false } },
                      "\(log.events)")
        Thread.sleep(forTimeInterval: 0.7)  // a retry or two must not write into it either
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: fifo)[.size] as? Int, 0)
    }
}
