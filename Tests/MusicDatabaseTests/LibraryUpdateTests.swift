import Decoding
import Foundation
import Testing
@testable import MusicDatabase
import PlayerCore
import TestSupport

/// The living library: its start, jobs and events, inotify, limits, cache, odd names.
@Suite struct LibraryUpdateTests {
    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [LibraryEvent] = []
        var sink: @Sendable (LibraryEvent) -> Void { { [self] event in lock.withLock { list.append(event) } } }
        var all: [LibraryEvent] { lock.withLock { list } }
        var finished: [Int] { all.compactMap { if case .updateFinished(let job) = $0 { job } else { nil } } }
        var started: [Int] { all.compactMap { if case .updateStarted(let job) = $0 { job } else { nil } } }
        var changes: Int { all.filter { if case .changed = $0 { true } else { false } }.count }
    }

    func makeLibrary(_ files: TestLibrary, cache: String? = nil, watch: Bool = false, songLimit: Int = 1_000_000,
                     log: LogRecorder = LogRecorder(), events: Events = Events()) -> MusicLibrary {
        let library = MusicLibrary(configuration: LibraryConfiguration(folders: [files.path], cacheFile: cache, songLimit: songLimit,
                                                                       watch: watch, debounce: .milliseconds(100)),
                                   reader: files.reader, log: log.sink)
        library.events = events.sink
        return library
    }

    @Test func startsScansAndAnswersJobsInOrder() throws {
        let files = try TestLibrary()
        try files.add("A/one.mp3", tags: [("Title", "One")])
        let events = Events()
        let library = makeLibrary(files, events: events)
        library.start()
        #expect(eventually { library.snapshot.songCount == 1 })
        try files.add("A/two.mp3", tags: [("Title", "Two")])
        let first = try #require(library.update(nil, rescan: false))
        let second = try #require(library.update("A", rescan: false))
        #expect(second == first + 1)
        #expect(eventually { events.finished.contains(second) })
        #expect(events.started == [first, second] && events.finished == [first, second])
        #expect(library.snapshot.songCount == 2)
        #expect(library.runningJob == nil)
        // A job that changes nothing sends no `changed`.
        let before = events.changes
        let third = try #require(library.update(nil, rescan: false))
        #expect(eventually { events.finished.contains(third) })
        #expect(events.changes == before)
        // A URI that climbs out gets no job ("Malformed path"); one that names nothing gets a job
        // that changes nothing, as mpd 0.23 gives one (found side by side with mpd).
        #expect(library.update("A/../..", rescan: false) == nil)
        let nowhere = try #require(library.update("Nope", rescan: false))
        #expect(eventually { events.finished.contains(nowhere) })
        #expect(events.changes == before)
        #expect(library.snapshot.songCount == 2)
        library.stop()
    }

    /// A client's thousands of `update`s (a 2 MiB command list holds 300,000): at most
    /// `maximumJobs` wait, the rest are refused, and `stop` drops those waiting instead of
    /// running them all first (30,000 queued updates of 1,500 songs kept a daemon scanning, and
    /// SIGTERM waiting, for 25 minutes).
    @Test func updatesAreCappedAndStopDropsThoseWaiting() throws {
        let files = try TestLibrary()
        for index in 0..<50 { try files.add("A/\(index).mp3", tags: [("Title", "\(index)")]) }
        let library = makeLibrary(files, events: Events())
        library.start()
        #expect(eventually { library.snapshot.songCount == 50 })
        var accepted = 0
        var mostPending = 0
        for _ in 0..<10_000 {
            if library.update(nil, rescan: true) != nil { accepted += 1 }
            mostPending = max(mostPending, library.pendingJobs)
        }
        #expect(mostPending <= MusicLibrary.maximumJobs)
        #expect(accepted < 10_000)
        let started = ContinuousClock.now
        library.stop()
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(library.pendingJobs == 0)
        #expect(library.update(nil, rescan: false) == nil)
    }

    @Test func updateReadsOnlyChangedFilesAndRescanReadsAll() throws {
        let files = try TestLibrary()
        for index in 0..<5 { try files.add("A/\(index).mp3", tags: [("Title", "\(index)")]) }
        let events = Events()
        let library = makeLibrary(files, events: events)
        library.start()
        #expect(eventually { library.snapshot.songCount == 5 })
        let readsAfterStart = files.reads
        files.setTags("A/3.mp3", [("Title", "three")])
        try Fixtures.write([1, 2, 3], to: files.folder + "/A/3.mp3")  // size changes
        let job = try #require(library.update(nil, rescan: false))
        #expect(eventually { events.finished.contains(job) })
        #expect(files.reads == readsAfterStart + 1)
        #expect(library.snapshot.song(uri: "A/3.mp3")?.values(of: .title) == ["three"])
        let rescan = try #require(library.update("A", rescan: true))
        #expect(eventually { events.finished.contains(rescan) })
        #expect(files.reads == readsAfterStart + 6)
        library.stop()
    }

    @Test func inotifySeesFilesAddedChangedAndRemoved() throws {
        let files = try TestLibrary()
        try files.add("A/one.mp3", tags: [("Title", "One")])
        let library = makeLibrary(files, watch: true)
        library.start()
        #expect(eventually { library.snapshot.songCount == 1 })
        try files.add("A/two.mp3", tags: [("Title", "Two")])
        #expect(eventually { library.snapshot.song(uri: "A/two.mp3") != nil })
        files.setTags("A/one.mp3", [("Title", "Uno")])
        try Fixtures.write([7], to: files.folder + "/A/one.mp3")
        #expect(eventually { library.snapshot.song(uri: "A/one.mp3")?.values(of: .title) == ["Uno"] })
        try FileManager.default.removeItem(atPath: files.folder + "/A/two.mp3")
        #expect(eventually { library.snapshot.song(uri: "A/two.mp3") == nil })
        // A new folder with music, and one removed whole.
        try files.add("B/C/three.mp3", tags: [("Title", "Three")])
        #expect(eventually { library.snapshot.song(uri: "B/C/three.mp3") != nil })
        try FileManager.default.removeItem(atPath: files.folder + "/B")
        #expect(eventually { library.snapshot.directory(uri: "B") == nil })
        library.stop()
    }

    @Test func theCacheIsUsedAtTheNextStart() throws {
        let files = try TestLibrary.mpdReference()
        let cache = try Fixtures.makeDirectory() + "/library.db"
        let first = makeLibrary(files, cache: cache)
        first.start()
        #expect(eventually { first.snapshot.songCount == 64 })
        first.stop()
        #expect(FileManager.default.fileExists(atPath: cache))
        let readsBefore = files.reads
        let events = Events()
        let second = makeLibrary(files, cache: cache, events: events)
        second.start()
        #expect(eventually { second.snapshot.songCount == 64 })
        let root = try #require(second.snapshot.directory(uri: ""))
        #expect(render(second.snapshot.walk(from: root)) == MPDReference.listall)
        second.stop()
        #expect(files.reads == readsBefore)  // nothing read again: every file unchanged
    }

    @Test func aCorruptCacheIsOneLogLineAndARebuild() throws {
        let files = try TestLibrary()
        try files.add("x.mp3", tags: [("Title", "X")])
        let cache = try Fixtures.makeDirectory() + "/library.db"
        for junk: [UInt8] in [Array("garbage".utf8), Array(repeating: 0xFF, count: 4096),
                              Array("AUBADE-LIBRARY1\n".utf8) + Array(repeating: 0, count: 100)] {
            try Fixtures.write(junk, to: cache)
            let log = LogRecorder()
            let library = makeLibrary(files, cache: cache, log: log)
            library.start()
            #expect(eventually { library.snapshot.songCount == 1 })
            library.stop()
            #expect(log.all.filter { $0.contains("cache") }.count == 1)
        }
        // Rewritten whole: it loads at the next start.
        let reloaded = try LibraryCacheCoding.decode(Fixtures.contents(of: cache))
        #expect(reloaded.content.songs.count == 1)
    }

    @Test func cacheDecodingRefusesEveryDamage() throws {
        let snapshot = try TestLibrary.mpdReference().snapshot()
        let bytes = LibraryCacheCoding.encode(snapshot.content, updated: 42)
        let decoded = try LibraryCacheCoding.decode(bytes)
        #expect(decoded.updated == 42 && decoded.content.songs == snapshot.content.songs)
        // Any byte flipped, or the file cut anywhere: refused (checksum, lengths), never a crash.
        for offset in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 300)) {
            var damaged = bytes
            damaged[offset] ^= 0x5A
            #expect(throws: LibraryCacheCoding.Corrupt.self) { try LibraryCacheCoding.decode(damaged) }
            #expect(throws: LibraryCacheCoding.Corrupt.self) { try LibraryCacheCoding.decode(Array(bytes.prefix(offset))) }
        }
        // A forged file with a good checksum but a bad tree is refused by the checks.
        var content = snapshot.content
        content.directories[1].end = 0
        #expect(throws: LibraryCacheCoding.Corrupt.self) { try LibraryCacheCoding.decode(LibraryCacheCoding.encode(content, updated: 0)) }
        content = snapshot.content
        content.songs[3].tagStart = UInt32.max - 2
        #expect(throws: LibraryCacheCoding.Corrupt.self) { try LibraryCacheCoding.decode(LibraryCacheCoding.encode(content, updated: 0)) }
    }

    @Test func rereadingFilesDoesNotGrowTheTablesForever() throws {
        let files = try TestLibrary()
        for index in 0..<300 { try files.add("A/\(index).mp3", tags: [("Title", "T\(index)")]) }
        let events = Events()
        let library = makeLibrary(files, events: events)
        library.start()
        #expect(eventually { library.snapshot.songCount == 300 })
        for round in 0..<30 {
            // New values each round: the old ones become garbage in the tables.
            for index in 0..<300 { files.setTags("A/\(index).mp3", [("Title", "T\(index) r\(round)")]) }
            let job = try #require(library.update(nil, rescan: true))
            #expect(eventually { events.finished.contains(job) })
        }
        #expect(library.snapshot.song(uri: "A/7.mp3")?.values(of: .title) == ["T7 r29"])
        let content = library.snapshot.content
        #expect(content.tags.count <= 2 * 300 + 4096 + 300)
        #expect(content.strings.count <= 3 * 700 + 10_000 + 700)
        library.stop()
    }

    @Test func theSongLimitIsOneLogLine() throws {
        let files = try TestLibrary()
        for index in 0..<30 { try files.add("A/\(index).mp3", tags: [("Title", "\(index)")]) }
        let log = LogRecorder()
        let snapshot = files.snapshot(songLimit: 10, log: log.sink)
        #expect(snapshot.songCount == 10)
        #expect(log.all.count == 1)
        #expect(log.all.first?.contains("song limit (10)") == true)
    }

    @Test func theWatchLimitIsOneLogLine() throws {
        let files = try TestLibrary()
        for index in 0..<6 { try files.add("F\(index)/x.mp3", tags: [("Title", "\(index)")]) }
        let log = LogRecorder()
        let library = makeLibrary(files, watch: true, log: log)
        library.work.simulatedWatchLimit = 3
        library.start()
        #expect(eventually { log.all.contains { $0.contains("watch limit") } })
        // More folders later: still the one line.
        try files.add("G/y.mp3", tags: [("Title", "y")])
        let job = try #require(library.update(nil, rescan: false))
        #expect(eventually { library.runningJob == nil && library.snapshot.song(uri: "G/y.mp3") != nil })
        _ = job
        library.stop()
        let lines = log.all.filter { $0.contains("watch limit") }
        #expect(lines.count == 1)
        #expect(lines.first?.contains("at 3 folders") == true && lines.first?.contains("and 3 other folders") == true)
    }

    @Test func unreadableFilesAreOneSummaryLine() throws {
        let files = try TestLibrary()
        for index in 0..<20 { try files.add("bad\(index).mp3") }
        try Fixtures.write([], to: files.folder + "/untagged-by-the-fake.mp3")  // the fake reader refuses it
        try files.add("good.mp3", tags: [("Title", "Good")])
        let log = LogRecorder()
        // The fake reader refuses files it has no tags for.
        for index in 0..<20 { files.setTags("bad\(index).mp3", []) }
        let snapshot = MusicLibrary.build(configuration: LibraryConfiguration(folders: [files.path]), reader: { path throws(Decoding.DecodingError) in
            guard path.displayString.hasSuffix("good.mp3") else { throw Decoding.DecodingError(path: path, reason: "not an MP3 file") }
            return Track(path: path, title: "Good")
        }, log: log.sink)
        #expect(snapshot.songCount == 1)
        #expect(log.all.count == 1)
        #expect(log.all.first?.hasPrefix("library: 21 files not read") == true)
    }

    @Test func aFileThatVanishesBeforeItIsReadIsSimplyGone() throws {
        let files = try TestLibrary()
        try files.add("stays.mp3", tags: [("Title", "Stays")])
        try files.add("goes.mp3", tags: [("Title", "Goes")])
        let log = LogRecorder()
        let snapshot = MusicLibrary.build(configuration: LibraryConfiguration(folders: [files.path]), reader: { path throws(Decoding.DecodingError) in
            if path.displayString.hasSuffix("goes.mp3") {
                // Deleted between the listing and the read, as a user's `rm` might.
                unlink(path.displayString)
                throw Decoding.DecodingError(path: path, reason: "file not found")
            }
            return Track(path: path, title: "Stays")
        }, log: log.sink)
        #expect(snapshot.songCount == 1 && snapshot.song(uri: "stays.mp3") != nil)
        #expect(log.all.isEmpty)
    }

    @Test func namesThatAreNotUTF8OrHaveControlCharacters() throws {
        let files = try TestLibrary()
        let folder: [UInt8] = Array(files.folder.utf8) + [UInt8(ascii: "/")]
        let latin: [UInt8] = folder + Array("caf".utf8) + [0xE9] + Array(".mp3".utf8)
        try Fixtures.write([], toPathBytes: latin)
        try Fixtures.write([], toPathBytes: folder + Array("café.mp3".utf8))
        try Fixtures.write([], toPathBytes: folder + Array("tab\tname.mp3".utf8))
        try Fixtures.write([], toPathBytes: folder + Array("new\nline.mp3".utf8))
        let snapshot = MusicLibrary.build(configuration: LibraryConfiguration(folders: [files.path]),
                                          reader: { path throws(Decoding.DecodingError) in Track(path: path) })
        let root = try #require(snapshot.directory(uri: ""))
        let uris = snapshot.contents(of: root).compactMap { entry -> String? in
            if case .song(let song) = entry { song.uri } else { nil }
        }
        // The UTF-8 name keeps its text; the Latin-1 one, shown alike, is numbered; the tab is
        // shown as ␉; the name with a newline is skipped (as mpd does).
        #expect(Set(uris) == ["café.mp3", "café (2).mp3", "tab␉name.mp3"])
        #expect(snapshot.filePath(forURI: "café (2).mp3")?.bytes == latin)
        let utf8: [UInt8] = folder + Array("café.mp3".utf8)
        let tab: [UInt8] = folder + Array("tab\tname.mp3".utf8)
        #expect(snapshot.filePath(forURI: "café.mp3")?.bytes == utf8)
        #expect(snapshot.filePath(forURI: "tab␉name.mp3")?.bytes == tab)
        #expect(snapshot.song(uri: "café (2).mp3")?.path.bytes == latin)
        #expect(snapshot.uri(of: FilePath(bytes: latin)!) == "café (2).mp3")
    }

    @Test func severalFoldersAreTopLevelFolders() throws {
        let first = try TestLibrary(), second = try TestLibrary()
        let music1 = first.folder + "/Music", music2 = second.folder + "/Music"
        try first.add("Music/a.mp3", tags: [("Title", "A")])
        try second.add("Music/b.mp3", tags: [("Title", "B")])
        let reader: @Sendable (FilePath) throws(Decoding.DecodingError) -> Track = { path throws(Decoding.DecodingError) in Track(path: path) }
        let snapshot = MusicLibrary.build(configuration: LibraryConfiguration(folders: [FilePath(music1)!, FilePath(music2)!]),
                                          reader: reader)
        #expect(snapshot.song(uri: "Music/a.mp3") != nil)
        #expect(snapshot.song(uri: "Music (2)/b.mp3")?.path == FilePath(music2 + "/b.mp3"))
        #expect(snapshot.uri(of: FilePath(music2 + "/b.mp3")!) == "Music (2)/b.mp3")
        #expect(snapshot.filePath(forURI: "Music (2)/b.mp3") == FilePath(music2 + "/b.mp3"))
    }

    @Test func foldersNestedTooDeepAreOneLogLine() throws {
        let files = try TestLibrary()
        let shallow = Array(repeating: "d", count: 10).joined(separator: "/")
        let deep = Array(repeating: "d", count: ScanReport.depthLimit + 5).joined(separator: "/")
        try files.add(shallow + "/near.mp3", tags: [("Title", "Near")])
        try files.add(deep + "/far.mp3", tags: [("Title", "Far")])
        let log = LogRecorder()
        let snapshot = files.snapshot(log: log.sink)
        #expect(snapshot.song(uri: shallow + "/near.mp3") != nil)
        #expect(snapshot.songCount == 1)
        #expect(log.all.count == 1 && log.all.first?.contains("deep") == true)
    }

    @Test func symlinkLoopsAreWalkedOnce() throws {
        let files = try TestLibrary()
        try files.add("A/one.mp3", tags: [("Title", "One")])
        try FileManager.default.createSymbolicLink(atPath: files.folder + "/A/loop", withDestinationPath: files.folder)
        let snapshot = files.snapshot()
        #expect(snapshot.songCount == 1)
    }
}
