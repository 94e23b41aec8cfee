import Glibc
import PlayerCore
import PulseKit
import XCTest
@testable import AudioOutput

/// The other programs' streams in the facts: where each plays and whose it is.
final class OtherStreamsFactsTests: XCTestCase {
    private func input(_ index: UInt32, sink: UInt32, _ properties: [String: String]) -> SinkInputInfo {
        SinkInputInfo(index: index, name: "playback", sinkIndex: sink, properties: properties)
    }

    func testEachStreamNamesItsSinkProcessProgramAndRole() {
        let streams = SoundServerObserver.otherStreams(
            [input(10, sink: 3, ["application.process.id": "4242", "application.process.binary": "mpv",
                                 "application.name": "mpv Media Player", "media.role": "music",
                                 "pipewire.access.portal.app_id": "io.mpv.Mpv"]),
             input(11, sink: 9, [:])],
            sinkNames: [3: "headphones"])
        XCTAssertEqual(streams.first, PlaybackStreamFacts(index: 10, sinkName: "headphones", processID: 4242, processBinary: "mpv",
                                                          applicationName: "mpv Media Player", appID: "io.mpv.Mpv", role: "music"))
        // A sink not in the same reading (it has just gone) is no sink, not a wrong one.
        XCTAssertEqual(streams.last, PlaybackStreamFacts(index: 11, sinkName: nil))
    }

    /// The process id is the client's own claim: only a plain positive number is one.
    func testAClaimedProcessIdThatIsNoPidIsNone() {
        for claim in ["0", "-5", "1e3", "", "99999999999", " 42"] {
            let streams = SoundServerObserver.otherStreams([input(1, sink: 0, ["application.process.id": claim])], sinkNames: [:])
            XCTAssertNil(streams.first?.processID, "claim \"\(claim)\"")
        }
    }

    func testPipeWiresRecordOfTheRealPidWinsOverTheClaim() {
        let streams = SoundServerObserver.otherStreams(
            [input(1, sink: 0, ["application.process.id": "2", "pipewire.sec.pid": "31337"])], sinkNames: [:])
        XCTAssertEqual(streams.first?.processID, 31337)
    }

    func testParentsAreReadFromProc() {
        XCTAssertEqual(ProcessAncestry.parent(of: getpid()), getppid())
        XCTAssertEqual(ProcessAncestry.parents(of: getpid()).first, getppid())
        XCTAssertFalse(ProcessAncestry.parents(of: getpid()).contains(1))
        XCTAssertNil(ProcessAncestry.parent(of: -1))
        XCTAssertEqual(ProcessAncestry.parents(of: Int32.max), [])
    }

    /// The command name may hold spaces and parentheses: fields are counted after the last ")".
    func testAStatLineWithAStrangeCommandName() {
        let line = Array("1234 (we ird) (x) S 777 1234 1234 0 -1".utf8)
        XCTAssertEqual(ProcessAncestry.parent(inStat: line[...]), 777)
        XCTAssertNil(ProcessAncestry.parent(inStat: Array("garbage".utf8)[...]))
        XCTAssertNil(ProcessAncestry.parent(inStat: Array("1 (x) S".utf8)[...]))
    }

    func testFillingReadsEachProcessOnce() {
        let facts = SoundServerFacts(otherStreams: [PlaybackStreamFacts(index: 1, sinkName: "a", processID: getpid()),
                                                    PlaybackStreamFacts(index: 2, sinkName: "a", processID: nil)])
        let filled = ProcessAncestry.filling(facts)
        XCTAssertEqual(filled.otherStreams[0].ancestors.first, getppid())
        XCTAssertEqual(filled.otherStreams[1].ancestors, [])
    }
}
