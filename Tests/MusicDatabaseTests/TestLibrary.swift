import Decoding
import Foundation
@testable import MusicDatabase
import PlayerCore
import TestSupport

/// A library folder of empty files for tests, read by a fake reader that answers each file's
/// tags from a table (the real tag readers are tested elsewhere; here what matters is the
/// tree, the orders and the queries). Removed when the test is done with it.
final class TestLibrary: @unchecked Sendable {
    let folder: String
    private let lock = NSLock()
    private var tagsByPath: [String: [(String, String)]] = [:]
    private(set) var reads = 0

    init() throws {
        folder = try Fixtures.makeDirectory()
    }

    deinit { Fixtures.remove(folder) }

    var path: FilePath { FilePath(folder)! }

    /// Writes `relative` (an empty file, or `bytes`), tagged `tags` for the fake reader.
    func add(_ relative: String, tags: [(String, String)] = [], bytes: [UInt8] = []) throws {
        let full = folder + "/" + relative
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Fixtures.write(bytes, to: full)
        lock.withLock { tagsByPath[full] = tags }
    }

    func addFolder(_ relative: String) throws {
        try FileManager.default.createDirectory(atPath: folder + "/" + relative, withIntermediateDirectories: true)
    }

    func setTags(_ relative: String, _ tags: [(String, String)]) {
        lock.withLock { tagsByPath[folder + "/" + relative] = tags }
    }

    /// The mpd reference library (`MPDReference`).
    static func mpdReference() throws -> TestLibrary {
        let library = try TestLibrary()
        for (path, tags) in MPDReference.songs { try library.add(path, tags: tags) }
        for path in MPDReference.playlists + MPDReference.otherFiles { try library.add(path) }
        for path in MPDReference.emptyFolders { try library.addFolder(path) }
        return library
    }

    var reader: @Sendable (FilePath) throws(DecodingError) -> Track {
        { [self] (path: FilePath) throws(DecodingError) -> Track in
            let tags: [(String, String)]? = lock.withLock {
                reads += 1
                return tagsByPath[path.displayString]
            }
            guard let tags else { throw DecodingError(path: path, reason: "not an MP3 file (fake reader)") }
            return Self.track(path, tags)
        }
    }

    static func track(_ path: FilePath, _ tags: [(String, String)]) -> Track {
        var track = Track(path: path, length: 1_044_000)
        track.audioFormat = AudioFormatFacts(sampleRate: 44100, bitsPerSample: 24, channels: 2)
        for (name, value) in tags {
            guard let kind = TagKind(name: name) else { continue }
            switch kind {
            case .title: track.title = value
            case .artist: track.artists.append(value)
            case .album: track.album = value
            case .albumArtist: track.albumArtists.append(value)
            case .genre: track.genres.append(value)
            case .track: track.trackNumber = Int(value)
            case .disc: track.discNumber = Int(value)
            case .date: track.date = value
            default: track.moreTags.append(TagValue(kind, value))
            }
        }
        return track
    }

    func snapshot(songLimit: Int = 1_000_000, log: @escaping @Sendable (LogLevel, String) -> Void = { _, _ in }) -> LibrarySnapshot {
        MusicLibrary.build(configuration: LibraryConfiguration(folders: [path], songLimit: songLimit), reader: reader, log: log)
    }
}

/// Lines as mpd prints them: `file:`/`directory:`/`playlist:`, and with `tags` each tag.
func render(_ entries: some Sequence<LibraryEntry>, tags: Bool = false) -> String {
    var lines: [String] = []
    for entry in entries {
        switch entry {
        case .directory(let uri, _): lines.append("directory: \(uri)")
        case .playlist(let uri, _): lines.append("playlist: \(uri)")
        case .song(let song):
            lines.append("file: \(song.uri)")
            if tags { lines += song.tags.map { "\($0.kind.rawValue): \($0.value)" } }
        }
    }
    return lines.joined(separator: "\n")
}

func fileLines(_ songs: [LibrarySong]) -> String {
    songs.map { "file: \($0.uri)" }.joined(separator: "\n")
}

/// Messages logged, for the tests on what is logged.
final class LogRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    var sink: @Sendable (LogLevel, String) -> Void { { [self] _, line in lock.withLock { lines.append(line) } } }
    var all: [String] { lock.withLock { lines } }
}

/// Waits until `condition` holds, polling every 10 ms, or the deadline passes.
func eventually(within seconds: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}
