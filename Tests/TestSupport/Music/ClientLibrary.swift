import Foundation

/// A small music library as a real collection looks to MPD clients: two album artists with two
/// albums each way of numbering (one of them on two discs), a band album whose files carry an
/// embedded cover, a compilation by Various Artists, a `cover.jpg` beside one album, a name
/// that is not ASCII and a file with no tags at all. Tones from sox and lame, tagged as a
/// tagger would (ID3v2.4 by python3-mutagen, `id3_tags.py`); made once (`FixtureCache`) and
/// copied for each test process. The MPD-client suites (`MPDClient…Tests`) browse it.
///
/// Every track is 20–22 s long: long enough to be playing still when a client looks, short
/// enough to cost little to make.
final class ClientLibrary: Sendable {
    /// One file of the library: its URI (the path below the music folder) and tags.
    struct Song: Sendable {
        var uri: String
        var seconds: Int
        var title: String?
        var artist: String?
        var albumArtist: String?
        var album: String?
        var track: String?
        var disc: String?
        var genre: String?
        var date: String?
        var embedsCover = false

        var tags: [String] {
            var tags: [String] = []
            for (name, value) in [("title", title), ("artist", artist), ("albumartist", albumArtist), ("album", album),
                                  ("track", track), ("disc", disc), ("genre", genre), ("date", date)] {
                if let value { tags.append("\(name)=\(value)") }
            }
            return tags
        }
    }

    static let songs: [Song] = [
        Song(uri: "Ann Arbor/First Light/01 Dawn.mp3", seconds: 20, title: "Dawn", artist: "Ann Arbor", albumArtist: "Ann Arbor",
             album: "First Light", track: "1/3", disc: "1/1", genre: "Ambient", date: "2001"),
        Song(uri: "Ann Arbor/First Light/02 Morning.mp3", seconds: 21, title: "Morning", artist: "Ann Arbor", albumArtist: "Ann Arbor",
             album: "First Light", track: "2/3", disc: "1/1", genre: "Ambient", date: "2001"),
        Song(uri: "Ann Arbor/First Light/03 Café Noir.mp3", seconds: 22, title: "Café Noir", artist: "Ann Arbor",
             albumArtist: "Ann Arbor", album: "First Light", track: "3/3", disc: "1/1", genre: "Ambient", date: "2001"),
        Song(uri: "Ann Arbor/Second Wind/1-01 Gale.mp3", seconds: 20, title: "Gale", artist: "Ann Arbor", albumArtist: "Ann Arbor",
             album: "Second Wind", track: "1/2", disc: "1/2", genre: "Rock", date: "2004"),
        Song(uri: "Ann Arbor/Second Wind/1-02 Breeze.mp3", seconds: 20, title: "Breeze", artist: "Ann Arbor", albumArtist: "Ann Arbor",
             album: "Second Wind", track: "2/2", disc: "1/2", genre: "Rock", date: "2004"),
        Song(uri: "Ann Arbor/Second Wind/2-01 Calm.mp3", seconds: 20, title: "Calm", artist: "Ann Arbor", albumArtist: "Ann Arbor",
             album: "Second Wind", track: "1/1", disc: "2/2", genre: "Rock", date: "2004"),
        Song(uri: "Bea Quartet/Night Songs/01 Owl.mp3", seconds: 20, title: "Owl", artist: "Bea Quartet", albumArtist: "Bea Quartet",
             album: "Night Songs", track: "1/2", genre: "Jazz", date: "2010", embedsCover: true),
        Song(uri: "Bea Quartet/Night Songs/02 Moth.mp3", seconds: 20, title: "Moth", artist: "Bea Quartet & Cy",
             albumArtist: "Bea Quartet", album: "Night Songs", track: "2/2", genre: "Jazz", date: "2010", embedsCover: true),
        Song(uri: "Compilations/Summer Mix/01 Surf.mp3", seconds: 20, title: "Surf", artist: "Dee Dunes",
             albumArtist: "Various Artists", album: "Summer Mix", track: "1/2", genre: "Pop", date: "2015"),
        Song(uri: "Compilations/Summer Mix/02 Sand.mp3", seconds: 20, title: "Sand", artist: "Eli Ember",
             albumArtist: "Various Artists", album: "Summer Mix", track: "2/2", genre: "Pop", date: "2015"),
        Song(uri: "loose tone.mp3", seconds: 20),
    ]

