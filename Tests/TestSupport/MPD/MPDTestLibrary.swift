import Foundation

/// A small music library for MPD servers side by side, made once per machine through the
/// fixture cache and copied for each test process (`FixtureCache.folder`): tones from sox,
/// MP3 from lame (and one FLAC), tagged by `Scripts/mpd_library_tags.py` (python3-mutagen)
/// as taggers tag them — what an MPD client browses and queries:
///
/// - two albums by one artist, one of them on two discs in folders of their own, and an album
///   of the same name by another artist (`group albumartist` tells them apart);
/// - a compilation (album artist "Various Artists", one artist of it also on albums);
/// - composers, a conductor, performers, comments, genres (several in one song), full dates
///   and years, a label, MusicBrainz ids (TXXX and UFID), sort names;
/// - a `cover.jpg` beside one album, an embedded front cover in one song, none elsewhere;
/// - a file name that is not UTF-8 (Latin-1 "Café"), an untagged file, a song five folders
///   deep, a text file, and an M3U playlist inside the music folder.
///
/// The MP3s are 20–22 s long (64 kbps: 160 KB each), so one plays on while a test looks at it;
/// their lengths end in .1–.4 s, so a whole second read from a length that includes the
/// encoder's delay and padding (about 0.05 s more, as mpd reads MP3s) rounds the same.
enum MPDTestLibrary {
    /// This process's copy of the library (a test may let a server write into it).
    static func folder() throws -> URL {
        try FixtureCache.folder("mpd-library") { try make(in: $0) }
    }

    /// How many songs the library holds.
    static var songCount: Int { songs.count }

    /// The URI (path in the library) of the song whose name is not UTF-8, as its bytes.
    static let latin1SongBytes: [UInt8] = Array("Loose/Caf".utf8) + [0xE9] + Array(" Latin-1.mp3".utf8)
    /// The same name as Aubade shows it: its bytes read as Windows-1252, written as UTF-8.
    static let latin1SongAsUTF8 = "Loose/Café Latin-1.mp3"

    /// A song with an embedded cover; a song beside `cover.jpg`; a song with neither.
    static let embeddedCoverSong = "Brass Parade/Marching On/01 Fanfare.mp3"
    static let coverFileSong = "Aurora Lane/Northern Lights (2019)/01 Polar Night.mp3"
    static let uncoveredSong = "Loose/untagged tone.mp3"

    /// The text of a stored playlist of songs of the library at `root` (absolute paths, which
    /// mpd and Aubade both read), a station, and an entry naming no file.
    static func storedPlaylist(root: URL) -> String {
        [root.appendingPathComponent("Compilations/Summer Hits/03 Heatwave.mp3").path,
         root.appendingPathComponent("Aurora Lane/Tides (2021)/Disc 2/01 Undertow.mp3").path,
         "http://127.0.0.1:9/station",
         root.appendingPathComponent("Brass Parade/Marching On/02 Encore.mp3").path,
         ].joined(separator: "\n") + "\n"
    }

    // MARK: The recipe

    private struct Song {
        var path: String
        var seconds: Double
        /// ID3v2.4 frames (MP3) or Vorbis comments (FLAC): a name, then its values.
        var tags: [[String]] = []
        var picture = false
    }

    private static let albumID = "9c3a54d2-1f7e-4a0b-8a5e-2d6f3c1b7e01"
    private static let artistID = "5b0e8f21-7c4d-4e9a-9f12-63a8d0c4b2aa"

