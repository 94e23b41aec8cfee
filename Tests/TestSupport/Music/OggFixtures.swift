import Foundation

/// The Ogg Vorbis and Opus files of OggPlaybackTests, made with sox, oggenc and opusenc once
/// per test process, each group when a test first needs it (so no test pays for all).
enum OggFixtures {
    typealias Pair = (vorbis: URL, opus: URL)

    /// Tagged 2 s tones (523 Hz, 44.1 kHz stereo): TITLE "Vorbis Tone" / "Opus Tone", ARTIST Ann
    /// and Bob, ALBUM "Ogg Demo", ALBUMARTIST Various, GENRE Jazz, TRACKNUMBER 4, DISCNUMBER 2,
    /// DATE 2011, and `TinyImages.png` as the front cover.
    static func tones() throws -> Pair { try madeTones.get() }
    /// One continuous 6 s 440 Hz tone cut at exactly 3 s, per format (Opus's made at 48 kHz).
    static func gaplessPairs() throws -> (vorbis: [URL], opus: [URL]) { try madeGapless.get() }
    /// Chained files: 1 s of 440 Hz stereo, then a link of 2 s of 660 Hz mono (Vorbis's at 22.05 kHz).
    static func chained() throws -> Pair { try madeChained.get() }

    private static let madeTones: Result<Pair, any Error> = Result {
        let folder = try FixtureCache.folder("ogg-tones") { _ = try makeTones(in: $0) }
        return (folder.appendingPathComponent("tone.ogg"), folder.appendingPathComponent("tone.opus"))
    }
    private static let madeGapless: Result<(vorbis: [URL], opus: [URL]), any Error> = Result {
        let folder = try FixtureCache.folder("ogg-gapless") { _ = try makeGapless(in: $0) }
        let pair = { (codec: String) in ["a", "b"].map { folder.appendingPathComponent("gapless-\($0).\(codec)") } }
        return (pair("ogg"), pair("opus"))
    }
    private static let madeChained: Result<Pair, any Error> = Result {
        let folder = try FixtureCache.folder("ogg-chained") { _ = try makeChained(in: $0) }
        return (folder.appendingPathComponent("chained.ogg"), folder.appendingPathComponent("chained.opus"))
    }

    private static func makeTones(in directory: URL) throws -> Pair {
        func file(_ name: String) -> URL { directory.appendingPathComponent(name) }
        let cover = file("cover.png"), wav = file("tone.wav")
        try TinyImages.png.write(to: cover)
        try sox(["-n", "-r", "44100", "-c", "2", "-b", "16", wav.path, "synth", "2", "sine", "523", "vol", "0.5"])
        defer { try? FileManager.default.removeItem(at: wav) }
        let tags = ["ARTIST=Ann", "ARTIST=Bob", "ALBUM=Ogg Demo", "ALBUMARTIST=Various", "GENRE=Jazz",
                    "TRACKNUMBER=4", "DISCNUMBER=2", "DATE=2011"]
        let picture = pictureComment(Array(TinyImages.png))
        try tool("oggenc", ["-Q", "-c", "TITLE=Vorbis Tone"] + (tags + ["METADATA_BLOCK_PICTURE=\(picture)"]).flatMap { ["-c", $0] }
                 + ["-o", file("tone.ogg").path, wav.path])
        try tool("opusenc", ["--quiet", "--title", "Opus Tone", "--picture", "3||||\(cover.path)"]
                 + tags.flatMap { ["--comment", $0] } + [wav.path, file("tone.opus").path])
        return (file("tone.ogg"), file("tone.opus"))
    }

    private static func makeGapless(in directory: URL) throws -> (vorbis: [URL], opus: [URL]) {
        func file(_ name: String) -> URL { directory.appendingPathComponent(name) }
        var pairs: [[URL]] = []
        for (codec, rate) in [("ogg", 44_100), ("opus", 48_000)] {
            let whole = file("whole-\(codec).wav"), partA = file("a-\(codec).wav"), partB = file("b-\(codec).wav")
            defer { for wav in [whole, partA, partB] { try? FileManager.default.removeItem(at: wav) } }
            try sox(["-n", "-r", "\(rate)", "-c", "2", "-b", "16", whole.path, "synth", "6", "sine", "440", "vol", "0.5"])
            try sox([whole.path, partA.path, "trim", "0", "3"])
            try sox([whole.path, partB.path, "trim", "3"])
            let a = file("gapless-a.\(codec)"), b = file("gapless-b.\(codec)")
            if codec == "ogg" {
                try tool("oggenc", ["-Q", "-c", "TITLE=Gapless A", "-o", a.path, partA.path])
                try tool("oggenc", ["-Q", "-c", "TITLE=Gapless B", "-o", b.path, partB.path])
            } else {
                try tool("opusenc", ["--quiet", "--title", "Gapless A", partA.path, a.path])
                try tool("opusenc", ["--quiet", "--title", "Gapless B", partB.path, b.path])
            }
            pairs.append([a, b])
        }
        return (pairs[0], pairs[1])
    }

    private static func makeChained(in directory: URL) throws -> Pair {
        func file(_ name: String) -> URL { directory.appendingPathComponent(name) }
        let stereo = file("stereo.wav"), mono = file("mono.wav")
        let parts = ["link1.ogg", "link2.ogg", "link1.opus", "link2.opus"].map(file)
        defer { for made in [stereo, mono] + parts { try? FileManager.default.removeItem(at: made) } }
        try sox(["-n", "-r", "44100", "-c", "2", "-b", "16", stereo.path, "synth", "1", "sine", "440", "vol", "0.5"])
        try sox(["-n", "-r", "22050", "-c", "1", "-b", "16", mono.path, "synth", "2", "sine", "660", "vol", "0.5"])
        // Distinct serial numbers: links of one serial would not be told apart.
        try tool("oggenc", ["-Q", "-s", "1001", "-c", "TITLE=Chained", "-o", parts[0].path, stereo.path])
        try tool("oggenc", ["-Q", "-s", "1002", "-c", "TITLE=Link Two", "-o", parts[1].path, mono.path])
        try tool("opusenc", ["--quiet", "--serial", "2001", "--title", "Chained", stereo.path, parts[2].path])
        try tool("opusenc", ["--quiet", "--serial", "2002", "--title", "Link Two", mono.path, parts[3].path])
        try (Data(contentsOf: parts[0]) + Data(contentsOf: parts[1])).write(to: file("chained.ogg"))
        try (Data(contentsOf: parts[2]) + Data(contentsOf: parts[3])).write(to: file("chained.opus"))
        return (file("chained.ogg"), file("chained.opus"))
    }

    /// METADATA_BLOCK_PICTURE: base64 of a FLAC picture block holding a front cover PNG.
    private static func pictureComment(_ data: [UInt8]) -> String {
        func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xff) } }
        let mime = Array("image/png".utf8)
        let block = be32(3) + be32(mime.count) + mime + be32(0) + be32(2) + be32(2) + be32(24) + be32(0) + be32(data.count) + data
        return Data(block).base64EncodedString()
    }

    private static func sox(_ arguments: [String]) throws {
        try tool("sox", ["-q"] + arguments)
    }

    private static func tool(_ name: String, _ arguments: [String]) throws {
        let result = try Shell.run(name, arguments, timeout: 60)
        guard result.succeeded else { throw DaemonError("\(name) \(arguments.prefix(4)): \(result)") }
    }
}
