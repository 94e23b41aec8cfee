import Foundation

/// Libraries for the MPD tests: real MP3s (the library reads their tags, so they must be), made
/// from one tiny untagged MP3 (a 0.2 s tone, made once per machine) with an ID3v2.4 tag of the
/// test's own bytes in front — invalid UTF-8, newlines, "OK", whatever it likes.
enum MPDLibraryFixtures {
    /// The untagged 0.2 s MP3 (lame, 64 kbit/s): about 2 KB.
    static func bareMP3() throws -> [UInt8] { try bare.get() }
    private static let bare: Result<[UInt8], any Error> = Result {
        let path = try Fixtures.makeDirectory() + "/bare.mp3"
        try Fixtures.makeMP3(at: path, seconds: 0.2, rate: 24000, lameOptions: ["-b", "64"])
        return try Fixtures.contents(of: path)
    }

    /// An ID3v2.4 text frame's body: UTF-8 (encoding 3) and the bytes as given, valid or not.
    static func text(_ bytes: [UInt8]) -> [UInt8] { [3] + bytes }
    static func text(_ string: String) -> [UInt8] { text(Array(string.utf8)) }

    /// A tiny MP3 whose tag holds `frames` (id, body) as given.
    static func mp3(frames: [(String, [UInt8])]) throws -> [UInt8] {
        Fixtures.id3v2Tag(version: 4, frames: [], rawFrames: frames) + (try bareMP3())
    }

    /// Writes one tagged MP3 at `path` (created with its folders).
    static func write(_ frames: [(String, [UInt8])], to path: URL) throws {
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Fixtures.write(try mp3(frames: frames), to: path.path)
    }

    /// Three songs in `folder`: `album/one.mp3`, `album/two.mp3` and `three.mp3`, titled as named.
    @discardableResult
    static func smallLibrary(in folder: URL) throws -> Int {
        for (path, title) in [("album/one.mp3", "One"), ("album/two.mp3", "Two"), ("three.mp3", "Three")] {
            try write([("TIT2", text(title)), ("TPE1", text("Ann")), ("TALB", text("Album"))],
                      to: folder.appendingPathComponent(path))
        }
        return 3
    }

    /// A big library in `folder`: `folders` folders of `perFolder` songs each, all hard links of
    /// one MP3 whose tags are long (a 200-character title, artist, album…, a long comment), so
    /// that `listallinfo` answers about 5 KB a song. Returns the number of songs.
    @discardableResult
    static func bigLibrary(in folder: URL, folders: Int, perFolder: Int) throws -> Int {
        let long = { (letter: String, count: Int) in text(String(repeating: letter, count: count)) }
        let seed = folder.appendingPathComponent(".seed.mp3")
        try write([("TIT2", long("T", 200)), ("TPE1", long("A", 200)), ("TALB", long("L", 200)), ("TPE2", long("B", 200)),
                   ("TCOM", long("M", 200)), ("TCON", long("G", 100)),
                   ("COMM", [3] + Array("eng\0".utf8) + Array(repeating: UInt8(ascii: "C"), count: 8000))], to: seed)
        defer { try? FileManager.default.removeItem(at: seed) }
        for index in 0..<folders {
            let sub = folder.appendingPathComponent(String(format: "folder %03d with a name long enough to count", index))
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            for song in 0..<perFolder {
                let target = sub.appendingPathComponent(String(format: "song %04d.mp3", song)).path
                guard link(seed.path, target) == 0 else { throw MPDTestError.system("link \(target)", errno) }
            }
        }
        return folders * perFolder
    }
}
