import Foundation
import XCTest
@testable import TestSupport

/// Servers that are not a station, or a broken one. What is not a network fault — an HTTP
/// error, an HTML page, AAC, HLS, a redirect loop — is one clear log line naming the URL and
/// the entry is skipped (the next one plays), never retried in a loop; a stalled or dropped
/// station is called again; hostile headers crash nothing; HTTPS is verified (against
/// `stream-ca-file` when aubade.conf names one); credentials in a URL are used, never shown.
/// Whatever the server does, the daemon keeps answering the bus.
final class StreamBadServerTests: StreamTestCase {
    /// Serves `path` then a local file; checks the stream is refused with a log line naming its
    /// URL and `words`, the file plays next, and the server was asked at most `maxRequests` times.
    private func assertRefusedAndSkipped(_ path: String, _ words: [String], maxRequests: Int = 2,
                                         on server: TestHTTPServer? = nil,
                                         file: StaticString = #filePath, line: UInt = #line) throws {
        let web = try server ?? startWebServer()
        let url = web.url(path)
        let daemon = try serve([url, fixtures.long.path])
        let logged = waitForLogLine(daemon, with: [url] + words, file: file, line: line)
        print("refused \(path): \(logged ?? "(no log line)")")
        try waitForTitle("Long One", timeout: 10, file: file, line: line)
        try waitForStatus("Playing", file: file, line: line)
        XCTAssertEqual(try Bus.tracks().count, 1, "the refused entry stays queued", file: file, line: line)
        // Time for a retry loop to show: its first two retries come within ~2 s.
        Thread.sleep(forTimeInterval: 2)
        let asked = web.requests().filter { $0.contains(" \(path)") }
        XCTAssertLessThanOrEqual(asked.count, maxRequests, "\(path) asked again and again: \(asked)", file: file, line: line)
        assertStillAnswers(file: file, line: line)
    }

    func testHTTP404IsSkippedWithAClearError() throws {
        try assertRefusedAndSkipped("/status/404", ["HTTP 404"])
    }

    func testHTTP503IsSkippedWithAClearError() throws {
        try assertRefusedAndSkipped("/status/503", ["HTTP 503"])
    }

    func testAnHTMLPageIsSkipped() throws {
        try assertRefusedAndSkipped("/html", ["text/html"])
    }

    /// Said to be AAC, but junk: the FFmpeg helper finds no audio in it.
    func testAnAACStreamThatIsNotAACIsSkipped() throws {
        let web = try startWebServer()
        try web.register(path: "/aac/live", body: Data(repeating: 0xFF, count: 4096), contentType: "audio/aac")
        try assertRefusedAndSkipped("/aac/live", ["no audio"], on: web)
    }

    /// A finished HLS playlist whose only segment is missing: nothing to play, skipped (a live
    /// one is reloaded for about three target durations first, as HLS players do).
    func testAnHLSPlaylistWithoutItsSegmentsIsSkipped() throws {
        let web = try startWebServer()
        try web.register(path: "/hls/live.m3u8", body: """
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-TARGETDURATION:6
            #EXT-X-MEDIA-SEQUENCE:1
            #EXTINF:6.0,
            segment1.ts
            #EXT-X-ENDLIST

            """, contentType: "application/vnd.apple.mpegurl")
        // Asked three times: the daemon's first request and its playlist fetch, then the helper's.
        try assertRefusedAndSkipped("/hls/live.m3u8", ["cannot open the stream"], maxRequests: 3, on: web)
    }

    /// Five redirects are followed (the podcast plays).
    func testFiveRedirectsAreFollowed() throws {
        let web = try startWebServer()
        let daemon = try serve([web.url("/redirect/5/episode.mp3")])
        try waitForMusic(daemon, "the episode after five redirects")
        XCTAssertTrue(web.requests().contains("GET /file/episode.mp3 Icy-MetaData: 1"), "\(web.requests())")
    }

    /// Six are one too many: a clear error, and — a server's configuration, not a network
    /// fault — the entry skipped, not called again and again.
    func testSixRedirectsAreRefusedNotRetried() throws {
        try assertRefusedAndSkipped("/redirect/6/episode.mp3", ["redirects"])
    }