    /// The folder whose `cover.jpg` is the album's cover (`albumart`).
    static let coverFolder = "Ann Arbor/First Light"
    /// (album artist, album, year) of every album, in the order mpd sorts album artists.
    static let albums: [(albumArtist: String, album: String, date: String)] = [
        ("Ann Arbor", "First Light", "2001"), ("Ann Arbor", "Second Wind", "2004"),
        ("Bea Quartet", "Night Songs", "2010"), ("Various Artists", "Summer Mix", "2015"),
    ]

    /// This process's copy: the music folder (`music/`) and, beside it, the pictures it was
    /// made with (`pictures/`), to compare with what clients receive.
    let root: URL
    var directory: URL { root.appendingPathComponent("music", isDirectory: true) }

    /// `cover.jpg`'s bytes (a 240×240 JPEG of 15 KB: two `albumart` chunks of mpd's 8 KiB).
    var coverJPEG: Data { get throws { try Data(contentsOf: root.appendingPathComponent("pictures/cover.jpg")) } }
    /// The picture embedded in the Bea Quartet songs (a 160×160 PNG of 34 KB: five chunks).
    var embeddedPNG: Data { get throws { try Data(contentsOf: root.appendingPathComponent("pictures/embedded.png")) } }

    private init(root: URL) {
        self.root = root
    }

    /// This process's copy, made on first use.
    static func shared() throws -> ClientLibrary {
        try made.get()
    }

    private static let made: Result<ClientLibrary, any Error> = Result {
        // The tagging script is part of the recipe: an edit of it makes the library anew.
        let tagger = (try? String(contentsOfFile: PythonScript.path("id3_tags"), encoding: .utf8)) ?? ""
        return ClientLibrary(root: try FixtureCache.folder("mpd-client-library", variant: tagger) { try make(in: $0) })
    }

    private static func make(in root: URL) throws {
        // The pictures: ffmpeg's test patterns, the same bytes each time.
        let pictures = root.appendingPathComponent("pictures", isDirectory: true)
        let directory = root.appendingPathComponent("music", isDirectory: true)
        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
        let cover = pictures.appendingPathComponent("cover.jpg"), embedded = pictures.appendingPathComponent("embedded.png")
        try check(Shell.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=240x240:rate=1",
                                       "-frames:v", "1", "-q:v", "2", "-y", cover.path], timeout: 60), "ffmpeg (cover.jpg)")
        try check(Shell.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "mandelbrot=size=160x160:rate=1",
                                       "-frames:v", "1", "-y", embedded.path], timeout: 60), "ffmpeg (embedded.png)")
        let wav = root.appendingPathComponent("tone.wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        for (index, song) in songs.enumerated() {
            let file = directory.appendingPathComponent(song.uri)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            // A tone of its own for each song, half amplitude.
            try check(Shell.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav.path, "synth", String(song.seconds),
                                        "sine", String(300 + 40 * index), "vol", "0.5"]), "sox (\(song.uri))")
            try check(Shell.run("lame", ["--quiet", "-b", "96", wav.path, file.path], timeout: 120), "lame (\(song.uri))")
            let tags = song.tags + (song.embedsCover ? ["picture=\(embedded.path)"] : [])
            if !tags.isEmpty {
                try check(Shell.run(PythonScript.interpreter, try PythonScript.arguments("id3_tags", [file.path] + tags)),
                          "id3_tags.py (\(song.uri))")
            }
        }
        try FileManager.default.copyItem(at: cover, to: directory.appendingPathComponent("\(coverFolder)/cover.jpg"))
    }

    private static func check(_ result: CommandResult, _ what: String) throws {
        guard result.succeeded else { throw DaemonError("making the client library failed: \(what): \(result)") }
    }
}
