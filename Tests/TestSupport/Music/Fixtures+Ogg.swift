import Foundation

/// Ogg Vorbis and Opus files made with the Debian tools: sox for the tone, oggenc / opusenc to
/// encode it with tags (and vorbiscomment for comment blocks too big for a command line).
extension Fixtures {

    /// A sine-tone Ogg Vorbis file; `tags` become comments (`oggenc -c KEY=value`, repeatable).
    /// `seconds` 0 makes a file with headers and no audio. `serial` fixes the stream's serial
    /// number (the same bytes every run); by default it is random.
    public static func makeVorbis(at path: String, seconds: Double = 1.5, rate: Int = 44_100, channels: Int = 2,
                                  tags: [(String, String)] = [], frequency: Int = 440, serial: UInt32? = nil) throws {
        // A random serial number is not the arguments' alone.
        let key = serial.map { ["vorbis", "\(seconds)", "\(rate)", "\(channels)", "\(frequency)", "\($0)"] + tags.map { "\($0.0)=\($0.1)" } }
        try FixtureCache.file(at: path, key: key) { path in
            let wav = path + ".source.wav"
            try makeTone(at: wav, seconds: seconds, rate: rate, channels: channels, frequency: frequency)
            defer { try? FileManager.default.removeItem(atPath: wav) }
            // oggenc seeds its serial number with the time: two files made in the same second would
            // share it, and glued together they would not make a chained file.
            let serial = String(serial ?? UInt32.random(in: 1...0x7fff_ffff))
            try run("oggenc", ["-Q", "-s", serial] + tags.flatMap { ["-c", "\($0.0)=\($0.1)"] } + ["-o", path, wav])
        }
    }

    /// A sine-tone Opus file. TITLE and ARTIST go through `--title`/`--artist`, other tags
    /// through `--comment KEY=value`; `pictures` are `--picture` specifications
    /// ("3||||cover.png": a front cover). `seconds` 0 makes a file with no audio. `serial`
    /// fixes the stream's serial number (the same bytes every run); by default it is random.
    public static func makeOpus(at path: String, seconds: Double = 1.5, rate: Int = 48_000, channels: Int = 2,
                                tags: [(String, String)] = [], pictures: [String] = [], frequency: Int = 440,
                                serial: UInt32? = nil) throws {
        // A random serial number, or pictures (other files' contents), are not the arguments' alone.
        let key = pictures.isEmpty ? serial.map {
            ["opus", "\(seconds)", "\(rate)", "\(channels)", "\(frequency)", "\($0)"] + tags.map { "\($0.0)=\($0.1)" }
        } : nil
        try FixtureCache.file(at: path, key: key) { path in
            try encodeOpus(at: path, seconds: seconds, rate: rate, channels: channels, tags: tags, pictures: pictures,
                           frequency: frequency, serial: serial)
        }
    }

    private static func encodeOpus(at path: String, seconds: Double, rate: Int, channels: Int, tags: [(String, String)],
                                   pictures: [String], frequency: Int, serial: UInt32?) throws {
        let wav = path + ".source.wav"
        try makeTone(at: wav, seconds: seconds, rate: rate, channels: channels, frequency: frequency)
        defer { try? FileManager.default.removeItem(atPath: wav) }
        var options: [String] = ["--quiet"] + (serial.map { ["--serial", String($0)] } ?? [])
        for (key, value) in tags {
            switch key.uppercased() {
            case "TITLE": options += ["--title", value]
            case "ARTIST": options += ["--artist", value]
            default: options += ["--comment", "\(key)=\(value)"]
            }
        }
        options += pictures.flatMap { ["--picture", $0] }
        try run("opusenc", options + [wav, path])
    }

    /// A METADATA_BLOCK_PICTURE comment value: base64 of a FLAC picture block of `type`.
    public static func pictureComment(type: UInt32, mimeType: String = "image/png", data: [UInt8]) -> String {
        func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xff) } }
        let mime = Array(mimeType.utf8)
        let block = be32(Int(type)) + be32(mime.count) + mime + be32(0) + be32(1) + be32(1) + be32(24) + be32(0)
            + be32(data.count) + data
        return Data(block).base64EncodedString()
    }

    /// Adds `count` comments `key=xxx…` of `bytes` characters each to a Vorbis file
    /// (vorbiscomment reads them from a file: a command line could not hold megabytes).
    public static func appendHugeVorbisComments(to path: String, key: String = "COMMENT", count: Int, bytes: Int) throws {
        let list = path + ".comments.txt"
        let line = key + "=" + String(repeating: "x", count: bytes) + "\n"
        try String(repeating: line, count: count).write(toFile: list, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: list) }
        try run("vorbiscomment", ["-a", "-c", list, path])
    }

    /// A WAV of a sine tone at half amplitude; 0 seconds gives a WAV without samples.
    static func makeTone(at path: String, seconds: Double, rate: Int, channels: Int, frequency: Int) throws {
        try FixtureCache.file(at: path, key: ["ogg-tone", "\(seconds)", "\(rate)", "\(channels)", "\(frequency)"]) { path in
            let length = seconds > 0 ? ["synth", "\(seconds)", "sine", "\(frequency)", "vol", "0.5"] : ["trim", "0", "0"]
            // -R: dither seeded the same every run, so a fixture is the same bytes each time
            // (DecoderFuzzTests derives its mutants from them).
            try run("sox", ["-q", "-R", "-n", "-r", "\(rate)", "-c", "\(channels)", "-b", "16", path] + length)
        }
    }
}
