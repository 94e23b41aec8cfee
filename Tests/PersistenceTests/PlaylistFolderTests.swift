import Foundation
import Library
import PlayerCore
import Testing
@testable import Persistence
@testable import TestSupport

@Suite struct PlaylistFolderTests {
    @Test func saveListAndReadBack() throws {
        let dir = try Fixtures.makeDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/music", withIntermediateDirectories: true)
        try Fixtures.makeMP3(at: dir + "/music/one ü.mp3", seconds: 1, lameOptions: Fixtures.tagOptions(title: "One", artist: "Ann"))
        try Fixtures.makeMP3(at: dir + "/music/two.mp3", seconds: 2)
        let folder = PlaylistFolder(path: dir + "/Music/Playlists")
        #expect(try folder.list().isEmpty)   // the folder does not exist yet

        let loader = QueueLoader()
        let queued = loader.load([dir + "/music"]).tracks
        let info = try folder.save(name: "Road Trip", tracks: queued)
        #expect(info.name == "Road Trip")
        #expect(info.path == FilePath(dir + "/Music/Playlists/Road Trip.m3u8"))
        #expect(info.id == "Road_20Trip_2Em3u8")
        let text = String(decoding: try Fixtures.contents(of: info.path.displayString), as: UTF8.self)
        #expect(text == """
            #EXTM3U
            #EXTINF:1,Ann - One
            \(dir)/music/one ü.mp3
            #EXTINF:2,two
            \(dir)/music/two.mp3

            """)
        #expect(try folder.list() == [info])
        #expect(folder.playlist(id: info.id) == info)
        let (tracks, problems) = folder.tracks(of: info)
        #expect(problems.isEmpty)
        #expect(tracks == queued)

        // Saving again under the same name replaces the file; no temporary file is left.
        try folder.save(name: "Road Trip", tracks: Array(queued.prefix(1)))
        #expect(folder.tracks(of: info).tracks == Array(queued.prefix(1)))
        #expect(files(in: folder.path) == ["Road Trip.m3u8"])
    }

    @Test func tagsWithLineBreaksCannotBreakTheFile() throws {
        let dir = try Fixtures.makeDirectory()
        let folder = PlaylistFolder(path: dir)
        let odd = Track(path: "/music/odd\nname.mp3", title: "Line\nbreak", artists: ["A\rB"], length: nil)
        let info = try folder.save(name: "odd", tracks: [odd])
        let text = String(decoding: try Fixtures.contents(of: info.path.displayString), as: UTF8.self)
        #expect(text == "#EXTM3U\n#EXTINF:-1,A B - Line break\nfile:///music/odd%0Aname.mp3\n")
    }

    @Test func badNamesAreRejected() throws {
        let dir = try Fixtures.makeDirectory()
        let folder = PlaylistFolder(path: dir)
        for name in ["", "a/b", "../up", ".hidden", ".", "..", "nul\0byte", String(repeating: "x", count: 251)] {
            let error = #expect(throws: PersistenceError.self) { try folder.save(name: name, tracks: []) }
            #expect(error?.call == "playlist name")
            #expect(error?.reason.hasPrefix("a playlist name") == true)
        }
        #expect(files(in: dir).isEmpty)
        // Unicode, spaces and dots inside are fine.
        #expect(try folder.save(name: "Mix v1.2 — été", tracks: []).name == "Mix v1.2 — été")
    }

    @Test func listingAndOrderings() throws {
        let dir = try Fixtures.makeDirectory()
        let folder = PlaylistFolder(path: dir)
        // Created in this order, but modified in another.
        for name in ["beta.m3u", "Alpha.m3u8", "gamma.PLS"] {
            try Fixtures.write(Array("#EXTM3U\n".utf8), to: dir + "/" + name)
            usleep(20_000)
        }
        try Fixtures.write([], to: dir + "/notes.txt")
        try Fixtures.write([], to: dir + "/.hidden.m3u")
        try FileManager.default.createDirectory(atPath: dir + "/folder.m3u", withIntermediateDirectories: true)
        try Fixtures.write(Array("#EXTM3U\n\n".utf8), to: dir + "/beta.m3u")   // now the newest

        #expect(try folder.list(ordering: .alphabetical).map(\.name) == ["Alpha", "beta", "gamma"])
        #expect(try folder.list(ordering: .alphabetical, reversed: true).map(\.name) == ["gamma", "beta", "Alpha"])
        #expect(try folder.list(ordering: .modifiedDate).map(\.name) == ["Alpha", "gamma", "beta"])
        // Without a birth time (statx), "created" is the inode change time, which the rewrite moved.
        let creationOrder = BirthTime.of(dir + "/beta.m3u") != nil ? ["beta", "Alpha", "gamma"] : ["Alpha", "gamma", "beta"]
        #expect(try folder.list(ordering: .userDefined).map(\.name) == creationOrder)
        #expect(try folder.list(ordering: .creationDate, reversed: true).map(\.name) == creationOrder.reversed())
        let listed = try folder.list()
        #expect(listed.allSatisfy { $0.created <= $0.modified })
        #expect(Set(listed.map(\.id)).count == 3)
        #expect(PlaylistOrdering.userDefined.rawValue == "User")
    }

    @Test func plsPlaylists() throws {
        let dir = try Fixtures.makeDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/music", withIntermediateDirectories: true)
        try Fixtures.makeMP3(at: dir + "/music/a.mp3", seconds: 1, lameOptions: ["--tt", "A"])
        try Fixtures.makeMP3(at: dir + "/music/b é.mp3", seconds: 1, lameOptions: ["--tt", "B"])
        try Fixtures.makeMP3(at: dir + "/c.mp3", seconds: 1, lameOptions: ["--tt", "C"])
        let folder = PlaylistFolder(path: dir + "/lists")
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        // Entries out of order, relative, absolute, a URI, a stream, a missing file, CRLF.
        let pls = [
            "[playlist]", "NumberOfEntries=6",
            "File3=\(FileURI.uri(forPath: dir + "/c.mp3"))", "Title3=C",
            "file1 = ../music/a.mp3", "Length1=1",
            "File2=\(dir)/music/b é.mp3",
            "File4=http://radio.example/stream",
            "File5=missing.mp3",
            "Version=2", "",
        ].joined(separator: "\r\n")
        try Fixtures.write(Array(pls.utf8), to: folder.path + "/Mixed.pls")
        let info = try #require(try folder.list().first)
        #expect(info.name == "Mixed")
        let (tracks, problems) = folder.tracks(of: info)
        #expect(tracks.map(\.title) == ["A", "B", "C", nil])
        #expect(tracks.first?.path == FilePath(dir + "/music/a.mp3"))
        #expect(tracks.last?.streamURL?.text == "http://radio.example/stream")
        #expect(problems.compactMap(\.path) == [folder.path + "/missing.mp3"])

        // Nothing playable at all is a problem naming the playlist.
        try Fixtures.write(Array("[playlist]\nFile1=gone.mp3\n".utf8), to: folder.path + "/Empty.pls")
        let empty = try #require(try folder.list().first { $0.name == "Empty" })
        let result = folder.tracks(of: empty)
        #expect(result.tracks.isEmpty)
        #expect(result.problems.last == LoadProblem(path: empty.path.displayString, reason: "no playable files in playlist"))
    }

    @Test func xdgDirectories() throws {
        let dir = try Fixtures.makeDirectory()
        var xdg = XDGDirectories(environment: ["HOME": "/home/u"])
        #expect(xdg.stateDirectory == "/home/u/.local/state/aubade")
        #expect(xdg.coversDirectory == "/home/u/.cache/aubade/covers")
        #expect(xdg.playlistsDirectory == "/home/u/Music/Playlists")

        try FileManager.default.createDirectory(atPath: dir + "/config", withIntermediateDirectories: true)
        try Fixtures.write(Array("""
            # written by xdg-user-dirs-update
            XDG_DESKTOP_DIR="$HOME/Desktop"
            XDG_MUSIC_DIR="$HOME/Musik"

            """.utf8), to: dir + "/config/user-dirs.dirs")
        xdg = XDGDirectories(environment: ["HOME": "/home/u", "XDG_CONFIG_HOME": dir + "/config",
                                           "XDG_STATE_HOME": "/s", "XDG_CACHE_HOME": "relative/ignored"])
        #expect(xdg.playlistsDirectory == "/home/u/Musik/Playlists")
        #expect(xdg.stateDirectory == "/s/aubade")
        #expect(xdg.coversDirectory == "/home/u/.cache/aubade/covers")

        try Fixtures.write(Array("XDG_MUSIC_DIR=\"/data/Audio Files\"\n".utf8), to: dir + "/config/user-dirs.dirs")
        #expect(xdg.musicDirectory == "/data/Audio Files")
        try Fixtures.write(Array("XDG_MUSIC_DIR=\"$HOME/\"\n".utf8), to: dir + "/config/user-dirs.dirs")
        #expect(xdg.musicDirectory == "/home/u/Music")
    }

    /// The MPD front-end's socket is in the runtime folder: the process's XDG_RUNTIME_DIR must be
    /// read with the other variables (it was not, and the socket was never served).
    @Test func currentReadsTheRuntimeFolder() {
        let environment = ["HOME": "/home/u", "XDG_RUNTIME_DIR": "/run/user/4242"]
        let xdg = XDGDirectories.current { environment[$0] }
        #expect(xdg.mpdSocket == "/run/user/4242/aubade/mpd.socket")
        #expect(XDGDirectories.current { ["HOME": "/home/u"][$0] }.mpdSocket == nil)
        #expect(XDGDirectories(environment: ["XDG_RUNTIME_DIR": "relative"]).mpdSocket == nil)
    }
}
