import Foundation
import Decoding
import Library
import PlayerCore
import Testing
@testable import Persistence
@testable import TestSupport

/// File names that are not UTF-8 survive the state file, saved playlists, the playlists
/// folder and the cover lookup byte for byte (issue 10, finding 4).
@Suite struct BytePathTests {
    /// "café" in Latin-1.
    static let cafe: [UInt8] = Array("caf".utf8) + [0xE9]

    private func latin1File(in dir: String, _ suffix: String = ".mp3") throws -> FilePath {
        let path = FilePath(bytes: Array((dir + "/").utf8) + Self.cafe + Array(suffix.utf8))!
        try Fixtures.write([], toPathBytes: path.bytes)
        return path
    }

    // MARK: State file

    @Test func stateRoundTripKeepsTheBytes() throws {
        let dir = try Fixtures.makeDirectory()
        defer { Fixtures.remove(dir) }
        let latin1 = try latin1File(in: dir)
        let plain = try makeFiles(["plain ü.mp3"], in: dir)[0]
        var saved = memento([plain, plain], current: 1, position: 7_000_000)
        saved.tracks[1] = Track(path: latin1, title: nil, length: 100_000_000)
        let store = StateStore(directory: dir + "/state")
        try store.save(saved)
        #expect(store.load() == .restored(saved, dropped: []))

        // On disk: text for the UTF-8 path, the escaped URI for the Latin-1 one.
        let json = try JSONSerialization.jsonObject(with: Data(Fixtures.contents(of: store.statePath))) as? [String: Any]
        let tracks = json?["tracks"] as? [[String: Any]]
        #expect(tracks?[0]["path"] as? String == plain)
        #expect(tracks?[0]["uri"] == nil)
        #expect(tracks?[1]["path"] == nil)
        #expect(tracks?[1]["uri"] as? String == "file://\(dir)/caf%E9.mp3")
        let position = try JSONSerialization.jsonObject(with: Data(Fixtures.contents(of: store.positionPath))) as? [String: Any]
        #expect((position?["trackURI"] as? String)?.hasSuffix("/caf%E9.mp3") == true)

        // position.json about the Latin-1 track wins as it does for any other.
        try store.savePosition(currentIndex: 1, path: latin1, position: 9_000_000)
        saved.position = 9_000_000
        #expect(store.load() == .restored(saved, dropped: []))

        // Gone: dropped, and named readably.
        #expect(latin1.withCString { unlink($0) } == 0)
        guard case .restored(_, let dropped) = store.load() else { Issue.record("not restored"); return }
        #expect(dropped == [latin1])
        #expect(dropped.first?.displayString == dir + "/café.mp3")
    }

