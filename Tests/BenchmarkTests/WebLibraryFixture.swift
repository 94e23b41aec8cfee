import Foundation
@testable import TestSupport

/// The web benchmark's library (`AUBADE_BENCH_WEB_ALBUMS` albums of 10 tracks, default 2,000 =
/// 20,000 tracks), generated once into `.build/bench/web-library` and reused; shared by Aubade
/// and Mopidy. Unlike the MPD benchmark's copies of one tagged file, every album needs tags of
/// its own (a cover grid of 2,000 albums), so `Tests/TestSupport/Scripts/web_library.py` writes
/// each file whole: one second of a tone (sox + lame, 32 kbit/s mono, made here) behind an
/// ID3v2.4 tag it writes itself (seconds for 20,000 files), the last album's last track ten
/// minutes long (it plays while the benchmark toggles play and pause), and in 3 of 4 album
/// folders a `cover.jpg` (600×600, one of eight Mandelbrot pictures made here with ffmpeg, made
/// distinct per album by a JPEG comment). What it made is in `web-library.json` beside it.
struct WebLibraryFixture {
    let directory: URL
    let albums: Int

    var manifest: URL { directory.deletingLastPathComponent().appendingPathComponent("web-library.json") }
    var basesDirectory: URL { directory.deletingLastPathComponent().appendingPathComponent("web-library-bases", isDirectory: true) }

    struct Facts {
        var count: Int
        var albums: Int
        var covers: Int
        var searchWord: String
        var searchMatches: Int
        var longTrack: String
        var bytes: Int
        var seconds: Double
        var made: String
    }

    /// Makes the library unless a complete one of this size is there; its facts and a line
    /// saying which.
    func prepare() throws -> (Facts, String) {
        if let facts = try? read(), facts.albums == albums,
           FileManager.default.fileExists(atPath: directory.appendingPathComponent(facts.longTrack).path) {
            return (facts, String(format: "reused the library in %@ (%d tracks, made %@ in %.1f s; delete it to make it again)",
                                  directory.path, facts.count, facts.made, facts.seconds))
        }
        let started = Date()
        try? FileManager.default.removeItem(at: manifest)
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.removeItem(at: basesDirectory)
        let covers = basesDirectory.appendingPathComponent("covers", isDirectory: true)
        try FileManager.default.createDirectory(at: covers, withIntermediateDirectories: true)
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
        // Eight pictures, each 600×600 and 60-110 kB: Mandelbrot sets at eight scales.
        for index in 0..<8 {
            let picture = "mandelbrot=size=600x600:start_scale=\(0.5 / Double(index + 1)):outer=normalized_iteration_count"
            let ffmpeg = try Shell.run("ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", picture, "-frames:v", "1",
                                                  "-q:v", "5", covers.appendingPathComponent("cover-\(index).jpg").path], timeout: 120)
            guard ffmpeg.succeeded else { throw DaemonError("ffmpeg: \(ffmpeg)") }
        }
        let script = try PythonScript.arguments("web_library", ["make", directory.path, base, long, covers.path, "\(albums)", "10",
                                                                manifest.path])
        let made = try Shell.run(PythonScript.interpreter, script, timeout: 1800)
        guard made.succeeded else { throw DaemonError("web_library.py make: \(made)") }
        let facts = try read()
        return (facts, String(format: "generated the library in %.0f s (the script %.1f s): %d tracks, %.0f MB, in %@ (reused by the next runs)",
                              Date().timeIntervalSince(started), facts.seconds, facts.count, Double(facts.bytes) / 1e6, directory.path))
    }

    func read() throws -> Facts {
        let data = try Data(contentsOf: manifest)
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              root["version"] as? Int == 1,
              let count = root["count"] as? Int, let albums = root["albums"] as? Int, let covers = root["covers"] as? Int,
              let word = root["searchWord"] as? String, let matches = root["searchMatches"] as? Int,
              let long = (root["longTrack"] as? [String: Any])?["uri"] as? String, let bytes = root["bytes"] as? Int,
              let made = root["made"] as? String
        else { throw DaemonError("\(manifest.path): not a web library manifest of version 1") }
        return Facts(count: count, albums: albums, covers: covers, searchWord: word, searchMatches: matches, longTrack: long,
                     bytes: bytes, seconds: root["seconds"] as? Double ?? 0, made: made)
    }
}
