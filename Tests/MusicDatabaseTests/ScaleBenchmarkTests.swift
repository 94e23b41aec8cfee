import Decoding
import Foundation
import Testing
@testable import MusicDatabase
import PlayerCore
import TestSupport

/// A thread-safe count, for the benchmark's reader.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// A micro benchmark of the database at the size of the library benchmark (100,000 songs
/// in folders of 10; 2,000 artists, 10,000 albums), read by a fake reader, so what is timed
/// is the database alone. Run it optimised, on demand (it writes 100,000 empty files):
/// `AUBADE_DATABASE_BENCH=1 swift test -c release --filter ScaleBenchmarkTests`.
/// It prints the figures; it asserts nothing about time (a benchmark, not a timed test).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["AUBADE_DATABASE_BENCH"] != nil))
struct ScaleBenchmarkTests {
    static let count = Int(ProcessInfo.processInfo.environment["AUBADE_DATABASE_BENCH_SONGS"] ?? "") ?? 100_000

    /// Every third song has an AlbumArtist ("Various NNN"): 43,333 album rows grouped by it.
    /// `AUBADE_DATABASE_BENCH_ALBUMARTISTS=0` leaves them out (as in a library re-tagged with
    /// title, artist and album only: 10,000 rows).
    static let withAlbumArtists = ProcessInfo.processInfo.environment["AUBADE_DATABASE_BENCH_ALBUMARTISTS"] != "0"

    static func tags(of number: Int) -> Track {
        var track = Track(path: "/", title: String(format: "Title %05d", number), artists: [String(format: "Artist %05d", (number - 1) / 50)],
                          album: String(format: "Album %05d", (number - 1) / 10),
                          genres: [["Rock", "Jazz", "Pop", "Electronic", "Classical"][number % 5]],
                          trackNumber: (number - 1) % 10 + 1, date: String(1960 + number % 60), length: 240_000_000)
        if number % 3 == 0 && withAlbumArtists { track.albumArtists = [String(format: "Various %03d", number % 100)] }
        track.audioFormat = AudioFormatFacts(sampleRate: 44100, bitsPerSample: 16, channels: 2)
        return track
    }

