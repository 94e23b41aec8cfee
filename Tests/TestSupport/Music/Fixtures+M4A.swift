import Foundation

/// M4A/MP4 and ADTS test files, made with Debian's ffmpeg (AAC-LC with its native encoder,
/// ALAC, the mov muxer's edit list and `covr` atom) and mutagen (the iTunes freeform atoms
/// ffmpeg cannot write: ReplayGain, iTunSMPB). HE-AAC cannot be made here: Debian's ffmpeg has
/// no HE-AAC encoder (that is libfdk-aac).
extension Fixtures {
    public enum M4ACodec: String, Sendable {
        case aac, alac
    }

    /// The tags `makeM4A(tagged: true)` writes, as MPRIS should show them.
    public static let m4aTags: [(key: String, value: String)] = [
        ("artist", "Ann"), ("album_artist", "Various"), ("album", "M4A Demo"), ("track", "3/12"),
        ("disc", "1/2"), ("date", "2011"), ("genre", "Jazz"),
    ]

    /// An M4A of a `seconds`-long `frequency` Hz tone at half amplitude (stereo). `moovAtEnd`:
    /// as ffmpeg writes it by default (the `moov` atom after the audio, as in many downloads);
    /// else `-movflags +faststart` (at the start). `tagged`: `m4aTags`, the title, a PNG
    /// cover (`tinyPNG`) and ReplayGain −6.02 dB / peak 0.5 as freeform atoms.
    public static func makeM4A(at path: String, codec: M4ACodec = .aac, seconds: Double = 2, rate: Int = 44100,
                               frequency: Int = 523, title: String? = nil, tagged: Bool = false,
                               moovAtEnd: Bool = true, extra: [String] = []) throws {
        let key = ["m4a", codec.rawValue, "\(seconds)", "\(rate)", "\(frequency)", title.map { "title=" + $0 } ?? "untitled",
                   "\(tagged)", "\(moovAtEnd)"] + extra
        try FixtureCache.file(at: path, key: key) { path in
            let wav = path + ".source.wav"
            try makeToneWAV(at: wav, seconds: seconds, rate: rate, frequency: frequency)
            defer { try? FileManager.default.removeItem(atPath: wav) }
            try encodeM4A(wav, to: path, codec: codec, title: title, tagged: tagged, moovAtEnd: moovAtEnd, extra: extra)
        }
    }

    /// Four minutes of a tagged AAC M4A (as `makeM4A(seconds: 240, title: "Four Minutes",
    /// tagged: true, moovAtEnd:)` makes it), this process's own copy: made once for every test
    /// and phase (FixtureCache), because each encode takes about 4 s of CPU, and a full `make
    /// test` asked for nine of them.
    public static func fourMinuteM4A(moovAtEnd: Bool) throws -> URL {
        func name(_ moovAtEnd: Bool) -> String { moovAtEnd ? "moov-at-end.m4a" : "moov-at-start.m4a" }
        let folder = try FixtureCache.folder("four-minute-m4a") { folder in
            let wav = folder.appendingPathComponent("source.wav").path
            try makeToneWAV(at: wav, seconds: 240, frequency: 523)
            defer { try? FileManager.default.removeItem(atPath: wav) }
            for atEnd in [true, false] {
                try encodeM4A(wav, to: folder.appendingPathComponent(name(atEnd)).path, title: fourMinuteM4ATitle,
                              tagged: true, moovAtEnd: atEnd)
            }
        }
        return folder.appendingPathComponent(name(moovAtEnd))
    }

    /// The title of `fourMinuteM4A`.
    public static let fourMinuteM4ATitle = "Four Minutes"

    /// Encodes `wav` to M4A (see `makeM4A`).
    public static func encodeM4A(_ wav: String, to path: String, codec: M4ACodec = .aac, title: String? = nil,
                                 tagged: Bool = false, moovAtEnd: Bool = true, extra: [String] = []) throws {
        var arguments = ["-v", "error", "-y", "-i", wav]
        var cover: String?
        if tagged {
            cover = path + ".cover.png"
            try write(tinyPNG, to: cover!)
            arguments += ["-i", cover!, "-map", "0:a", "-map", "1:v", "-c:v", "copy", "-disposition:v", "attached_pic"]
            arguments += m4aTags.flatMap { ["-metadata", "\($0.key)=\($0.value)"] }
        }
        defer { if let cover { try? FileManager.default.removeItem(atPath: cover) } }
        if let title { arguments += ["-metadata", "title=\(title)"] }
        arguments += ["-c:a", codec == .aac ? "aac" : "alac"]
        if codec == .aac { arguments += ["-b:a", "128k"] }
        if !moovAtEnd { arguments += ["-movflags", "+faststart"] }
        try run("ffmpeg", arguments + extra + [path])
        if tagged {
            try setFreeformAtoms(path, ["replaygain_track_gain=-6.02 dB", "replaygain_track_peak=0.500000"])
        }
    }

    /// An AAC M4A with no edit list, its priming and padding told by an `iTunSMPB` atom
    /// instead, as iTunes writes them: 1024 samples of priming, `frames` real ones.
    public static func makeITunesM4A(at path: String, seconds: Double = 3, rate: Int = 44100, frequency: Int = 440,
                                     title: String? = nil) throws {
        let key = ["itunes-m4a", "\(seconds)", "\(rate)", "\(frequency)", title.map { "title=" + $0 } ?? "untitled"]
        try FixtureCache.file(at: path, key: key) { path in
            let wav = path + ".source.wav"
            try makeToneWAV(at: wav, seconds: seconds, rate: rate, frequency: frequency)
            defer { try? FileManager.default.removeItem(atPath: wav) }
            try encodeITunesM4A(wav, to: path, frames: Int(seconds * Double(rate)), title: title)
        }
    }

    public static func encodeITunesM4A(_ wav: String, to path: String, frames: Int, title: String? = nil) throws {
        try encodeM4A(wav, to: path, title: title, extra: ["-use_editlist", "0"])
        let packets = (frames + 1024 + 1023) / 1024
        let padding = packets * 1024 - 1024 - frames
        let smpb = String(format: " 00000000 00000400 %08X %016X 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000",
                          padding, frames)
        try setFreeformAtoms(path, ["iTunSMPB=\(smpb)"])
    }

    /// Raw AAC in ADTS frames (a `.aac` file), `seconds` of a tone.
    public static func makeADTS(at path: String, seconds: Double = 2, frequency: Int = 523) throws {
        try FixtureCache.file(at: path, key: ["adts", "\(seconds)", "\(frequency)"]) { path in
            let wav = path + ".source.wav"
            try makeToneWAV(at: wav, seconds: seconds, frequency: frequency)
            defer { try? FileManager.default.removeItem(atPath: wav) }
            try run("ffmpeg", ["-v", "error", "-y", "-i", wav, "-c:a", "aac", "-b:a", "128k", "-f", "adts", path])
        }
    }

    /// Sets iTunes freeform atoms (`NAME=VALUE`, under com.apple.iTunes) with mutagen; a pair
    /// `atom:NAME=VALUE` sets the text atom NAME (the sort atoms "soar", "soco"…).
    public static func setFreeformAtoms(_ path: String, _ pairs: [String]) throws {
        // Debian's python3-mutagen is in the system python.
        try run(PythonScript.interpreter, [try PythonScript.path("m4a_tags"), path] + pairs)
    }
}
