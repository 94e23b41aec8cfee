import Foundation
import XCTest
@testable import TestSupport

/// HLS stations through the FFmpeg helper: a live stream written by `ffmpeg -f hls` (1 s
/// segments, a six-segment playlist) into a folder served by a local HTTP server, played from
/// its master playlist; a missing segment and a discontinuity played through; a playlist that
/// stops growing counted as a dropped connection and reconnected when it grows again; a
/// playlist that names itself refused with a clear reason, the next item played.
final class HLSStationTests: StreamTestCase {
    private var station: HLSTestStation?

    override func tearDown() {
        station?.stop()
        station = nil
        super.tearDown()
    }

    private func startStation(segmentType: String = "mpegts") throws -> HLSTestStation {
        let station = try HLSTestStation(directory: try makeDirectory("hls").path + "/live")
        self.station = station
        try station.startEncoder(segmentType: segmentType)
        XCTAssertTrue(station.waitForSegments(3), "ffmpeg wrote no live playlist")
        return station
    }

    private func streamStatus() throws -> String {
        try aubade("status").stdout
    }

    func testAnHLSStationPlaysFromItsMasterPlaylistAndItsPlaylistIsRefreshed() throws {
        let station = try startStation()
        let daemon = try serve([station.url("master.m3u8")])
        try waitForMusic(daemon, "the HLS station at the headphones", timeout: 20)
        let status = try streamStatus()
        XCTAssertTrue(status.contains("connected"), status)
        let before = station.requests.filter { $0.contains("/live.m3u8") }.count
        Thread.sleep(forTimeInterval: 4)  // about four new segments: the playlist must be reloaded
        let after = station.requests.filter { $0.contains("/live.m3u8") }.count
        print("HLS: live.m3u8 fetched \(after - before) times in 4 s; requests: \(station.requests.suffix(6))")
        XCTAssertGreaterThanOrEqual(after - before, 2, "the live playlist is not refreshed")
        try waitForMusic(daemon, "music 4 s on")
        XCTAssertNil(daemon.stderrLines.first { $0.contains("reconnecting") }, daemon.stderrLines.joined(separator: "\n"))
    }

    func testFragmentedMP4SegmentsPlay() throws {
        let station = try startStation(segmentType: "fmp4")
        let daemon = try serve([station.url("live.m3u8")])
        try waitForMusic(daemon, "the fMP4 HLS station at the headphones", timeout: 20)
    }

    func testPackedAudioSegmentsPlay() throws {
        let station = try startStation(segmentType: "packed")
        let daemon = try serve([station.url("live.m3u8")])
        try waitForMusic(daemon, "the packed-audio (ADTS segments) HLS station at the headphones", timeout: 20)
        XCTAssertTrue(station.requests.contains { $0.contains(".aac 200") }, "\(station.requests.suffix(5))")
    }

    func testAMissingSegmentIsPlayedThrough() throws {
        let station = try startStation()
        let daemon = try serve([station.url("live.m3u8")])
        try waitForMusic(daemon, timeout: 20)
        try station.control("drop-next")
        var dropped = ""
        try eventually("a segment answered 404", timeout: 15) {
            dropped = try station.control("dropped")
            return !dropped.isEmpty && station.requests.contains { $0.contains(dropped) && $0.hasSuffix(" 404") }
        }
        Thread.sleep(forTimeInterval: 3)  // past the gap, on the next segments
        try waitForMusic(daemon, "music after the missing segment \(dropped)")
        XCTAssertNil(daemon.stderrLines.first { $0.contains("reconnecting") }, daemon.stderrLines.joined(separator: "\n"))
    }

    func testAPlaylistThatStopsGrowingIsADropAndTheStationComesBack() throws {
        let station = try startStation()
        let daemon = try serve([station.url("live.m3u8")])
        try waitForMusic(daemon, timeout: 20)
        let frozenAt = Date()
        try station.control("freeze")
        XCTAssertNotNil(daemon.waitForLog(containing: "reconnecting (attempt 1", timeout: 20),
                        daemon.stderrLines.joined(separator: "\n"))
        print(String(format: "HLS: a frozen playlist (1 s target duration) counted as dropped after %.1f s",
                     Date().timeIntervalSince(frozenAt)))
        let status = try streamStatus()
        XCTAssertTrue(status.contains("reconnecting"), status)
        try station.control("thaw")
        // (A reconnect while frozen may already have connected: the old segments are still there.)
        try eventually("connected once the playlist grows again", timeout: 30) { try streamStatus().contains("connected") }
        try waitForMusic(daemon, "music once the playlist grows again", timeout: 20)
        Thread.sleep(forTimeInterval: 3)  // the playlist growing: no new drop
        try eventually("still connected", timeout: 5) { try streamStatus().contains("connected") }
    }

