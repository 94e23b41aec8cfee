import FFmpegClient
import FFmpegWire
import Foundation
import Testing
@testable import TestSupport

/// The tag-reading helper, shared by every file queued: it lives on between files, stops when
/// idle, and is never stopped in the middle of a file.
@Suite(.waitsOnRealTime) struct ProbeHelperTests {
    /// Found under AddressSanitizer, where reading one header takes longer than the idle time:
    /// the idle stop scheduled after the previous file closed the socket mid-conversation
    /// ("recvmsg failed (errno 9)"). With an idle time shorter than any conversation, every
    /// file is still read.
    @Test func anIdleStopNeverCutsAConversation() throws {
        // A header behind 5 MiB of empty atoms: each conversation lasts longer than the idle time.
        let corpus = try M4ABadCorpus.make(in: try Fixtures.makeDirectory())
        let file = corpus.path("5MB-of-atoms.m4a")
        let probe = ProbeHelper(idleTime: 0.02)
        defer { probe.stop() }
        for _ in 0..<6 {
            let descriptor = open(file, O_RDONLY | O_CLOEXEC)
            defer { close(descriptor) }
            let facts = try probe.facts(descriptor: descriptor, formatName: "mov")
            #expect(facts.lengthMicroseconds == 20_000_000)
        }
    }

    @Test func theHelperLivesBetweenFilesAndStopsWhenIdle() throws {
        let file = try Fixtures.makeDirectory() + "/short.m4a"
        try Fixtures.makeM4A(at: file, seconds: 1)
        let probe = ProbeHelper(idleTime: 0.5)
        defer { probe.stop() }
        var pids: Set<Int32> = []
        for _ in 0..<3 {
            let descriptor = open(file, O_RDONLY | O_CLOEXEC)
            defer { close(descriptor) }
            _ = try probe.facts(descriptor: descriptor, formatName: "mov")
            if let pid = probe.pid { pids.insert(pid) }
        }
        #expect(pids.count == 1, "one helper for the three files: \(pids)")
        let deadline = Date(timeIntervalSinceNow: 5)
        while probe.pid != nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(probe.pid == nil, "still running after its idle time")
    }
}
