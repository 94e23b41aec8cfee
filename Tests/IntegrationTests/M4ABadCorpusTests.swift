import Foundation
import XCTest
@testable import TestSupport

/// The bad M4A/ADTS corpus given to the daemon: each refused file is named in the log with its
/// reason and left out, the playable ones are queued, and a good MP3 after them plays; the
/// daemon and its bus go on.
final class M4ABadCorpusTests: AubadeTestCase {
    func testTheBadM4ACorpusOnTheCommandLine() throws {
        let corpus = try M4ABadCorpus.make(in: try makeDirectory("bad-m4a").path)
        let daemon = try startDaemon(corpus.files.map { corpus.path($0.name) } + [fixtures.alpha.path])
        try waitForStatus("Playing", timeout: 10)
        let playable = corpus.files.filter { if case .plays = $0.verdict { return true } else { return false } }
        // The command line is queued in batches, and "Playing" comes with the first playable
        // file: the rest may still be loading (seen under AddressSanitizer, two of four queued),
        // and a refused file is logged when the load reaches it (under ThreadSanitizer, over 5 s
        // after Playing). So first the whole load, to the MP3 given last.
        var queued: [String] = []
        try eventually("the MP3 queued after the corpus (queued: \(queued))", timeout: Sanitizer.scaled(10)) {
            queued = try queueTitles()
            return queued.last == "Alpha"
        }
        XCTAssertEqual(queued.count, playable.count + 1, "queued: \(queued)")
        for (name, verdict) in corpus.files {
            guard case .refused(let words) = verdict else { continue }
            XCTAssertNotNil(daemon.waitForLog(containing: "\(name): \(words)", timeout: 5),
                            "\(name): no log line with \"\(words)\":\n\(daemon.stderrLines.joined(separator: "\n"))")
        }
        // Through every playable broken file to the MP3.
        try Bus.player("Next")
        try Bus.player("Next")
        try Bus.player("Next")
        try waitForTitle("Alpha", timeout: 10)
        try waitForStatus("Playing")
        XCTAssertTrue(daemon.isRunning)
    }
}
