import Foundation

/// The Snapcast tests' music, made once (FixtureCache) and copied into each test process:
/// pink noise (what cross-correlation lines up best) with tags, tones of two formats, silence.
struct SnapcastMusic {
    let directory: URL
    var noise: URL { directory.appendingPathComponent("noise.mp3") }
    var noise2: URL { directory.appendingPathComponent("noise2.mp3") }
    /// 44.1 kHz mono, 440 Hz, 1.5 s: "Mono Tone".
    var monoTone: URL { directory.appendingPathComponent("mono.mp3") }
    /// 48 kHz stereo, 660 Hz, 1.5 s: "Stereo Tone".
    var stereoTone: URL { directory.appendingPathComponent("stereo.mp3") }
    /// 44.1 kHz, 330 Hz for 30 s: "Long Tone".
    var longTone: URL { directory.appendingPathComponent("long.mp3") }
    /// 44.1 kHz stereo, 1 s of digital silence: "Silence".
    var silence: URL { directory.appendingPathComponent("silence.mp3") }

    static func shared() throws -> SnapcastMusic { try made.get() }
    private static let made: Result<SnapcastMusic, any Error> = Result { try make() }

    private static func make() throws -> SnapcastMusic {
        SnapcastMusic(directory: try FixtureCache.folder("snapcast-music") { try make(in: $0) })
    }

    private static func make(in directory: URL) throws {
        let music = SnapcastMusic(directory: directory)
        let wav = music.directory.appendingPathComponent("make.wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        func make(_ output: URL, rate: Int, channels: Int, synth: [String], tags: [String]) throws {
            let sox = try Shell.run("sox", ["-q", "-n", "-r", "\(rate)", "-c", "\(channels)", "-b", "16", wav.path, "synth"] + synth)
            guard sox.succeeded else { throw DaemonError("sox: \(sox)") }
            let lame = try Shell.run("lame", ["--quiet", "-b", "192", "--add-id3v2"] + tags + [wav.path, output.path], timeout: 120)
            guard lame.succeeded else { throw DaemonError("lame: \(lame)") }
        }
        try make(music.noise, rate: 48_000, channels: 2, synth: ["30", "pinknoise", "vol", "0.5"],
                 tags: ["--tt", "House Noise", "--ta", "Ada", "--tl", "Rooms"])
        try make(music.noise2, rate: 48_000, channels: 2, synth: ["30", "brownnoise", "vol", "0.5"],
                 tags: ["--tt", "Second Noise", "--ta", "Bo", "--tl", "Rooms"])
        try make(music.monoTone, rate: 44_100, channels: 1, synth: ["1.5", "sine", "440", "vol", "0.5"], tags: ["--tt", "Mono Tone"])
        try make(music.stereoTone, rate: 48_000, channels: 2, synth: ["1.5", "sine", "660", "vol", "0.5"], tags: ["--tt", "Stereo Tone"])
        try make(music.longTone, rate: 44_100, channels: 2, synth: ["30", "sine", "330", "vol", "0.5"], tags: ["--tt", "Long Tone"])
        try make(music.silence, rate: 44_100, channels: 2, synth: ["1", "sine", "440", "vol", "0"], tags: ["--tt", "Silence"])
    }
}