    @Test func oldStateFilesWithTextPathsStillLoad() throws {
        let dir = try Fixtures.makeDirectory()
        defer { Fixtures.remove(dir) }
        let paths = try makeFiles(["a.mp3", "ü.mp3"], in: dir)
        let old = """
            {"version":1,"tracks":[{"path":"\(paths[0])","artists":[],"albumArtists":[],"genres":[]},
            {"path":"\(paths[1])","title":"Ü","artists":["X"],"albumArtists":[],"genres":[],"length":5}],
            "currentIndex":1,"position":3,"volume":0.5,"loopStatus":"None","shuffle":false,"playOrder":[]}
            """
        let store = StateStore(directory: dir + "/state")
        try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true)
        try Fixtures.write(Array(old.utf8), to: store.statePath)
        try Fixtures.write(Array("{\"version\":1,\"currentIndex\":1,\"trackPath\":\"\(paths[1])\",\"position\":4}".utf8),
                           to: store.positionPath)
        guard case .restored(let memento, let dropped) = store.load() else { Issue.record("not restored"); return }
        #expect(dropped.isEmpty)
        #expect(memento.tracks.compactMap(\.path) == paths)
        #expect(memento.tracks[1].title == "Ü")
        #expect(memento.position == 4)
    }

    @Test func aMalformedURIInTheStateFileIsCorrupt() throws {
        let dir = try Fixtures.makeDirectory()
        defer { Fixtures.remove(dir) }
        let store = StateStore(directory: dir)
        let bad = """
            {"version":1,"tracks":[{"uri":"file:///x%0","artists":[],"albumArtists":[],"genres":[]}],
            "position":0,"volume":1,"loopStatus":"None","shuffle":false,"playOrder":[]}
            """
        try Fixtures.write(Array(bad.utf8), to: store.statePath)
        guard case .corrupt(let reason, _) = store.load() else { Issue.record("not corrupt"); return }
        #expect(reason.contains("no absolute path"), "\(reason)")
    }

    // MARK: Playlists

    @Test func savedPlaylistWritesALatin1PathAsItsURIAndReadsItBack() throws {
        let dir = try Fixtures.makeDirectory()
        defer { Fixtures.remove(dir) }
        let latin1 = try latin1File(in: dir)
        let folder = PlaylistFolder(path: dir + "/lists")
        let info = try folder.save(name: "old", tracks: [Track(path: latin1)])
        let text = String(decoding: try Fixtures.contents(of: info.path.displayString), as: UTF8.self)
        #expect(text == "#EXTM3U\n#EXTINF:-1,café\nfile://\(dir)/caf%E9.mp3\n")
        let loader = QueueLoader { path throws(Decoding.DecodingError) in Track(path: path) }
        #expect(folder.tracks(of: info, loader: loader).tracks.compactMap(\.path) == [latin1])
    }

    @Test func playlistFolderListsLatin1Names() throws {
        let dir = try Fixtures.makeDirectory()
        defer { Fixtures.remove(dir) }
        let track = try latin1File(in: dir)
        let playlist = FilePath(bytes: Array((dir + "/").utf8) + Self.cafe + Array(".m3u".utf8))!
        try Fixtures.write(Self.cafe + Array(".mp3\n".utf8), toPathBytes: playlist.bytes)
        let icon = FilePath(bytes: Array((dir + "/").utf8) + Self.cafe + Array(".png".utf8))!
        try Fixtures.write([0x89, 0x50, 0x4E, 0x47], toPathBytes: icon.bytes)
        let folder = PlaylistFolder(path: dir)
        let info = try #require(try folder.list().first)
        #expect(info.name == "café")
        #expect(info.path == playlist)
        #expect(info.id == "caf_E9_2Em3u")
        #expect(folder.iconURI(for: info) == "file://\(dir)/caf%E9.png")
        let loader = QueueLoader { path throws(Decoding.DecodingError) in Track(path: path) }
        #expect(folder.tracks(of: info, loader: loader).tracks.compactMap(\.path) == [track])
    }

    @Test func plsValuesAreBytes() throws {
        let dir = try Fixtures.makeDirectory()
        defer { Fixtures.remove(dir) }
        let latin1 = try latin1File(in: dir)
        let pls: [UInt8] = Array("[playlist]\r\nFile1=".utf8) + Self.cafe + Array(".mp3\r\nFile2=file://\(dir)/caf%E9.mp3\r\n".utf8)
        try Fixtures.write(pls, to: dir + "/old.pls")
        #expect(try PLSPlaylist.entries(in: pls).get().count == 2)
        let folder = PlaylistFolder(path: dir)
        let info = try #require(try folder.list().first)
        let loader = QueueLoader { path throws(Decoding.DecodingError) in Track(path: path) }
        let (tracks, problems) = folder.tracks(of: info, loader: loader)
        #expect(problems.isEmpty)
        #expect(tracks.compactMap(\.path) == [latin1, latin1])
    }

    // MARK: Covers

    @Test func folderCoverBesideALatin1Folder() throws {
        let dir = try Fixtures.makeDirectory()
        defer { Fixtures.remove(dir) }
        let folder = Array((dir + "/").utf8) + Self.cafe
        let made = (folder + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) }
        }
        #expect(made == 0)
        try Fixtures.write([], toPathBytes: folder + Array("/song.mp3".utf8))
        try Fixtures.write([0xFF, 0xD8, 0xFF, 0xE0, 0xFF, 0xD9], toPathBytes: folder + Array("/cover.jpg".utf8))
        let cache = CoverCache(directory: dir + "/covers")
        let track = FilePath(bytes: folder + Array("/song.mp3".utf8))!
        // Found beside the Latin-1 named track, and published as a copy named by its content.
        let url = try #require(cache.artURL(for: track))
        #expect(url.hasPrefix("file://\(dir)/covers/") && url.hasSuffix(".jpg"), "\(url)")
        #expect(try Fixtures.contents(of: String(url.dropFirst("file://".count))) == [0xFF, 0xD8, 0xFF, 0xE0, 0xFF, 0xD9])
    }
}
