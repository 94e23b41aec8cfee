import Decoding
import Foundation
import PlayerCore
import Testing
@testable import Library
@testable import TestSupport

/// Issue 12: a big folder goes into the queue batch by batch as it is read, in order, so its
/// first album can play while the rest is still being read.
@Suite struct BatchedLoadingTests {
    @Test func theFirstFolderArrivesBeforeTheRestIsRead() throws {
        let dir = try Fixtures.makeDirectory()
        try touch(dir, ["A/1.mp3", "A/2.mp3", "B/1.mp3", "C/1.mp3", "C/2.mp3"])
        let reads = Counter()
        // A slow disk: 60 ms a file, so folder A (two files) takes longer than the first
        // batch waits.
        var loader = QueueLoader { (path) throws(Decoding.DecodingError) -> Track in
            reads.increment()
            usleep(60_000)
            return try fakeReader(path)
        }
        loader.firstBatchDelay = .milliseconds(100)
        var batches: [(names: [String], readsBefore: Int)] = []
        let problems = loader.load([FilePath(dir)!]) { batch in
            batches.append((names(batch, relativeTo: dir), reads.value))
        }
        #expect(problems.isEmpty)
        // The first batch is folder A, handed over after only A's two files were read.
        #expect(batches.first?.names == ["A/1.mp3", "A/2.mp3"])
        #expect(batches.first?.readsBefore == 2)
        // Every track once, in the same order as an unbatched load.
        #expect(batches.flatMap(\.names) == ["A/1.mp3", "A/2.mp3", "B/1.mp3", "C/1.mp3", "C/2.mp3"])
        #expect(batches.flatMap(\.names) == names(QueueLoader(reader: fakeReader).load([dir]).tracks, relativeTo: dir))
    }

    @Test func aQuickLoadComesInOneBatch() throws {
        let dir = try Fixtures.makeDirectory()
        try touch(dir, (0..<50).map { "folder \($0)/track.mp3" } + ["single.mp3"])
        var sizes: [Int] = []
        var loader = QueueLoader(reader: fakeReader)
        // A load over before the first batch is due comes whole: a client looking right after
        // sees the whole folder. The delay is an hour so that no machine, however loaded (this
        // read took over a second under ThreadSanitizer on CI's 2 cores), makes the load slower.
        loader.firstBatchDelay = .seconds(3600)
        let problems = loader.load([FilePath(dir)!]) { sizes.append($0.count) }
        #expect(sizes == [51])
        #expect(problems.isEmpty)
        // The delay the daemon uses: a second, well above a quick folder's read.
        #expect(QueueLoader(reader: fakeReader).firstBatchDelay == .seconds(1))
    }

    @Test func aURIThatFindsNothingThrowsAndDeliversNothing() throws {
        let dir = try Fixtures.makeDirectory()
        try touch(dir, ["bad one.mp3"])
        var delivered = 0
        #expect(throws: LoadProblem.self) {
            _ = try QueueLoader(reader: fakeReader).load(uri: "file://" + dir) { _ in delivered += 1 }
        }
        #expect(delivered == 0)
    }
}

/// A count shared with a `@Sendable` reader.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
