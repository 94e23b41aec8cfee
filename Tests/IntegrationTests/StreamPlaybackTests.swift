import Foundation
import XCTest
@testable import TestSupport

/// Internet radio, played: a station from a real icecast2 reaches the headphones, and what
/// MPRIS says about it (the song on air, split into artist and title, Latin-1 titles as UTF-8,
/// no length, no seeking); the ways a station gets into the queue (serve URL, aubade add,
/// OpenUri, a station's .pls with a dead first mirror); a podcast file over HTTP, which has a
/// length and seeks when its server takes ranges. Runs on PulseAudio and on PipeWire.
final class StreamPlaybackTests: StreamTestCase {
    func testPlaysAStationFromIcecast() throws {
        let (server, _, url) = try startStation()
        let daemon = try serve([url])

        try waitForStatus("Playing", timeout: 10)
        try waitForMusic(daemon)
        let stream = try waitForStreamState("connected")
        XCTAssertEqual(stream["station"]?.string, Self.stationName, "Stream: \(stream)")
        XCTAssertEqual(stream["summary"]?.string, "connected to \(Self.stationName)", "Stream: \(stream)")
        XCTAssertEqual(try server.listenerCount(mount: mount), 1, "icecast's listeners")
        let status = try status()
        XCTAssertTrue(status.contains("stream \(url): connected to \(Self.stationName)"), "aubade status:\n\(status)")
        XCTAssertTrue(status.contains("Playing"), "aubade status:\n\(status)")
        // Position counts listening time.
        let before = try position()
        try eventually("Position to advance while the station plays (from \(before) µs)", timeout: 5) {
            try position() >= before + 1_000_000
        }
    }

    /// Types exactly as MPRIS (and BlueZ) want them, and the values of a station.
    func testMetadataOfALiveStationHasItsTypesAndValues() throws {
        let (_, _, url) = try startStation(titles: [(0, "Ann Example - First Song")])
        let daemon = try serve([url])
        try waitForTitle("First Song", timeout: 15)
        let fields = try metadata()
        let tracks = try Bus.tracks()
        XCTAssertEqual(tracks.count, 1, "one station queued")
        XCTAssertEqual(fields["mpris:trackid"], .objectPath(tracks.first ?? "?"), "trackid is the queue entry's")
        XCTAssertEqual(fields["xesam:title"], .string("First Song"))
        XCTAssertEqual(fields["xesam:artist"], .array([.string("Ann Example")]), "xesam:artist (as)")
        XCTAssertEqual(fields["xesam:comment"], .array([.string("Ann Example - First Song")]), "xesam:comment (as)")
        XCTAssertEqual(fields["xesam:album"], .string(Self.stationName), "xesam:album = icy-name")
        XCTAssertEqual(fields["xesam:url"], .string(url))
        XCTAssertNil(fields["mpris:length"], "a live station has no length: \(fields)")
        XCTAssertEqual(try playerProperty("CanSeek"), .boolean(false))
        XCTAssertEqual(try playerProperty("Position").signature, "x")
        XCTAssertEqual(try Bus.tracksMetadata(tracks).first?["xesam:title"], .string("First Song"),
                       "GetTracksMetadata agrees")
        // The PulseAudio stream names the song too (what mixers and the desktop's OSD show).
        try eventually("our sink input's media.title \"First Song\" (is \((try? streamProperty(daemon, "media.title")) ?? nil ?? "-"))") {
            try streamProperty(daemon, "media.title") == "First Song"
        }
    }

    /// Seek and SetPosition do nothing to a live station: no jump, no Seeked.
    func testSeekAndSetPositionDoNothingOnAStation() throws {
        let (_, _, url) = try startStation()
        let daemon = try serve([url])
        try waitForMusic(daemon)
        let signals = try monitor(daemon)
        let mark = signals.mark
        let id = try XCTUnwrap(trackID())
        let before = try position()

        XCTAssertTrue(try Bus.player("Seek", ["int64:30000000"]).succeeded)
        XCTAssertTrue(try Bus.player("SetPosition", ["objpath:\(id)", "int64:40000000"]).succeeded)

        Thread.sleep(forTimeInterval: 0.5)
        let after = try position()
        XCTAssertLessThan(after - before, 5_000_000, "Position jumped on a live station: \(before) → \(after) µs")
        XCTAssertNil(signals.waitForMessage(after: mark, timeout: 0.5) { $0.member == "Seeked" }, "Seeked on a live station")
        XCTAssertEqual(try playbackStatus(), "Playing")
        XCTAssertEqual(try trackID(), id)
    }