    static func residentKilobytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    static func time(_ label: String, runs: Int = 5, _ body: () -> Int) {
        var best = Double.infinity
        var result = 0
        for _ in 0..<runs {
            let start = ContinuousClock.now
            result = body()
            let elapsed = ContinuousClock.now - start
            best = min(best, Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        print(String(format: "database bench: %-44@ %8.2f ms (%d results, best of %d)", label as NSString, best, result, runs))
    }

    @Test func hundredThousandSongs() throws {
        let folder = try Fixtures.makeDirectory() + "/library"
        for number in 1...Self.count {
            let directory = folder + String(format: "/Album %05d", (number - 1) / 10)
            if number % 10 == 1 { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
            _ = FileManager.default.createFile(atPath: directory + String(format: "/%05d song.mp3", number), contents: nil)
        }
        let reader: @Sendable (FilePath) throws(Decoding.DecodingError) -> Track = { path throws(Decoding.DecodingError) in
            let name = path.lastComponent.displayString
            var track = Self.tags(of: Int(name.prefix(5)) ?? 0)
            track.location = .file(path)
            return track
        }
        let before = Self.residentKilobytes()
        let start = ContinuousClock.now
        var snapshot: LibrarySnapshot? = MusicLibrary.build(configuration: LibraryConfiguration(folders: [FilePath(folder)!]), reader: reader)
        let built = ContinuousClock.now - start
        let after = Self.residentKilobytes()
        let s = snapshot!
        print("database bench: \(s.songCount) songs scanned and built in \(built) (walk, stat, fake read, sort)")
        let c = s.content
        let logical = c.songs.count * MemoryLayout<SongRecord>.stride + c.tags.count * 4 + c.strings.footprint
            + c.directories.count * MemoryLayout<DirectoryRecord>.stride
        print("database bench: the snapshot's arrays: \(logical / max(1, s.songCount)) bytes a song (records \(MemoryLayout<SongRecord>.stride) B, "
              + "\(c.tags.count) tags, strings and their index \(c.strings.footprint / max(1, s.songCount)) B a song)")
        print("database bench: RSS \(before) kB before, \(after) kB after: \((after - before) * 1024 / max(1, s.songCount)) bytes a song "
              + "(the builder's tree included); strings \(s.content.strings.count), \(s.content.strings.footprint / 1024) kB")
        Self.time("search any \"title 0099\" (fold, substring)") {
            s.songs(matching: .tag(.any, StringMatch("title 0099", foldCase: true, substring: true))).count
        }
        Self.time("search any \"zzz\" (no match)") {
            s.songs(matching: .tag(.any, StringMatch("zzz", foldCase: true, substring: true))).count
        }
        Self.time("find artist \"Artist 00042\"") { s.songs(matching: .tag(.kind(.artist), StringMatch("Artist 00042"))).count }
        Self.time("find (title =~ 'Title 0[0-9]*5$')") {
            s.songs(matching: .tag(.kind(.title), StringMatch("Title 0[0-9]*5$", isRegex: true))).count
        }
        Self.time("find (genre == 'Jazz') sort -title window 0:100") {
            s.songs(matching: .tag(.kind(.genre), StringMatch("Jazz")), sort: SongOrder(.tag(.title), descending: true),
                        window: 0..<100).count
        }
        Self.time("list album") { s.values(of: .album).count }
        Self.time("list album group albumartist") { s.values(of: .album, groupedBy: [.albumArtist]).count }
        Self.time("list date group album group albumartist") { s.values(of: .date, groupedBy: [.albumArtist, .album]).count }
        Self.time("count group artist") { s.counts(groupedBy: .artist).count }
        Self.time("listallinfo (the whole walk, lazily)") {
            var count = 0
            for _ in s.walk(from: s.directory(uri: "")!) { count += 1 }
            return count
        }
        Self.time("lsinfo of a folder") { s.contents(of: s.directory(uri: "Album 00042")!).count }
        let encodeStart = ContinuousClock.now
        let bytes = LibraryCacheCoding.encode(s.content, updated: 0)
        let encoded = ContinuousClock.now - encodeStart
        let decodeStart = ContinuousClock.now
        _ = try LibraryCacheCoding.decode(bytes)
        print("database bench: cache \(bytes.count / 1024) kB, encoded in \(encoded), decoded and checked in \(ContinuousClock.now - decodeStart)")
        snapshot = nil
        // The daemon's start: the cache loaded and checked against the disk (every file
        // stat'ed, none read), then one folder's change as inotify or `update` brings it.
        let cache = try Fixtures.makeDirectory() + "/library.db"
        let first = MusicLibrary(configuration: LibraryConfiguration(folders: [FilePath(folder)!], cacheFile: cache, watch: false),
                                 reader: reader, log: { _, _ in })
        first.start()
        first.queue.sync {}
        first.stop()
        let readCount = LockedCounter()
        let counting: @Sendable (FilePath) throws(Decoding.DecodingError) -> Track = { path throws(Decoding.DecodingError) in
            readCount.add()
            return try reader(path)
        }
        let library = MusicLibrary(configuration: LibraryConfiguration(folders: [FilePath(folder)!], cacheFile: cache, watch: false),
                                   reader: counting, log: { _, _ in })
        let startTime = ContinuousClock.now
        library.start()
        library.queue.sync {}
        print("database bench: start from the cache and check \(Self.count) files: \(ContinuousClock.now - startTime), "
              + "\(readCount.value) files read")
        _ = FileManager.default.createFile(atPath: folder + "/Album 00042/00425 song.mp3", contents: Data([1]))
        let updateTime = ContinuousClock.now
        _ = library.update("Album 00042", rescan: false)
        library.queue.sync {}
        print("database bench: update of one folder, one file changed, new snapshot published: \(ContinuousClock.now - updateTime)")
        library.stop()
        Fixtures.remove(folder)
    }
}