    private static let songs: [Song] = [
        Song(path: "Aurora Lane/Northern Lights (2019)/01 Polar Night.mp3", seconds: 20.2, tags: [
            ["TIT2", "Polar Night"], ["TPE1", "Aurora Lane"], ["TALB", "Northern Lights"], ["TPE2", "Aurora Lane"],
            ["TRCK", "1/3"], ["TPOS", "1/1"], ["TDRC", "2019-03-01"], ["TCON", "Ambient"], ["TCOM", "Kari Nord"],
            ["COMM", "recorded at dawn"], ["TSOP", "Lane, Aurora"], ["TPUB", "Polar Records"],
            ["TXXX:MusicBrainz Artist Id", artistID], ["TXXX:MusicBrainz Album Id", albumID],
            ["TXXX:MusicBrainz Album Artist Id", artistID],
            ["TXXX:MusicBrainz Release Track Id", "0d2e6a77-3b1c-4f8e-b5a9-7e4c2f1d9a10"],
            ["UFID:http://musicbrainz.org", "f1e2d3c4-b5a6-4978-8899-aabbccddeeff"],
        ]),
        Song(path: "Aurora Lane/Northern Lights (2019)/02 Midnight Sun.mp3", seconds: 21.3, tags: [
            ["TIT2", "Midnight Sun"], ["TPE1", "Aurora Lane"], ["TALB", "Northern Lights"], ["TPE2", "Aurora Lane"],
            ["TRCK", "2/3"], ["TDRC", "2019"], ["TCON", "Ambient", "Electronic"], ["TCOM", "Kari Nord", "Sven Dahl"],
            ["TXXX:MusicBrainz Album Id", albumID],
        ]),
        Song(path: "Aurora Lane/Northern Lights (2019)/03 Solstice.flac", seconds: 5.2, tags: [
            ["TITLE", "Solstice"], ["ARTIST", "Aurora Lane"], ["ALBUM", "Northern Lights"], ["ALBUMARTIST", "Aurora Lane"],
            ["TRACKNUMBER", "3"], ["DATE", "2019"], ["GENRE", "Ambient"],
            ["PERFORMER", "Kari Nord (piano)", "Aurora Lane"], ["CONDUCTOR", "Otto Horn"], ["COMMENT", "the longest night"],
            ["MUSICBRAINZ_ALBUMID", albumID],
        ]),
        Song(path: "Aurora Lane/Tides (2021)/Disc 1/01 Ebb.mp3", seconds: 20.2, tags: [
            ["TIT2", "Ebb"], ["TPE1", "Aurora Lane"], ["TALB", "Tides"], ["TPE2", "Aurora Lane"], ["TRCK", "1"],
            ["TPOS", "1/2"], ["TDRC", "2021"], ["TCON", "Ambient"],
        ]),
        Song(path: "Aurora Lane/Tides (2021)/Disc 1/02 Flow.mp3", seconds: 22.2, tags: [
            ["TIT2", "Flow"], ["TPE1", "Aurora Lane"], ["TALB", "Tides"], ["TPE2", "Aurora Lane"], ["TRCK", "2"],
            ["TPOS", "1/2"], ["TDRC", "2021"], ["TCON", "Ambient"],
        ]),
        Song(path: "Aurora Lane/Tides (2021)/Disc 2/01 Undertow.mp3", seconds: 20.3, tags: [
            ["TIT2", "Undertow"], ["TPE1", "Aurora Lane feat. Björn Sand"], ["TALB", "Tides"], ["TPE2", "Aurora Lane"],
            ["TRCK", "1"], ["TPOS", "2/2"], ["TDRC", "2021"], ["TCON", "Ambient"],
        ]),
        Song(path: "Brass Parade/Marching On/01 Fanfare.mp3", seconds: 20.4, tags: [
            ["TIT2", "Fanfare"], ["TPE1", "Brass Parade"], ["TALB", "Marching On"], ["TRCK", "1"], ["TDRC", "1998"],
            ["TCON", "Jazz"], ["TPE3", "Otto Horn"],
        ], picture: true),
        Song(path: "Brass Parade/Marching On/02 Encore.mp3", seconds: 20.1, tags: [
            ["TIT2", "Encore"], ["TPE1", "Brass Parade"], ["TALB", "Marching On"], ["TRCK", "2"], ["TDRC", "1998"],
            ["TCON", "Jazz"],
        ]),
        Song(path: "Brass Parade/Northern Lights/01 Borealis.mp3", seconds: 20.3, tags: [
            ["TIT2", "Borealis"], ["TPE1", "Brass Parade"], ["TALB", "Northern Lights"], ["TRCK", "1"], ["TDRC", "2005"],
            ["TCON", "Jazz"],
        ]),
        Song(path: "Compilations/Summer Hits/01 Sunny.mp3", seconds: 20.2, tags: [
            ["TIT2", "Sunny"], ["TPE1", "Coral Bay"], ["TALB", "Summer Hits"], ["TPE2", "Various Artists"],
            ["TRCK", "1"], ["TDRC", "2020"], ["TCON", "Pop"], ["TCMP", "1"],
        ]),
        Song(path: "Compilations/Summer Hits/02 Breeze.mp3", seconds: 20.3, tags: [
            ["TIT2", "Breeze"], ["TPE1", "Aurora Lane"], ["TALB", "Summer Hits"], ["TPE2", "Various Artists"],
            ["TRCK", "2"], ["TDRC", "2020"], ["TCON", "Pop"], ["TCMP", "1"],
        ]),
        Song(path: "Compilations/Summer Hits/03 Heatwave.mp3", seconds: 20.2, tags: [
            ["TIT2", "Heatwave"], ["TPE1", "Élan Vital"], ["TSOP", "Elan Vital"], ["TALB", "Summer Hits"],
            ["TPE2", "Various Artists"], ["TRCK", "3"], ["TDRC", "2020"], ["TCON", "Pop", "Disco"], ["TCMP", "1"],
        ]),
        Song(path: "Loose/untagged tone.mp3", seconds: 20.2),
        Song(path: "Loose/latin1.mp3", seconds: 20.2, tags: [["TIT2", "Café"]]),
        Song(path: "Loose/Deep/er/still/Bottom.mp3", seconds: 20.2, tags: [["TIT2", "Bottom"], ["TPE1", "Aurora Lane"]]),
    ]

