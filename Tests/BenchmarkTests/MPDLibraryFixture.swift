import Foundation
@testable import TestSupport

/// The MPD benchmark's library (`AUBADE_BENCH_MPD_TRACKS`, default 100,000 tracks), generated
/// once into `.build/bench/mpd-library` and reused: one short real MP3 (1 s of a tone, sox +
/// lame, 32 kbit/s mono) copied and tagged with python3-mutagen by
/// `Tests/TestSupport/Scripts/mpd_library.py`, which says what the library holds (about 2,000
/// artists, albums of 10 in `Artist/Album/NN Title.mp3`, compilations and album artists, 8
/// genres, years, 3 % of the tracks in one `Singles` folder). One single is a 10-minute MP3
/// instead (for the idle wake-up, which needs a song that plays on). Its facts — the search
/// word, an album, the big folder, the file to retag — are in `mpd-library.json` beside it.
struct MPDLibraryFixture {
    /// The manifest the script writes, plus the long track.
    struct Facts {
        var count: Int
        var searchWord: String
        var searchMatches: Int
        var album: String
        var albumTracks: Int
        var bigFolder: String
        var bigFolderFiles: Int
        var retagFile: String
        var retagFolder: String
        var longTrack: String
        var folders: Int
        var artists: Int
        var albums: Int
        var bytes: Int
        /// How long the script took to write it (when it was made, maybe in an earlier run).
        var seconds: Double
        var made: String
    }

    let directory: URL
    let count: Int

    var manifest: URL { directory.deletingLastPathComponent().appendingPathComponent("mpd-library.json") }
    /// Beside the library, not in it (mpd does not skip anything it can read).
    var basesDirectory: URL { directory.deletingLastPathComponent().appendingPathComponent("mpd-library-bases", isDirectory: true) }

    /// Makes the library unless a complete one of this size is there; returns its facts and a
    /// line saying which.
    func prepare() throws -> (Facts, String) {
        if let facts = try? read(), facts.count == count,
           FileManager.default.fileExists(atPath: directory.appendingPathComponent(facts.retagFile).path),
           FileManager.default.fileExists(atPath: directory.appendingPathComponent(facts.longTrack).path) {
            return (facts, String(format: "reused the library in %@ (%d tracks, made %@ in %.0f s; delete it to make it again)",
                                  directory.path, count, facts.made, facts.seconds))
        }
        let started = Date()
        try? FileManager.default.removeItem(at: manifest)
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.removeItem(at: basesDirectory)
        try FileManager.default.createDirectory(at: basesDirectory, withIntermediateDirectories: true)
        let wav = basesDirectory.appendingPathComponent("tone.wav").path
        let base = basesDirectory.appendingPathComponent("base.mp3").path
        let long = basesDirectory.appendingPathComponent("long.mp3").path
        for (seconds, output) in [(1, base), (600, long)] {
            let sox = try Shell.run("sox", ["-q", "-n", "-r", "22050", "-c", "1", "-b", "16", wav, "synth", "\(seconds)", "sine", "440",
                                            "vol", "0.5"], timeout: 300)
            guard sox.succeeded else { throw DaemonError("sox: \(sox)") }
            let lame = try Shell.run("lame", ["--quiet", "-b", "32", "-m", "m", wav, output], timeout: 300)
            guard lame.succeeded else { throw DaemonError("lame: \(lame)") }
        }
        try? FileManager.default.removeItem(atPath: wav)
        let script = try PythonScript.arguments("mpd_library", ["make", directory.path, base, "\(count)", manifest.path, long])
        let made = try Shell.run(PythonScript.interpreter, script, timeout: 3600)
        guard made.succeeded else { throw DaemonError("mpd_library.py make: \(made)") }
        let facts = try read()
        return (facts, String(format: "generated the library in %.0f s (the script %.0f s): %d tracks, %.0f MB, in %@ (reused by the next runs)",
                              Date().timeIntervalSince(started), facts.seconds, count, Double(facts.bytes) / 1e6, directory.path))
    }

