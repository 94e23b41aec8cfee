import Inputs
import PlayerCore
import Testing

@Suite struct ReconnectBackoffTests {
    @Test func doublesFromHalfASecondToThirtySeconds() {
        var backoff = ReconnectBackoff(random: { 0.5 })  // no jitter
        let delays = (0..<10).map { _ in backoff.nextDelay() }
        #expect(delays == [0.5, 1, 2, 4, 8, 16, 30, 30, 30, 30])
        #expect(backoff.attempt == 10)
        backoff.reset()
        #expect(backoff.nextDelay() == 0.5)
    }

    @Test func jitterStaysWithinAQuarter() {
        var low = ReconnectBackoff(random: { 0 })
        var high = ReconnectBackoff(random: { 0.999_999 })
        #expect(low.nextDelay() == 0.375)
        #expect(high.nextDelay() < 0.625)
    }

    @Test func manyAttemptsNeverOverflow() {
        var backoff = ReconnectBackoff(random: { 0.5 })
        for _ in 0..<10_000 { _ = backoff.nextDelay() }
        #expect(backoff.nextDelay() == 30)
    }
}

@Suite struct StreamContentTests {
    @Test func mpegAudioPlays() {
        #expect(StreamContent(status: 200, contentType: "audio/mpeg", url: "http://x/") == .mpegAudio)
        #expect(StreamContent(status: 206, contentType: "audio/mpeg; charset=x", url: "http://x/") == .mpegAudio)
        #expect(StreamContent(status: 200, contentType: nil, url: "http://x/a.mp3") == .mpegAudio)
    }

    @Test func playlistsAreFollowed() {
        #expect(StreamContent(status: 200, contentType: "audio/x-scpls", url: "http://x/") == .playlist)
        #expect(StreamContent(status: 200, contentType: "audio/x-mpegurl", url: "http://x/") == .playlist)
        #expect(StreamContent(status: 200, contentType: "text/plain", url: "http://x/listen.pls") == .playlist)
    }

    @Test func anythingElseIsRefusedWithAReason() {
        #expect(StreamContent(status: 404, contentType: "text/html", url: "http://x/") == .refused("the server answered HTTP 404"))
        #expect(StreamContent(status: 200, contentType: "text/html", url: "http://x/") == .refused("not audio (text/html)"))
        #expect(StreamContent(status: 200, contentType: "video/mp4", url: "http://x/") == .refused("not audio (video/mp4)"))
    }

    @Test func aacOggAndFLACGoToTheFFmpegHelper() {
        #expect(StreamContent(status: 200, contentType: "audio/aacp", url: "http://x/") == .helperAudio("aac"))
        #expect(StreamContent(status: 200, contentType: "audio/aac", url: "http://x/") == .helperAudio("aac"))
        #expect(StreamContent(status: 200, contentType: "application/ogg", url: "http://x/") == .helperAudio("ogg"))
        #expect(StreamContent(status: 200, contentType: "audio/ogg", url: "http://x/") == .helperAudio("ogg"))
        #expect(StreamContent(status: 200, contentType: "audio/flac", url: "http://x/") == .helperAudio("flac"))
        #expect(StreamContent(status: 200, contentType: "audio/mp4", url: "http://x/") == .helperAudio("mov"))
        #expect(StreamContent(status: 200, contentType: "video/mp2t", url: "http://x/") == .helperAudio("mpegts"))
    }
}

@Suite struct StationPlaylistTests {
    @Test func plsEntriesInOrder() throws {
        let pls = "[playlist]\nNumberOfEntries=2\nFile1=http://a.example/live\nTitle1=A\nFile2=https://b.example/live\nVersion=2\n"
        #expect(try StationPlaylist.urls(in: Array(pls.utf8)) == ["http://a.example/live", "https://b.example/live"])
    }

    @Test func m3uLines() throws {
        let m3u = "#EXTM3U\r\n#EXTINF:-1,Radio\r\nhttp://a.example:8000/stream\r\nnot a url\r\n"
        #expect(try StationPlaylist.urls(in: Array(m3u.utf8)) == ["http://a.example:8000/stream"])
    }

    @Test func hlsIsToldApartAndEmptyIsRefused() {
        #expect(throws: StationPlaylist.Problem.hls) { try StationPlaylist.urls(in: Array("#EXTM3U\n#EXT-X-TARGETDURATION:6\nseg.ts\n".utf8)) }
        #expect(throws: StationPlaylist.Problem.empty) { try StationPlaylist.urls(in: Array("[playlist]\nFile1=/local/file.mp3\n".utf8)) }
        #expect(throws: StationPlaylist.Problem.empty) { try StationPlaylist.urls(in: [0xFF, 0xFE, 0x00]) }
    }

    @Test func atMostSixteenMirrors() throws {
        let many = (0..<100).map { "http://m\($0).example/" }.joined(separator: "\n")
        #expect(try StationPlaylist.urls(in: Array(many.utf8)).count == StationPlaylist.maximumEntries)
    }
}