    /// A server that answers with headers and then sends nothing: the daemon gives up on it
    /// after its stall timeout (5 s without a byte) and moves on; the bus is answered promptly
    /// all the while.
    func testAStalledServerIsNoticedAndTheBusStaysAnswered() throws {
        let web = try startWebServer()
        let url = web.url("/stall/episode.mp3?after=0")
        let started = Date()
        let daemon = try serve([url, fixtures.long.path])
        var slowest = 0.0
        while Date().timeIntervalSince(started) < 4 {
            let began = Date()
            _ = try playbackStatus()
            slowest = max(slowest, Date().timeIntervalSince(began))
            Thread.sleep(forTimeInterval: 0.2)
        }
        XCTAssertLessThan(slowest, 2, "the bus waited on the stalled server")
        let line = waitForLogLine(daemon, with: [url, "skipped"], timeout: 20)
        let noticed = Date().timeIntervalSince(started)
        try waitForTitle("Long One", timeout: 10)
        print(String(format: "stalled server: slowest PlaybackStatus reply %.0f ms; given up after %.1f s: %@",
                     slowest * 1000, noticed, line ?? "-"))
        XCTAssertGreaterThan(noticed, 4, "given up before the stall timeout")
        XCTAssertLessThanOrEqual(web.requests().filter { $0.contains("/stall/") }.count, 2, "\(web.requests())")
        assertStillAnswers()
    }

    /// A live station whose server freezes (SIGSTOP) mid-song: after 5 s without a byte the
    /// daemon reconnects; once the server thaws it plays again.
    func testAStationThatStallsMidSongIsCalledAgain() throws {
        let (server, _, _) = try startStation()
        let relay = try startRelay(to: server.port)
        let daemon = try serve([relay.url(mount)])
        try waitForMusic(daemon)
        let logMark = daemon.stderrLines.count

        relay.freeze()

        let stalled = daemon.process.stderr.waitForLine(from: logMark, timeout: 15) {
            $0.contains("reconnecting (attempt 1") && $0.contains("received nothing")
        }
        XCTAssertNotNil(stalled, "no reconnect after the stall:\n" + daemon.stderrLines.dropFirst(logMark).joined(separator: "\n"))
        XCTAssertEqual(try playbackStatus(), "Playing")

        relay.thaw()

        try waitForStreamState("connected", timeout: 15)
        try waitForMusic(daemon, "music after the server thawed")
    }

    /// A podcast whose server closes the connection half-way (and cannot resume it, no ranges):
    /// what came plays, then the next entry; no crash, the file not fetched in a loop.
    func testAFileThatIsCutHalfWayPlaysWhatCameThenMovesOn() throws {
        for query in ["after=32000", "after=32000&reset=1"] {
            let web = try startWebServer()
            let daemon = try serve([web.url("/close/episode.mp3?\(query)"), fixtures.alpha.path])
            try waitForMusic(daemon, "the first 2 s of the cut file (\(query))")
            try waitForTitle("Alpha", timeout: 15)
            XCTAssertTrue(daemon.isRunning)
            XCTAssertLessThanOrEqual(web.requests().filter { $0.contains("/close/") }.count, 2, "\(web.requests())")
            assertStillAnswers()
            daemon.stop()
            try eventually("the daemon gone") { try !Bus.nameHasOwner(Daemon.busName) }
        }
    }

    /// A 100 KiB header line: no crash, an error naming the URL, the bus answered.
    func testAHugeHeaderCrashesNothing() throws {
        try assertHostileHeadersCrashNothing("/hugeheader")
    }

    /// 10,000 header lines: the same.
    func testManyHeadersCrashNothing() throws {
        try assertHostileHeadersCrashNothing("/manyheaders")
    }

    private func assertHostileHeadersCrashNothing(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let web = try startWebServer()
        let url = web.url(path)
        let daemon = try serve([url, fixtures.long.path])
        let logged = daemon.process.stderr.waitForLine(timeout: 15) {
            $0.contains(url) && ($0.contains("reconnecting") || $0.contains("skipped"))
        }?.line
        XCTAssertNotNil(logged, "no error naming \(url):\n" + daemon.stderrLines.joined(separator: "\n"), file: file, line: line)
        Thread.sleep(forTimeInterval: 2)
        XCTAssertTrue(daemon.isRunning, "aubade died on \(path): \(daemon.stderrLines.suffix(5))", file: file, line: line)
        assertStillAnswers(file: file, line: line)
        print("\(path): \(logged ?? "-"); \(web.requests().filter { $0.contains(path) }.count) requests in ~3 s")
    }

