import Foundation

/// Makes real audio files for tests with `sox` and `lame` (both installed on the build
/// machine), each test in its own fresh temporary directory so tests can run in parallel.
/// Shared by the test targets that need real MP3s (DecodingTests, LibraryTests).
public enum Fixtures {
    public struct ToolFailed: Error, CustomStringConvertible {
        public var description: String
    }

    /// A new empty directory, inside this test process's own folder under the system temp dir
    /// (`$TMPDIR`, else /tmp). That folder, with everything the tests wrote into it, is removed
    /// when the process exits, so callers need not clean up.
    public static func makeDirectory() throws -> String {
        let path = runDirectory + "/" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// `aubade-tests-<pid>` under the temp dir, made on first use and removed at exit (XCTest and
    /// Swift Testing both end the test process with exit(), after the last test). One folder per
    /// process rather than per call: the tests that make directories are many and none removed
    /// them (two runs of `make test` left hundreds behind).
    private static let runDirectory: String = {
        let path = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
            .appendingPathComponent("aubade-tests-\(getpid())", isDirectory: true).path
        // A folder of an earlier process that had our pid and crashed.
        try? FileManager.default.removeItem(atPath: path)
        atexit {
            try? FileManager.default.removeItem(atPath: Fixtures.runDirectory)
        }
        return path
    }()

    /// A sine-wave WAV file.
    public static func makeWAV(at path: String, seconds: Double = 3, rate: Int = 44100, channels: Int = 2) throws {
        try FixtureCache.file(at: path, key: ["wav", "\(seconds)", "\(rate)", "\(channels)"]) { path in
            // -R: dither seeded the same every run, so a fixture is the same bytes each time
            // (DecoderFuzzTests derives its mutants from them).
            try run("sox", ["-R", "-n", "-r", "\(rate)", "-c", "\(channels)", "-b", "16", path,
                            "synth", "\(seconds)", "sine", "440"])
        }
    }

    /// An MP3 of a sine tone; `lameOptions` add tags etc. (e.g. `["--tt", "Title"]`).
    public static func makeMP3(at path: String, seconds: Double = 3, rate: Int = 44100, channels: Int = 2,
                        lameOptions: [String] = []) throws {
        // An embedded picture (--ti FILE) is another file's contents.
        let key = lameOptions.contains("--ti") ? nil : ["mp3", "\(seconds)", "\(rate)", "\(channels)"] + lameOptions
        try FixtureCache.file(at: path, key: key) { path in
            let wav = path + ".source.wav"
            try makeWAV(at: wav, seconds: seconds, rate: rate, channels: channels)
            defer { try? FileManager.default.removeItem(atPath: wav) }
            try run("lame", ["--quiet", "-b", "192"] + lameOptions + [wav, path])
        }
    }

    /// Options that make lame write the usual tags.
    public static func tagOptions(title: String? = nil, artist: String? = nil, album: String? = nil,
                           track: String? = nil, disc: String? = nil, year: String? = nil,
                           genre: String? = nil, albumArtist: String? = nil) -> [String] {
        var options: [String] = []
        if let title { options += ["--tt", title] }
        if let artist { options += ["--ta", artist] }
        if let album { options += ["--tl", album] }
        if let year { options += ["--ty", year] }
        if let track { options += ["--tn", track] }
        if let genre { options += ["--tg", genre] }
        if let albumArtist { options += ["--tv", "TPE2=\(albumArtist)"] }
        if let disc { options += ["--tv", "TPOS=\(disc)"] }
        return options
    }

    /// An ID3v2 tag (version 3 or 4) with UTF-8 (v2.4) or Latin-1 (v2.3) text frames.
    /// Values are joined with NUL, which ID3v2.4 uses to separate multiple values (and which
    /// separates a TXXX's description from its value, a COMM's language+description from its
    /// text: ("COMM", ["eng", "Text"])). `rawFrames` follow with their bodies as given (UFID).
    public static func id3v2Tag(version: UInt8 = 4, frames: [(String, [String])],
                                rawFrames: [(String, [UInt8])] = []) -> [UInt8] {
        let encoding: UInt8 = version == 4 ? 3 : 0
        let bodies = frames.map { ($0.0, [encoding] + Array($0.1.joined(separator: "\0").utf8)) } + rawFrames
        var body: [UInt8] = []
        for (id, content) in bodies {
            body += Array(id.utf8)
            body += version == 4 ? syncsafe(content.count) : bigEndian(content.count)
            body += [0, 0] + content
        }
        return Array("ID3".utf8) + [version, 0, 0] + syncsafe(body.count) + body
    }

    private static func syncsafe(_ n: Int) -> [UInt8] {
        [UInt8((n >> 21) & 0x7f), UInt8((n >> 14) & 0x7f), UInt8((n >> 7) & 0x7f), UInt8(n & 0x7f)]
    }

    private static func bigEndian(_ n: Int) -> [UInt8] {
        [UInt8((n >> 24) & 0xff), UInt8((n >> 16) & 0xff), UInt8((n >> 8) & 0xff), UInt8(n & 0xff)]
    }

    public static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Writes `bytes` to the file whose path is `pathBytes`, which need not be UTF-8 (a
    /// Latin-1 name): Foundation takes paths as `String` and cannot name such a file.
    public static func write(_ bytes: [UInt8], toPathBytes pathBytes: [UInt8]) throws {
        let fd = (pathBytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        }
        guard fd >= 0 else { throw ToolFailed(description: "open \(pathBytes): errno \(errno)") }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            guard written > 0 else { throw ToolFailed(description: "write \(pathBytes): errno \(errno)") }
            offset += written
        }
    }

    /// Removes `directory` and everything in it, whatever the names' bytes (`rm -rf`:
    /// FileManager skips names that are not UTF-8).
    public static func remove(_ directory: String) {
        try? run("rm", ["-rf", "--", directory])
    }

    public static func contents(of path: String) throws -> [UInt8] {
        try Array(Data(contentsOf: URL(fileURLWithPath: path)))
    }

    public static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let output = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolFailed(description: "\(tool) \(arguments) failed: "
                             + String(decoding: output, as: UTF8.self))
        }
    }
}