    func read() throws -> Facts {
        let data = try Data(contentsOf: manifest)
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw DaemonError("\(manifest.path): not an object") }
        func string(_ key: String) throws -> String {
            guard let value = root[key] as? String else { throw DaemonError("\(manifest.path): no \(key)") }
            return value
        }
        func int(_ key: String) throws -> Int {
            guard let value = root[key] as? Int else { throw DaemonError("\(manifest.path): no \(key)") }
            return value
        }
        guard try int("version") == 1 else { throw DaemonError("\(manifest.path): another version") }
        return Facts(count: try int("count"), searchWord: try string("searchWord"), searchMatches: try int("searchMatches"),
                     album: try string("album"), albumTracks: try int("albumTracks"), bigFolder: try string("bigFolder"),
                     bigFolderFiles: try int("bigFolderFiles"), retagFile: try string("retagFile"),
                     retagFolder: try string("retagFolder"), longTrack: try string("longTrack"), folders: try int("folders"),
                     artists: try int("artists"), albums: try int("albums"), bytes: try int("bytes"),
                     seconds: root["seconds"] as? Double ?? 0, made: try string("made"))
    }

    /// Two versions of the file to retag, written once per run in `work` by mutagen: the same
    /// tags but the title, which is "Retagged A" or "Retagged B" (the same size, so only the
    /// content and the modification time change), and the original, to put back at the end.
    func retagVariants(facts: Facts, work: URL) throws -> (a: [UInt8], b: [UInt8], original: [UInt8]) {
        let original = directory.appendingPathComponent(facts.retagFile)
        let originalBytes = [UInt8](try Data(contentsOf: original))
        var variants: [[UInt8]] = []
        for title in ["Retagged A", "Retagged B"] {
            let copy = work.appendingPathComponent("retag-\(title.last!).mp3")
            try Data(originalBytes).write(to: copy)
            let result = try Shell.run(PythonScript.interpreter, try PythonScript.arguments("mpd_library", ["retag", copy.path, title]),
                                       timeout: 60)
            guard result.succeeded else { throw DaemonError("mpd_library.py retag: \(result)") }
            variants.append([UInt8](try Data(contentsOf: copy)))
        }
        guard variants[0].count == variants[1].count else { throw DaemonError("the two retagged versions differ in size") }
        return (variants[0], variants[1], originalBytes)
    }

    /// Writes `bytes` over the file in place (open, truncate, one write, close), as a tagger
    /// saving a tag of the same size does; returns the moment the file was closed.
    @discardableResult
    func overwrite(_ relative: String, with bytes: [UInt8]) throws -> Stamp {
        let path = directory.appendingPathComponent(relative).path
        let descriptor = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard descriptor >= 0 else { throw DaemonError("open \(path): \(String(cString: strerror(errno)))") }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == bytes.count else { throw DaemonError("write \(path): \(written) of \(bytes.count) bytes") }
        return Stamp.now()
    }
}

extension MPDLibraryFixture {
    /// Every 100th track's path (the sample whose page-cache residency says how cold "cold" is).
    func sample(facts: Facts) throws -> [URL] {
        var files: [URL] = []
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        var index = 0
        for case let url as URL in walker where url.pathExtension == "mp3" {
            if index % 100 == 0 { files.append(url) }
            index += 1
        }
        return files
    }

    /// The share of the pages of `files` in the page cache now (mmap + mincore, as fincore).
    static func residentShare(_ files: [URL]) -> Double {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var resident = 0
        var total = 0
        for file in files {
            let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            var info = stat()
            guard fstat(descriptor, &info) == 0, info.st_size > 0 else { continue }
            let length = Int(info.st_size)
            guard let map = mmap(nil, length, PROT_READ, MAP_SHARED, descriptor, 0), map != MAP_FAILED else { continue }
            defer { munmap(map, length) }
            let pages = (length + page - 1) / page
            var vector = [UInt8](repeating: 0, count: pages)
            guard mincore(map, length, &vector) == 0 else { continue }
            resident += vector.filter { $0 & 1 != 0 }.count
            total += pages
        }
        return total > 0 ? Double(resident) / Double(total) : 0
    }
}
