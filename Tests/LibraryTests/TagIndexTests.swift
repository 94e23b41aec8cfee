import Decoding
import Foundation
import Handoff
@testable import Library
import PlayerCore
import Testing
@testable import TestSupport

/// The tag index: a known, unchanged file is not read again; anything else is.
@Suite struct TagIndexTests {
    /// A reader that makes a track from the file name and counts its calls.
    final class CountingReader: Sendable {
        let calls = LockedState(0)
        var count: Int { calls.withLock { $0 } }

        func read(_ path: FilePath) throws(DecodingError) -> Track {
            calls.withLock { $0 += 1 }
            var track = Track(path: path, title: path.stem, artists: ["A", "B"], album: "Album", genres: ["Jazz"],
                              trackNumber: 3, discNumber: 1, date: "2001", length: 180_000_000)
            track.lengthIsEstimate = true
            track.replayGain = ReplayGainTags(trackGain: -6.5, trackPeak: 0.9, albumGain: -7, albumPeak: nil)
            track.moreTags = [TagValue(.artistSort, "A, The"), TagValue(.composer, "Bach"), TagValue(.composer, "Händel"),
                              TagValue(.comment, "a comment"), TagValue(.musicBrainzTrackID, "9e3a5f3c-0001")]
            track.audioFormat = AudioFormatFacts(sampleRate: 44100, bitsPerSample: 24, channels: 2)
            return track
        }
    }

    final class LogLines: Sendable {
        let lines = LockedState<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func append(_ line: String) { lines.withLock { $0.append(line) } }
    }

    private func files(_ count: Int, in dir: String) throws -> [FilePath] {
        try (0..<count).map { n in
            let path = dir + "/\(n).mp3"
            try Fixtures.write(Array("not really audio \(n)".utf8), to: path)
            return FilePath(path)!
        }
    }

    private func index(_ dir: String, limits: TagIndex.Limits = TagIndex.Limits(), log: LogLines = LogLines()) -> TagIndex {
        TagIndex(path: dir + "/cache/aubade/tags.index", limits: limits, saveDelay: 3600, log: { log.append($0) })
    }

    @Test func anUnchangedFileIsAHitAfterARestart() throws {
        let dir = try Fixtures.makeDirectory()
        let paths = try files(3, in: dir)
        let reader = CountingReader()
        let first = index(dir)
        let read = try paths.map { (path) throws(DecodingError) in try first.track(at: path, reading: reader.read) }
        #expect(reader.count == 3)
        first.saveNow()
        #expect(FileManager.default.fileExists(atPath: first.path))

        let second = index(dir)
        let again = try paths.map { (path) throws(DecodingError) in try second.track(at: path, reading: reader.read) }
        #expect(reader.count == 3, "a hit reads no file")
        #expect(again == read, "every field survives the file: tags, length, estimate, ReplayGain, more tags, format")
        #expect(again[0].lengthIsEstimate)
        #expect(again[0].replayGain?.albumGain == -7)
        #expect(again[0].values(of: .composer) == ["Bach", "Händel"])
        #expect(again[0].audioFormat?.description == "44100:24:2")
    }

    @Test func anIndexOfTheFirstVersionIsIgnoredWithOneLineAndRebuilt() throws {
        let dir = try Fixtures.makeDirectory()
        let paths = try files(2, in: dir)
        let reader = CountingReader()
        let first = index(dir)
        for path in paths { _ = try first.track(at: path, reading: reader.read) }
        first.saveNow()
        // The same file as version 1 wrote it, as far as its header says (its entries lack the
        // more tags, which version 1 never had).
        var bytes = try Fixtures.contents(of: first.path)
        bytes.replaceSubrange(TagIndexCoding.magic.count..<TagIndexCoding.magic.count + 4, with: [0, 0, 0, 1])
        try Fixtures.write(bytes, to: first.path)
        let log = LogLines()
        let old = index(dir, log: log)
        for path in paths { _ = try old.track(at: path, reading: reader.read) }
        #expect(reader.count == 4, "nothing believed from an old index")
        #expect(log.all.count == 1, "\(log.all)")
        #expect(log.all.first?.contains("version 1") == true, "\(log.all)")
    }