    /// "Artist - Title" splits; a title without " - " stays whole, with no artist; quotes inside survive.
    func testAnnouncementsSplitIntoArtistAndTitle() throws {
        let (_, source, url) = try startStation(titles: [(0, "Ann Example - First Song")])
        try serve([url])
        try waitForTitle("First Song", timeout: 15)

        try source.setTitleNow("Station jingle")
        try waitForTitle("Station jingle", timeout: 15)
        var fields = try metadata()
        XCTAssertNil(fields["xesam:artist"], "no artist in \"Station jingle\": \(fields)")
        XCTAssertEqual(fields["xesam:comment"], .array([.string("Station jingle")]))

        try source.setTitleNow("Guns N' Roses - Sweet Child O' Mine")
        try waitForTitle("Sweet Child O' Mine", timeout: 15)
        fields = try metadata()
        XCTAssertEqual(fields["xesam:artist"], .array([.string("Guns N' Roses")]))
        XCTAssertEqual(fields["xesam:comment"], .array([.string("Guns N' Roses - Sweet Child O' Mine")]))
        XCTAssertEqual(fields["xesam:album"], .string(Self.stationName), "the station stays the album")
    }

    /// An ISO8859-1 mount sends the title's Latin-1 bytes (ö = 0xF6): they arrive as letters.
    func testLatin1TitleArrivesAsUTF8Letters() throws {
        let (_, source, url) = try startStation(titles: [(0, "Motörhead - Ace of Spades")],
                                                titleCharset: "ISO-8859-1")
        let daemon = try serve([url])
        try waitForTitle("Ace of Spades", timeout: 15)
        XCTAssertEqual(try metadata()["xesam:artist"], .array([.string("Motörhead")]))

        try source.setTitleNow("Café Müller - Señorita")
        try waitForTitle("Señorita", timeout: 15)
        let fields = try metadata()
        XCTAssertEqual(fields["xesam:artist"], .array([.string("Café Müller")]))
        XCTAssertEqual(fields["xesam:comment"], .array([.string("Café Müller - Señorita")]))
        try eventually("media.title Señorita") { try streamProperty(daemon, "media.title") == "Señorita" }
    }

    // MARK: How stations get queued

    func testAubadeAddQueuesAStation() throws {
        let (_, _, url) = try startStation(titles: [(0, "Ann Example - Added Song")])
        let daemon = try startPlaying([fixtures.long])
        let result = try aubade("add", url)
        XCTAssertEqual(result.status, 0, "aubade add \(url): \(result)")
        var tracks: [String] = []
        try eventually("two entries queued") {
            tracks = try Bus.tracks()
            return tracks.count == 2
        }
        XCTAssertEqual(try Bus.tracksMetadata([tracks[1]]).first?["xesam:url"], .string(url))
        XCTAssertEqual(try title(), "Long One", "adding does not interrupt")

        try playerctl("next")
        try waitForTitle("Added Song", timeout: 15)
        try waitForMusic(daemon)
        XCTAssertEqual(try trackID(), tracks[1])
        XCTAssertEqual(try streamState(), "connected")
    }

    func testOpenUriPlaysAStation() throws {
        let (_, _, url) = try startStation(titles: [(0, "Ann Example - Opened Song")])
        let daemon = try startPlaying([fixtures.long])
        XCTAssertEqual(Set(try Bus.get(Bus.rootInterface, "SupportedUriSchemes").strings ?? []), ["file", "http", "https"])

        let result = try Bus.gdbusCall("\(Bus.playerInterface).OpenUri", ["'\(url)'"])
        XCTAssertEqual(result.status, 0, "OpenUri \(url): \(result)")

        try waitForTitle("Opened Song", timeout: 15)
        XCTAssertEqual(try metadata()["xesam:url"], .string(url))
        try waitForStatus("Playing")
        try waitForMusic(daemon)
        XCTAssertEqual(try streamState(), "connected")
    }

    /// TrackList.AddTrack of an http URI, set as current: it plays.
    func testAddTrackOfAStationPlaysIt() throws {
        let (_, _, url) = try startStation(titles: [(0, "Ann Example - Tracked Song")])
        let daemon = try startPlaying([fixtures.long])
        let reply = try Bus.addTrack(url, after: try XCTUnwrap(trackID()), setAsCurrent: true)
        XCTAssertTrue(reply.succeeded, "AddTrack \(url): \(reply)")
        try waitForTitle("Tracked Song", timeout: 15)
        XCTAssertEqual(try Bus.tracks().count, 2)
        XCTAssertEqual(try metadata()["xesam:url"], .string(url))
        try waitForMusic(daemon)
        XCTAssertEqual(try streamState(), "connected")
    }

    /// A station's own playlist (audio/x-scpls): its streams are tried in order; a dead first
    /// mirror (nothing listens on its port) gives way to the next, which plays.
    func testStationPlaylistWithADeadFirstMirrorPlaysTheNext() throws {
        let (_, _, station) = try startStation(titles: [(0, "Ann Example - Mirror Two")])
        let web = try startWebServer()
        let deadPort = try Loopback.freePort()
        try web.register(path: "/pls/station.pls", body: """
            [playlist]
            NumberOfEntries=2
            File1=http://127.0.0.1:\(deadPort)/dead.mp3
            Title1=Mirror one (down)
            File2=\(station)
            Title2=Mirror two
            Version=2

            """, contentType: "audio/x-scpls")
        let daemon = try serve([web.url("/pls/station.pls")])
        try waitForTitle("Mirror Two", timeout: 10)
        try waitForMusic(daemon)
    }