    // MARK: HTTPS

    /// With the test CA in `stream-ca-file`, the HTTPS station plays.
    func testHTTPSStationPlaysWithTheCAFromTheConfiguration() throws {
        let web = try startWebServer(tls: true)
        let home = try home(configuration: "stream-ca-file = \(try XCTUnwrap(web.caFile))\n")
        let url = web.url("/icy/programme.mp3?rate=16000&loop=1", tls: true)
        let daemon = try serve([url], home: home)
        try waitForMusic(daemon, "the HTTPS station")
        try waitForStreamState("connected")
        XCTAssertEqual(try metadata()["xesam:url"], .string(url))
        XCTAssertTrue(web.requests().contains { $0.hasPrefix("GET /icy/programme.mp3") && $0.hasSuffix("(TLS)") },
                      "\(web.requests())")
    }

    /// Without it the certificate is not trusted: a clear TLS error naming the URL, no sound,
    /// the bus answered.
    func testHTTPSWithAnUntrustedCertificateIsAClearError() throws {
        let web = try startWebServer(tls: true)
        let url = web.url("/icy/programme.mp3?rate=16000&loop=1", tls: true)
        let daemon = try serve([url])
        // A certificate that does not verify cannot get better by waiting: one clear error
        // naming the URL and the certificate, the entry skipped, never retried.
        let line = waitForLogLine(daemon, with: [url, "certificate", "skipped"], timeout: 15)
        print("untrusted HTTPS: \(line ?? "-")")
        XCTAssertNotNil(line, "no log line naming the URL and the certificate")
        try assertNoMusic(daemon, "from an untrusted HTTPS server")
        assertStillAnswers()
        Thread.sleep(forTimeInterval: 3)
        let attempts = web.requests().filter { $0.hasSuffix("(TLS)") }.count
        print("untrusted HTTPS: \(logLines(daemon, containing: "certificate").count) attempts logged in ~5 s; "
              + "requests that got past the TLS handshake: \(attempts)")
        XCTAssertEqual(attempts, 0, "a request was sent over an unverified connection")
        assertStillAnswers()
    }

    // MARK: Credentials

    /// user:secret@ in station URLs: used to connect, never in the log, Metadata, the
    /// TrackList, the Stream property, `aubade status` or the PulseAudio stream.
    func testCredentialsInAURLAreNeverShown() throws {
        let web = try startWebServer()
        let authority = "listener:s3cr3t-pw@127.0.0.1:\(web.port)"
        let refused = "http://\(authority)/status/404"
        let station = "http://\(authority)/icy/programme.mp3?rate=16000&loop=1"
        let shown = web.url("/icy/programme.mp3?rate=16000&loop=1")
        let daemon = try serve([refused, station])
        try waitForMusic(daemon)
        try waitForStreamState("connected")
        XCTAssertEqual(try metadata()["xesam:url"], .string(shown))

        var published: [String] = []
        published.append("\(try metadata())")
        published.append("\(try Bus.tracksMetadata(try Bus.tracks()))")
        published.append("\(try streamInfo())")
        published.append(try status())
        published.append(try aubade("status", "--json").stdout)
        published.append(try aubade("queue").stdout)
        published.append("\(try Pulse.sinkInput(ofProcess: daemon.pid)?.properties ?? [:])")
        published.append(daemon.stderrLines.joined(separator: "\n"))
        for text in published {
            XCTAssertFalse(text.contains("s3cr3t"), "the password is shown: \(text)")
            XCTAssertFalse(text.contains("listener:"), "the user is shown: \(text)")
        }
        XCTAssertNotNil(daemon.waitForLog(containing: "http://127.0.0.1:\(web.port)/status/404"),
                      "the refused URL (without credentials) is not named in the log")
    }
}