    private static func make(in root: URL) throws {
        let work = root.appendingPathComponent(".making", isDirectory: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        for (index, song) in songs.enumerated() {
            let file = root.appendingPathComponent(song.path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let wav = work.appendingPathComponent("\(index).wav").path
            // -R: the same dither every time; a pitch a song, so each is its own music.
            try Fixtures.run("sox", ["-R", "-n", "-r", "44100", "-c", "2", "-b", "16", wav,
                                     "synth", "\(song.seconds)", "sine", "\(330 + 20 * index)", "vol", "0.5"])
            if file.pathExtension == "flac" {
                try Fixtures.run("flac", ["--silent", "--force", "-o", file.path, wav])
            } else {
                // 64 kbps at 44.1 kHz (lame would resample a lower rate): the least whose first
                // frame holds lame's Info tag, so the length is counted, not estimated. No tags:
                // the script writes them.
                try Fixtures.run("lame", ["--quiet", "--resample", "44.1", "-b", "64", wav, file.path])
            }
        }
        let cover = coverJPEG(commentBytes: 20_000, seed: 1)
        try cover.write(to: root.appendingPathComponent("Aurora Lane/Northern Lights (2019)/cover.jpg"))
        let embedded = work.appendingPathComponent("embedded.jpg")
        try coverJPEG(commentBytes: 12_000, seed: 2).write(to: embedded)
        try tag(root: root, embedded: embedded)
        // The file name that is not UTF-8: written under a UTF-8 name, then renamed by bytes.
        try renameByBytes(from: Array(root.appendingPathComponent("Loose/latin1.mp3").path.utf8),
                          to: Array(root.path.utf8) + [UInt8(ascii: "/")] + latin1SongBytes)
        try "Not music: listfiles shows it, lsinfo does not.\n"
            .write(to: root.appendingPathComponent("Loose/readme.txt"), atomically: true, encoding: .utf8)
        let playlists = root.appendingPathComponent("Playlists", isDirectory: true)
        try FileManager.default.createDirectory(at: playlists, withIntermediateDirectories: true)
        try "#EXTM3U\n../Aurora Lane/Northern Lights (2019)/02 Midnight Sun.mp3\n../Compilations/Summer Hits/01 Sunny.mp3\n"
            .write(to: playlists.appendingPathComponent("road trip.m3u"), atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: work)
    }

    private static func tag(root: URL, embedded: URL) throws {
        let plan: [[String: Any]] = songs.filter { !$0.tags.isEmpty || $0.picture }.map { song in
            var entry: [String: Any] = ["path": song.path]
            entry[song.path.hasSuffix(".flac") ? "comments" : "frames"] = song.tags
            if song.picture { entry["picture"] = embedded.path }
            return entry
        }
        let planFile = embedded.deletingLastPathComponent().appendingPathComponent("plan.json")
        try JSONSerialization.data(withJSONObject: plan).write(to: planFile)
        let result = try Shell.run(PythonScript.interpreter,
                                   try PythonScript.arguments("mpd_library_tags", [root.path, planFile.path]), timeout: 60)
        guard result.succeeded else { throw DaemonError("tagging the MPD test library: \(result)") }
    }

    private static func renameByBytes(from: [UInt8], to: [UInt8]) throws {
        let result = (from + [0]).withUnsafeBufferPointer { source in
            (to + [0]).withUnsafeBufferPointer { target in
                source.withMemoryRebound(to: CChar.self) { sourceC in
                    target.withMemoryRebound(to: CChar.self) { targetC in
                        Glibc.rename(sourceC.baseAddress!, targetC.baseAddress!)
                    }
                }
            }
        }
        guard result == 0 else { throw DaemonError("renaming to the Latin-1 name: errno \(errno)") }
    }

    /// A valid JPEG of some size: the smallest complete JPEG (`TinyImages.jpeg`) with a comment
    /// segment of `commentBytes` after its start: a cover big enough to come in several chunks.
    static func coverJPEG(commentBytes: Int, seed: UInt8) -> Data {
        let tiny = [UInt8](TinyImages.jpeg)
        let length = commentBytes + 2
        let comment: [UInt8] = [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)]
            + (0..<commentBytes).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &* 7) | 0x20 }
        return Data(tiny.prefix(2) + comment + tiny.dropFirst(2))
    }
}
