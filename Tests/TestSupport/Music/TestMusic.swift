import Foundation

/// Test music, made once per test run with sox (tones) and lame (MP3 + ID3 tags) in a temp dir.
///
/// Durations are exact (sox writes whole samples; lame's info tag lets libmpg123 drop the
/// encoder delay and padding), so a 3 s tone has mpris:length 3000000 µs.
final class TestMusic: Sendable {
    let directory: URL

    // Tagged, for metadata: track 1/3 of "Demo", 3.000 s.
    var alpha: URL { file("a.mp3") }
    // Tagged "Beta", track 2/3, 4 s.
    var beta: URL { file("b.mp3") }
    // No tags; a space in the name (→ %20 in xesam:url). Title must be "c tone".
    var untagged: URL { file("c tone.mp3") }
    // Three 1.5 s tracks "Short One/Two/Three", for queue advance, loop and shuffle.
    var shortTracks: [URL] { ["short1.mp3", "short2.mp3", "short3.mp3"].map(file) }
    // 60 s tones, "Long One" / "Long Two": time to seek, pause and record.
    var long: URL { file("long1.mp3") }
    var long2: URL { file("long2.mp3") }
    // "2 y.mp3" (track 2, "Two") and "10 z.mp3" (track 10, "Ten"): plain string order is wrong.
    var albumDirectory: URL { file("album") }
    // Relative paths and #EXTINF lines: ../a.mp3 then ../b.mp3.
    var playlist: URL { file("lists/mix.m3u") }
    // Not music at all.
    var empty: URL { file("bad/empty.mp3") }
    var random: URL { file("bad/random.mp3") }
    var wavRenamed: URL { file("bad/wav-renamed.mp3") }
    var missing: URL { file("bad/missing.mp3") }
    // A folder with no playable file (a text file only).
    var emptyDirectory: URL { file("emptydir") }

    static let alphaLengthMicroseconds: Int64 = 3_000_000

    func file(_ relativePath: String) -> URL {
        directory.appendingPathComponent(relativePath)
    }

    private init(directory: URL) {
        self.directory = directory
    }

    /// The fixtures of this run, made on first use.
    static func shared() throws -> TestMusic {
        try made.get()
    }

    private static let made: Result<TestMusic, any Error> = Result {
        TestMusic(directory: try FixtureCache.folder("music") { try make(in: $0) })
    }

    private struct Tone {
        var name: String
        var seconds: Double
        var frequency: Int
        var tags: [String]
    }

    private static func make(in directory: URL) throws {
        for sub in ["album", "lists", "bad", "emptydir"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(sub),
                                                    withIntermediateDirectories: true)
        }
        let fixtures = TestMusic(directory: directory)

        let demo = ["--tl", "Demo", "--ta", "Ann", "--tv", "TPE2=Various", "--tg", "Rock", "--ty", "2009",
                    "--tv", "TPOS=1/1"]
        let tones = [
            Tone(name: "a.mp3", seconds: 3, frequency: 440, tags: ["--tt", "Alpha", "--tn", "1/3"] + demo),
            Tone(name: "b.mp3", seconds: 4, frequency: 660, tags: ["--tt", "Beta", "--tn", "2/3"] + demo),
            Tone(name: "c tone.mp3", seconds: 2, frequency: 550, tags: []),
            Tone(name: "short1.mp3", seconds: 1.5, frequency: 500, tags: ["--tt", "Short One", "--tn", "1"]),
            Tone(name: "short2.mp3", seconds: 1.5, frequency: 600, tags: ["--tt", "Short Two", "--tn", "2"]),
            Tone(name: "short3.mp3", seconds: 1.5, frequency: 700, tags: ["--tt", "Short Three", "--tn", "3"]),
            Tone(name: "long1.mp3", seconds: 60, frequency: 330, tags: ["--tt", "Long One"]),
            Tone(name: "long2.mp3", seconds: 60, frequency: 392, tags: ["--tt", "Long Two"]),
            Tone(name: "album/2 y.mp3", seconds: 2, frequency: 480, tags: ["--tt", "Two", "--tn", "2", "--tl", "Order"]),
            Tone(name: "album/10 z.mp3", seconds: 2, frequency: 520, tags: ["--tt", "Ten", "--tn", "10", "--tl", "Order"]),
        ]
        let wav = directory.appendingPathComponent("tone.wav")
        for tone in tones {
            try makeTone(tone, wav: wav, in: directory)
        }
        // A WAV file under an .mp3 name (-t: sox would pick the type from the extension): libmpg123 rejects it.
        try check(Shell.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", "-t", "wav",
                                    fixtures.wavRenamed.path, "synth", "1", "sine", "440"]), "sox (wav)")
        try? FileManager.default.removeItem(at: wav)

        try Data().write(to: fixtures.empty)
        var generator = SystemRandomNumberGenerator()
        try Data((0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: fixtures.random)
        try "not music\n".write(to: fixtures.emptyDirectory.appendingPathComponent("notes.txt"),
                                atomically: true, encoding: .utf8)
        try """
            #EXTM3U
            #EXTINF:3,Ann - Alpha
            ../a.mp3
            #EXTINF:4,Ann - Beta
            ../b.mp3

            """.write(to: fixtures.playlist, atomically: true, encoding: .utf8)
    }

    private static func makeTone(_ tone: Tone, wav: URL, in directory: URL) throws {
        // Half amplitude: clearly audible on the monitor, no clipping.
        try check(Shell.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav.path,
                                    "synth", String(tone.seconds), "sine", String(tone.frequency), "vol", "0.5"]),
                  "sox (\(tone.name))")
        let output = directory.appendingPathComponent(tone.name)
        let tagging = tone.tags.isEmpty ? [] : ["--add-id3v2"] + tone.tags
        try check(Shell.run("lame", ["--quiet", "-b", "128"] + tagging + [wav.path, output.path], timeout: 120),
                  "lame (\(tone.name))")
    }

    private static func check(_ result: CommandResult, _ what: String) throws {
        guard result.succeeded else { throw DaemonError("making test music failed: \(what): \(result)") }
    }
}

/// One directory per test process for everything the tests write (music, the daemons' homes),
/// removed when the process exits.
enum TestRunDirectory {
    static let url: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("aubade-it-\(getpid())", isDirectory: true)
        try? FileManager.default.removeItem(at: url)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit {
            // XCTest ends the process with exit(), so this runs after the last test.
            try? FileManager.default.removeItem(at: TestRunDirectory.url)
        }
        return url
    }()
}
