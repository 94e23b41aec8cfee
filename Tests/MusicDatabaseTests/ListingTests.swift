import Testing
@testable import MusicDatabase
import PlayerCore

/// The tree, its URIs and mpd's orders, against what mpd 0.23 listed for the same library.
@Suite struct ListingTests {
    @Test func listallIsMPDs() throws {
        let library = try TestLibrary.mpdReference()
        let snapshot = library.snapshot()
        let root = try #require(snapshot.directory(uri: ""))
        #expect(render(snapshot.walk(from: root)) == MPDReference.listall)
    }

    @Test func lsinfoOfTheRootIsMPDs() throws {
        let snapshot = try TestLibrary.mpdReference().snapshot()
        let root = try #require(snapshot.directory(uri: "/"))
        #expect(render(snapshot.contents(of: root)) == MPDReference.lsinfoRoot)
    }

    @Test func lsinfoOfAnAlbumIsMPDs() throws {
        let snapshot = try TestLibrary.mpdReference().snapshot()
        let album = try #require(snapshot.directory(uri: "Album"))
        #expect(render(snapshot.contents(of: album), tags: true) == MPDReference.lsinfoAlbum)
    }

    @Test func listallinfoOfAFolderIsMPDs() throws {
        let snapshot = try TestLibrary.mpdReference().snapshot()
        let multi = try #require(snapshot.directory(uri: "Multi"))
        #expect(render(snapshot.walk(from: multi), tags: true) == MPDReference.listallinfoMulti)
    }

    @Test func emptyFoldersArePrunedAndHiddenNamesSkipped() throws {
        let snapshot = try TestLibrary.mpdReference().snapshot()
        #expect(snapshot.directory(uri: "emptydir") == nil)
        #expect(snapshot.directory(uri: "onlytext") == nil)
        #expect(snapshot.directory(uri: "onlylist") != nil)
        #expect(snapshot.song(uri: ".hidden.mp3") == nil)
        #expect(snapshot.songCount == 64)
    }

    @Test func songsAndFoldersAreFoundByURI() throws {
        let library = try TestLibrary.mpdReference()
        let snapshot = library.snapshot()
        let song = try #require(snapshot.song(uri: "Multi/Sub/s1.mp3"))
        #expect(song.path == FilePath(library.folder + "/Multi/Sub/s1.mp3"))
        #expect(song.values(of: .title) == ["sub song"])
        #expect(song.duration == 1_044_000)
        #expect(song.format == AudioFormatFacts(sampleRate: 44100, bitsPerSample: 24, channels: 2))
        #expect(snapshot.directory(uri: "Multi/Sub/")?.uri == "Multi/Sub")
        #expect(snapshot.song(uri: "Multi/../Album/01.mp3") == nil)
        #expect(snapshot.filePath(forURI: "Album/01.mp3") == FilePath(library.folder + "/Album/01.mp3"))
        #expect(snapshot.filePath(forURI: "Album/../../etc/passwd") == nil)
        #expect(snapshot.filePath(forURI: "onlytext/readme.txt") == FilePath(library.folder + "/onlytext/readme.txt"))
        #expect(snapshot.filePath(forURI: "Multi/mlist.m3u") == FilePath(library.folder + "/Multi/mlist.m3u"))
        #expect(snapshot.uri(of: FilePath(library.folder + "/Multi/Sub/s1.mp3")!) == "Multi/Sub/s1.mp3")
        #expect(snapshot.uri(of: FilePath(library.folder + "/Album/cover.jpg")!) == "Album/cover.jpg")
        #expect(snapshot.uri(of: "/elsewhere/x.mp3") == nil)
        let track = song.track()
        #expect(track.title == "sub song" && track.albumArtists == ["AA"] && track.length == 1_044_000)
    }

    @Test func statsAreCountedAsMPDDoes() throws {
        let snapshot = try TestLibrary.mpdReference().snapshot()
        // mpd: artists 10, albums 9, songs 66 (with the two hidden songs, untagged), playtime 68.
        #expect(snapshot.artistCount == 10)
        #expect(snapshot.albumCount == 9)
        #expect(snapshot.songCount == 64)
        #expect(snapshot.playtime == 66)  // 64 × 1.044 s
    }
}