    func testADiscontinuityToAnotherRateIsPlayedThrough() throws {
        let station = try startStation()
        let daemon = try serve([station.url("live.m3u8")])
        try waitForMusic(daemon, timeout: 20)
        // The station's encoder restarts at 48 kHz: the playlist goes on after #EXT-X-DISCONTINUITY.
        try station.startEncoder(frequency: 660, rate: 48_000, append: true)
        try eventually("#EXT-X-DISCONTINUITY in the playlist", timeout: 10) {
            (try? String(contentsOfFile: station.directory + "/live.m3u8", encoding: .utf8))?.contains("#EXT-X-DISCONTINUITY") == true
        }
        Thread.sleep(forTimeInterval: 8)  // through the old segments to the new ones
        try waitForMusic(daemon, "music after the discontinuity")
        XCTAssertTrue(station.requests.contains { $0.contains("seg-660-") }, "the segments after the discontinuity were not fetched")
        print("HLS discontinuity: reconnects: \(daemon.stderrLines.filter { $0.contains("reconnecting") })")
        XCTAssertTrue(daemon.isRunning)
    }

    /// Over HTTPS: with the test CA in `stream-ca-file` it plays (every playlist and segment
    /// checked against it); credentials in the URL never reach a log line. Without the CA: a
    /// clear error, the next item plays.
    func testAnHTTPSStationIsCheckedAgainstTheConfiguredCA() throws {
        let folder = try makeDirectory("hls-tls")
        let caFile = try TestHTTPServer.makeCertificates(in: folder.appendingPathComponent("tls"))
        let tls = folder.appendingPathComponent("tls")
        let station = try HLSTestStation(directory: folder.path + "/live",
                                         certificate: (tls.appendingPathComponent("server.pem").path,
                                                       tls.appendingPathComponent("server.key").path))
        self.station = station
        try station.startEncoder()
        XCTAssertTrue(station.waitForSegments(3))
        let url = station.url("master.m3u8", credentials: "listener:s3cret-word")
        let trusted = try serve([url], home: try home(configuration: "stream-ca-file = \(caFile)\n"))
        try waitForMusic(trusted, "the HTTPS HLS station", timeout: 20)
        XCTAssertFalse(trusted.stderrLines.contains { $0.contains("s3cret") }, trusted.stderrLines.joined(separator: "\n"))
        XCTAssertTrue(try aubade("status").stdout.contains("https://127.0.0.1"))
        XCTAssertFalse(try aubade("status").stdout.contains("s3cret"))
        trusted.stop()

        let untrusted = try serve([url, fixtures.alpha.path])
        try waitForTitle("Alpha", timeout: 30)
        // The log line and the title travel apart (a pipe and the bus): the title can come first.
        _ = eventually { untrusted.stderrLines.contains { $0.contains("master.m3u8") && $0.contains("skipped") } }
        let line = untrusted.stderrLines.first { $0.contains("master.m3u8") && $0.contains("skipped") }
        print("HLS over HTTPS without the CA: \(line ?? "(no line)")")
        XCTAssertNotNil(line, untrusted.stderrLines.joined(separator: "\n"))
        XCTAssertFalse(untrusted.stderrLines.contains { $0.contains("s3cret") })
    }

    func testAPlaylistThatNamesItselfIsRefusedAndTheNextItemPlays() throws {
        let station = try HLSTestStation(directory: try makeDirectory("hls-self").path + "/live")
        self.station = station
        let daemon = try serve([station.url("self.m3u8"), fixtures.alpha.path])
        try waitForTitle("Alpha", timeout: 30)
        try waitForStatus("Playing")
        _ = eventually { daemon.stderrLines.contains { $0.contains("self.m3u8") && $0.contains("skipped") } }
        let line = daemon.stderrLines.first { $0.contains("self.m3u8") && $0.contains("skipped") }
        print("HLS: \(line ?? "(no line)"); \(station.requests.filter { $0.contains("self.m3u8") }.count) requests of self.m3u8")
        XCTAssertNotNil(line, daemon.stderrLines.joined(separator: "\n"))
        XCTAssertLessThanOrEqual(station.requests.filter { $0.contains("self.m3u8") }.count, 64)
    }
}