    /// The same with a first mirror that answers HTTP 404 (audio/x-mpegurl playlist this time).
    func testStationPlaylistWithA404FirstMirrorPlaysTheNext() throws {
        let (_, _, station) = try startStation(titles: [(0, "Ann Example - Mirror Two")])
        let web = try startWebServer()
        try web.register(path: "/m3u/station.m3u", body: "#EXTM3U\n#EXTINF:-1,Gone\n\(web.url("/status/404"))\n"
                         + "#EXTINF:-1,Test FM\n\(station)\n", contentType: "audio/x-mpegurl")
        let daemon = try serve([web.url("/m3u/station.m3u")])
        try waitForTitle("Mirror Two", timeout: 10)
        try waitForMusic(daemon)
        XCTAssertEqual(web.requests().filter { $0.hasPrefix("GET /status/404") }.count, 1,
                       "the 404 mirror asked once: \(web.requests())")
    }

    /// A local M3U listing two stations: both queued, the first plays.
    func testLocalPlaylistOfStationsQueuesThem() throws {
        let (server, _, station) = try startStation(titles: [(0, "Ann Example - From The List")])
        let web = try startWebServer()
        let second = web.url("/icy/programme.mp3?rate=16000&loop=1")
        let list = try makeDirectory("stations").appendingPathComponent("stations.m3u")
        try "#EXTM3U\n#EXTINF:-1,Test FM\n\(station)\n#EXTINF:-1,Test Radio\n\(second)\n"
            .write(to: list, atomically: true, encoding: .utf8)
        let daemon = try serve([list.path])
        try waitForTitle("From The List", timeout: 15)
        let tracks = try Bus.tracks()
        XCTAssertEqual(tracks.count, 2)
        XCTAssertEqual(try Bus.tracksMetadata(tracks).map { $0["xesam:url"]?.string ?? "?" }, [station, second])
        try waitForMusic(daemon)

        try playerctl("next")
        try waitForTitle("programme.mp3", timeout: 15)  // the /icy route's title
        try waitForMusic(daemon, "the second station")
        XCTAssertEqual(try metadata()["xesam:album"], .string("Aubade Test Radio"))
        try eventually("icecast's listener gone after Next") { try server.listenerCount(mount: mount) == 0 }
    }

    // MARK: A file over HTTP

    /// A podcast: its length once connected, CanSeek, and SetPosition jumps there (by a Range request).
    func testAFileOverHTTPHasItsLengthAndSeeks() throws {
        let web = try startWebServer()
        let url = web.url("/file/episode.mp3")
        let daemon = try serve([url])
        try waitForMusic(daemon)
        var length: Int64?
        try eventually("mpris:length of the 60 s episode", timeout: 10) {
            length = try metadata()["mpris:length"]?.int64
            return length != nil
        }
        XCTAssertEqual(try metadata()["mpris:length"]?.signature, "x")
        XCTAssertEqual(Double(length ?? 0) / 1e6, 60, accuracy: 0.5, "mpris:length")
        XCTAssertEqual(try metadata()["xesam:url"], .string(url))
        try eventually("CanSeek true") { try playerProperty("CanSeek") == .boolean(true) }
        let id = try XCTUnwrap(trackID())
        let signals = try monitor(daemon)
        let mark = signals.mark

        XCTAssertTrue(try Bus.player("SetPosition", ["objpath:\(id)", "int64:40000000"]).succeeded)

        XCTAssertNotNil(signals.waitForMessage(after: mark, timeout: 5) { $0.member == "Seeked" }, "no Seeked")
        try eventually("Position near 40 s (is \((try? position()) ?? -1) µs)", timeout: 10) {
            let now = try position()
            return now >= 39_000_000 && now < 45_000_000
        }
        try waitForMusic(daemon, "music after the seek")
        XCTAssertTrue(web.requests().contains { $0.hasPrefix("GET /file/episode.mp3 Range: bytes=") },
                      "no Range request for the seek: \(web.requests())")
        XCTAssertEqual(try playbackStatus(), "Playing")
    }

    /// A server that ignores ranges: the length is known, but CanSeek stays false.
    func testAFileFromAServerWithoutRangesDoesNotSeek() throws {
        let web = try startWebServer()
        let daemon = try serve([web.url("/norange/episode.mp3")])
        try waitForMusic(daemon)
        try eventually("mpris:length of the 60 s episode", timeout: 10) { try metadata()["mpris:length"] != nil }
        XCTAssertEqual(try playerProperty("CanSeek"), .boolean(false))
        let before = try position()
        XCTAssertTrue(try Bus.player("Seek", ["int64:30000000"]).succeeded)
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertLessThan(try position() - before, 5_000_000, "Seek moved a file its server cannot seek")
        XCTAssertEqual(web.requests().filter { $0.contains("Range:") }, [], "a Range request to a server without ranges")
    }
}