    @Test func anUnknownTagKindRejectsTheFile() throws {
        let path: FilePath = "/music/x.flac"
        var track = Track(path: path, title: "T")
        track.moreTags = [TagValue(.composer, "Bach")]
        let entry = TagIndexEntry(key: TagIndexKey(path: path.bytes, size: 1, modificationNanoseconds: 2, inode: 3),
                                  track: track, lastUsed: 4)
        let bytes = TagIndexCoding.encode([entry])
        #expect((try? TagIndexCoding.decode(bytes, maximumEntries: 10)) == [entry])
        // A newer build's kind ("Composxr" here), with a checksum that matches: refused.
        var body = Array(bytes[TagIndexCoding.headerLength...])
        let name = Array("Composer".utf8)
        let at = try #require((0...(body.count - name.count)).first { Array(body[$0..<$0 + name.count]) == name })
        body[at + 6] = UInt8(ascii: "x")
        var header = Array(bytes[..<(TagIndexCoding.headerLength - 8)])
        let sum = TagIndexCoding.checksum(body[...])
        header += (0..<8).map { UInt8((sum >> (56 - 8 * UInt64($0))) & 0xFF) }
        #expect(throws: TagIndexCoding.Corrupt(reason: "unknown tag kind")) {
            try TagIndexCoding.decode(header + body, maximumEntries: 10)
        }
    }

    @Test func moreTagsAndFormatsBeyondTheCapsAreNotStored() {
        let path: FilePath = "/music/x.flac"
        func storable(_ change: (inout Track) -> Void) -> Bool {
            var track = Track(path: path, title: "T")
            change(&track)
            return TagIndexCoding.isStorable(TagIndexEntry(key: TagIndexKey(path: path.bytes, size: 1, modificationNanoseconds: 2,
                                                                            inode: 3), track: track, lastUsed: 4))
        }
        #expect(storable { $0.moreTags = (0..<TagIndexCoding.maximumMoreTags).map { TagValue(.composer, "C\($0)") } })
        #expect(!storable { $0.moreTags = (0...TagIndexCoding.maximumMoreTags).map { TagValue(.composer, "C\($0)") } })
        #expect(!storable { $0.moreTags = [TagValue(.comment, String(repeating: "x", count: TagIndexCoding.maximumText + 1))] })
        #expect(storable { $0.audioFormat = AudioFormatFacts(sampleRate: 48000, bitsPerSample: nil, channels: 2) })
        #expect(!storable { $0.audioFormat = AudioFormatFacts(sampleRate: 0, bitsPerSample: 16, channels: 2) })
        #expect(!storable { $0.audioFormat = AudioFormatFacts(sampleRate: 44100, bitsPerSample: 16, channels: 0) })
        #expect(!storable { $0.audioFormat = AudioFormatFacts(sampleRate: 44100, bitsPerSample: 300, channels: 2) })
        #expect(!storable { $0.audioFormat = AudioFormatFacts(sampleRate: 44100, bitsPerSample: 0, channels: 2) })
    }

    @Test func aTouchedOrReplacedFileIsReadAgain() throws {
        let dir = try Fixtures.makeDirectory()
        let paths = try files(2, in: dir)
        let reader = CountingReader()
        let tags = index(dir)
        for path in paths { _ = try tags.track(at: path, reading: reader.read) }
        // Another modification time (same size), then another size, then another inode.
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 5), timespec(tv_sec: 1_000_000, tv_nsec: 5)]
        #expect(utimensat(AT_FDCWD, paths[0].displayString, &times, 0) == 0)
        _ = try tags.track(at: paths[0], reading: reader.read)
        #expect(reader.count == 3)
        _ = try tags.track(at: paths[0], reading: reader.read)
        #expect(reader.count == 3, "the new version is remembered")
        try Fixtures.write(Array("longer content now".utf8) + [UInt8](repeating: 1, count: 99), to: paths[1].displayString)
        _ = try tags.track(at: paths[1], reading: reader.read)
        #expect(reader.count == 4)
        let moved = dir + "/other"
        try Fixtures.write(Array("longer content now".utf8) + [UInt8](repeating: 1, count: 99), to: moved)
        #expect(rename(moved, paths[1].displayString) == 0)
        _ = try tags.track(at: paths[1], reading: reader.read)
        #expect(reader.count == 5, "another inode is another file")
    }

    @Test func aMeasuredLengthReplacesTheEstimate() throws {
        let dir = try Fixtures.makeDirectory()
        let paths = try files(2, in: dir)
        let reader = CountingReader()
        let tags = index(dir)
        for path in paths { _ = try tags.track(at: path, reading: reader.read) }
        tags.noteExactLength(181_000_000, of: paths[0])
        tags.saveNow()
        let reloaded = index(dir)
        let exact = try reloaded.track(at: paths[0], reading: reader.read)
        #expect(exact.length == 181_000_000)
        #expect(!exact.lengthIsEstimate)
        #expect(try reloaded.track(at: paths[1], reading: reader.read).lengthIsEstimate, "only that file")
        #expect(reader.count == 2)
    }

    @Test func aMissingFileIsTheReadersToExplain() throws {
        let dir = try Fixtures.makeDirectory()
        let tags = index(dir)
        let error = #expect(throws: DecodingError.self) {
            try tags.track(at: FilePath(dir + "/gone.mp3")!, reading: { (path) throws(DecodingError) in
                throw DecodingError(path: path, reason: "file not found")
            })
        }
        #expect(error?.reason == "file not found")
    }

    @Test(arguments: ["random", "truncated", "flipped", "huge", "directory"])
    func aCorruptIndexIsIgnoredWithOneLineAndRebuilt(_ damage: String) throws {
        let dir = try Fixtures.makeDirectory()
        let paths = try files(4, in: dir)
        let reader = CountingReader()
        let good = index(dir)
        for path in paths { _ = try good.track(at: path, reading: reader.read) }
        good.saveNow()
        var bytes = try Fixtures.contents(of: good.path)
        switch damage {
        case "random": bytes = (0..<bytes.count).map { _ in UInt8.random(in: 0...255) }
        case "truncated": bytes = Array(bytes.prefix(bytes.count - 7))
        case "flipped": bytes[bytes.count - 3] ^= 0x40
        case "huge": bytes += [UInt8](repeating: 0, count: 2 * 1024 * 1024)
        default:
            try FileManager.default.removeItem(atPath: good.path)
            try FileManager.default.createDirectory(atPath: good.path, withIntermediateDirectories: false)
            bytes = []
        }
        if damage != "directory" { try Fixtures.write(bytes, to: good.path) }

        let log = LogLines()
        let damaged = index(dir, limits: TagIndex.Limits(entries: 1000, bytes: 1024 * 1024), log: log)
        for path in paths { _ = try damaged.track(at: path, reading: reader.read) }
        #expect(reader.count == 8, "nothing believed from a damaged index")
        #expect(log.all.count == 1, "\(log.all)")
        #expect(log.all.first?.contains("ignored") == true)
        if damage == "directory" { return }
        damaged.saveNow()
        let rebuilt = index(dir)
        for path in paths { _ = try rebuilt.track(at: path, reading: reader.read) }
        #expect(reader.count == 8, "the rebuilt index answers")
    }

    @Test func theIndexIsBoundedLeastRecentlyUsedFirst() throws {
        let dir = try Fixtures.makeDirectory()
        let paths = try files(30, in: dir)
        let reader = CountingReader()
        let tags = index(dir, limits: TagIndex.Limits(entries: 10, bytes: 64 * 1024 * 1024))
        for path in paths.prefix(10) { _ = try tags.track(at: path, reading: reader.read) }
        // The first file is used again: it is the most recent now.
        _ = try tags.track(at: paths[0], reading: reader.read)
        for path in paths.dropFirst(10) { _ = try tags.track(at: path, reading: reader.read) }
        #expect(tags.count <= 10)
        #expect(tags.count >= 5)
        let before = reader.count
        _ = try tags.track(at: paths[29], reading: reader.read)
        #expect(reader.count == before, "the newest entry is kept")
        _ = try tags.track(at: paths[1], reading: reader.read)
        #expect(reader.count == before + 1, "an old one was dropped")

        // The byte bound: a few hundred bytes hold a handful of entries only.
        let small = index(try Fixtures.makeDirectory(), limits: TagIndex.Limits(entries: 1000, bytes: 1200))
        for path in paths { _ = try small.track(at: path, reading: reader.read) }
        small.saveNow()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: small.path)[.size] as? Int)
        #expect(size <= 1200)
        #expect(small.count >= 1)
    }

    @Test func aSaveIsDebouncedAndAtomic() throws {
        let dir = try Fixtures.makeDirectory()
        let paths = try files(5, in: dir)
        let reader = CountingReader()
        let tags = TagIndex(path: dir + "/tags.index", saveDelay: 0.2, log: { _ in })
        for path in paths { _ = try tags.track(at: path, reading: reader.read) }
        #expect(!FileManager.default.fileExists(atPath: tags.path), "not saved per file")
        let deadline = Date(timeIntervalSinceNow: 10)
        while !FileManager.default.fileExists(atPath: tags.path), Date() < deadline { usleep(20_000) }
        #expect(FileManager.default.fileExists(atPath: tags.path))
        // Nothing but the index in the folder: the temporary file was renamed over it.
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") || $0.hasSuffix(".index") }
        #expect(names == ["tags.index"])
    }

    @Test func theCodingRejectsEveryPrefixAndNeverTraps() {
        let path: FilePath = "/music/x.mp3"
        var track = Track(path: path, title: "T", artists: ["A"], length: 5)
        track.replayGain = ReplayGainTags(trackGain: 1)
        track.moreTags = [TagValue(.composer, "C"), TagValue(.musicBrainzWorkID, "w")]
        track.audioFormat = AudioFormatFacts(sampleRate: 48000, bitsPerSample: nil, channels: 1)
        let entry = TagIndexEntry(key: TagIndexKey(path: path.bytes, size: 1, modificationNanoseconds: 2, inode: 3),
                                  track: track, lastUsed: 4)
        let bytes = TagIndexCoding.encode([entry, entry])
        #expect((try? TagIndexCoding.decode(bytes, maximumEntries: 10)) == [entry, entry])
        for cut in 0..<bytes.count {
            #expect((try? TagIndexCoding.decode(Array(bytes.prefix(cut)), maximumEntries: 10)) == nil)
        }
        #expect((try? TagIndexCoding.decode(bytes, maximumEntries: 1)) == nil, "more entries than allowed")
    }
}
