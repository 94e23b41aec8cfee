import Foundation

/// Bad input for every entry point (issue 10): broken MP3s, things that are not files, and
/// hostile playlists, made once per test run beside the shared fixtures.
final class BadInputCorpus: Sendable {
    let directory: URL

    /// Unplayable "MP3s" and the words their error must contain.
    var unplayable: [(file: URL, reason: String)] {
        [
            (file("random.mp3"), "not an MP3 file"),
            (file("empty.mp3"), "empty file"),
            (file("tag-only.mp3"), "not an MP3 file: no audio frames"),
            (file("wav-renamed.mp3"), "a WAV file: Aubade does not play WAV"),
            (file("fifo.mp3"), "not a regular file"),
            (file("zero.mp3"), "not a regular file"),
            (file("null.mp3"), "not a regular file"),
            (file("directory.mp3"), "no playable music files in directory"),
            // Issue 12: random bytes behind a valid magic, for each format.
            (file("random.flac"), "not a FLAC file"),
            (file("random-ogg.ogg"), "unsupported Ogg stream"),
        ]
    }
    /// Broken but playable: the first half of an untagged 2 s tone ("truncated"), and the same
    /// tone behind a 5 MiB ID3 tag ("big tag").
    var truncated: URL { file("truncated.mp3") }
    var bigTag: URL { file("big tag.mp3") }
    /// 256 KiB of random bytes.
    var garbagePlaylist: URL { file("garbage.m3u") }
    var garbagePLS: URL { file("garbage.pls") }
    /// 100,000 lines naming missing files, then one good one (Alpha).
    var longPlaylist: URL { file("long.m3u") }
    /// Missing entries in `long.m3u` (then one good one): 100,000, or 10,000 in a sanitizer run
    /// (`AUBADE_SANITIZER`, set by scripts/run-tests), where reading it takes 10 times longer.
    static let longPlaylistLines = Sanitizer.isOn ? 10_000 : 100_000
    /// Each lists one good file (Alpha, Beta) and the other playlist.
    var loopA: URL { file("loop-a.m3u") }
    var loopB: URL { file("loop-b.m3u") }

    func file(_ name: String) -> URL { directory.appendingPathComponent(name) }

    private init(directory: URL) { self.directory = directory }

    static func shared() throws -> BadInputCorpus { try made.get() }
    private static let made: Result<BadInputCorpus, any Error> = Result {
        BadInputCorpus(directory: try FixtureCache.folder("corpus", variant: "\(longPlaylistLines) lines") { try make(in: $0) })
    }

    /// Fixed pseudo-random bytes: the same junk every run.
    static func junk(_ count: Int, seed: UInt32) -> Data {
        var state = seed
        return Data((0..<count).map { _ in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        })
    }

    /// An ID3v2.4 tag: a title, and a TXXX frame of `padding` bytes of text.
    static func id3Tag(title: String, padding: Int) -> Data {
        func syncsafe(_ n: Int) -> [UInt8] {
            [UInt8((n >> 21) & 0x7f), UInt8((n >> 14) & 0x7f), UInt8((n >> 7) & 0x7f), UInt8(n & 0x7f)]
        }
        func frame(_ id: String, _ body: [UInt8]) -> [UInt8] {
            Array(id.utf8) + syncsafe(body.count) + [0, 0] + body
        }
        var frames = frame("TIT2", [3] + Array(title.utf8))
        if padding > 0 {
            frames += frame("TXXX", [3] + Array("filler".utf8) + [0] + [UInt8](repeating: 0x78, count: padding))
        }
        return Data(Array("ID3".utf8) + [4, 0, 0] + syncsafe(frames.count) + frames)
    }

    private static func make(in directory: URL) throws {
        let fixtures = try TestMusic.shared()
        let corpus = BadInputCorpus(directory: directory)
        let manager = FileManager.default

        try junk(65_536, seed: 1).write(to: corpus.file("random.mp3"))
        try Data().write(to: corpus.file("empty.mp3"))
        try id3Tag(title: "Only a tag", padding: 0).write(to: corpus.file("tag-only.mp3"))
        try manager.copyItem(at: fixtures.wavRenamed, to: corpus.file("wav-renamed.mp3"))
        guard mkfifo(corpus.file("fifo.mp3").path, 0o644) == 0 else { throw DaemonError("mkfifo: errno \(errno)") }
        try manager.createSymbolicLink(atPath: corpus.file("zero.mp3").path, withDestinationPath: "/dev/zero")
        try manager.createSymbolicLink(atPath: corpus.file("null.mp3").path, withDestinationPath: "/dev/null")
        try manager.createDirectory(at: corpus.file("directory.mp3"), withIntermediateDirectories: false)
        try (Data("fLaC".utf8) + junk(65_536, seed: 4)).write(to: corpus.file("random.flac"))
        try (Data("OggS".utf8) + junk(65_536, seed: 5)).write(to: corpus.file("random-ogg.ogg"))

        let tone = try Data(contentsOf: fixtures.untagged)
        try tone.prefix(tone.count / 2).write(to: corpus.truncated)
        try (id3Tag(title: "Big Tag", padding: 5 << 20) + tone).write(to: corpus.bigTag)

        try junk(256 * 1024, seed: 2).write(to: corpus.garbagePlaylist)
        try (Data("[playlist]\n".utf8) + junk(256 * 1024, seed: 3)).write(to: corpus.garbagePLS)
        var long = "#EXTM3U\n"
        long.reserveCapacity(2_000_000)
        for number in 0..<Self.longPlaylistLines { long += "missing/\(number).mp3\n" }
        // Relative: the corpus is made once (FixtureCache) and copied beside each process's music.
        long += "../music/a.mp3\n"
        try long.write(to: corpus.longPlaylist, atomically: false, encoding: .utf8)
        try "../music/a.mp3\nloop-b.m3u\n".write(to: corpus.loopA, atomically: false, encoding: .utf8)
        try "../music/b.mp3\nloop-a.m3u\n".write(to: corpus.loopB, atomically: false, encoding: .utf8)
    }
}
