import SnapcastControl
import Testing

/// The player as Snapcast's properties describe it.
@Suite struct PlayerMirrorTests {
    @Test func aPlayingTrackWithEverything() throws {
        var player = PlayerMirror()
        player.isRunning = true
        player.status = "Playing"
        player.loopStatus = "Playlist"
        player.shuffle = true
        player.volume = 0.42
        player.canGoNext = true
        player.canPlay = true
        player.canPause = true
        player.canSeek = true
        player.track.trackID = "/org/mpris/MediaPlayer2/Track/3"
        player.track.title = "Kitchen Song"
        player.track.artists = ["Ada", "Bo"]
        player.track.album = "House"
        player.track.length = 180_000_000
        player.track.artURL = "https://example.org/cover.jpg"
        player.position = 10_000_000
        player.positionTime = 1_000_000
        let properties = player.properties(at: 3_500_000)
        #expect(properties["playbackStatus"] == "playing")
        #expect(properties["loopStatus"] == "playlist")
        #expect(properties["shuffle"] == true)
        #expect(properties["volume"] == 42)
        #expect(properties["position"]?.double == 12.5)
        #expect(properties["canGoNext"] == true)
        #expect(properties["canGoPrevious"] == false)
        #expect(properties["canSeek"] == true)
        #expect(properties["canControl"] == true)
        let metadata = try #require(properties["metadata"])
        #expect(metadata["title"] == "Kitchen Song")
        #expect(metadata["artist"] == ["Ada", "Bo"])
        #expect(metadata["album"] == "House")
        #expect(metadata["duration"]?.double == 180)
        #expect(metadata["trackId"] == "/org/mpris/MediaPlayer2/Track/3")
        #expect(metadata["artUrl"] == "https://example.org/cover.jpg")
    }

    @Test func pausedHoldsThePositionAndVolumeIsClamped() {
        var player = PlayerMirror()
        player.isRunning = true
        player.status = "Paused"
        player.position = 5_000_000
        player.volume = 1.5
        let properties = player.properties(at: 99_000_000)
        #expect(properties["position"]?.double == 5)
        #expect(properties["volume"] == 100)
        #expect(properties["metadata"] == [:], "the metadata is always sent, if empty")
    }

    @Test func aLocalCoverGoesAsDataAFileURLNever() throws {
        var track = TrackMetadata()
        track.artURL = "file:///home/ada/.cache/aubade/covers/x.jpg"
        #expect(track.metadata(cover: nil)["artUrl"] == nil)
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]
        let cover = try #require(CoverArt(bytes: jpeg))
        #expect(cover.fileExtension == "jpg")
        #expect(track.metadata(cover: cover)["artData"] == ["data": "/9j/4AECAw==", "extension": "jpg"])
        #expect(CoverArt(bytes: Array("not an image".utf8)) == nil)
        #expect(CoverArt(bytes: [UInt8](repeating: 0x89, count: CoverArt.byteLimit + 1)) == nil)
    }
}
