import Foundation
import XCTest
@testable import TestSupport

/// MPD and MPRIS are two front-ends of one player: what one does, the other sees at once. An
/// MPRIS PlayPause wakes an MPD client idling on `player`; what an MPD client does (pause,
/// volume, repeat and single, random, the queue) is MPRIS's PlaybackStatus, Volume, LoopStatus,
/// Shuffle and Tracks; a station's new title moves the queue's version and wakes an MPD client
/// idling on `playlist`, as in mpd. Runs on PulseAudio and on PipeWire.
final class MPDFrontEndTests: StreamTestCase {
    private func startLibrary() throws -> (AubadeMPD, MPDConnection) {
        let music = try MPDTestLibrary.folder()
        let mpd = try startMPDDaemon(music: music, playlists: try makeDirectory("playlists"))
        let client = try mpd.connect()
        try waitForLibrary(client, songs: MPDTestLibrary.songCount)
        let added = try client.command("add \"Brass Parade\"")
        XCTAssertTrue(added.isOK, "\(added)")
        return (mpd, client)
    }

    func testAnMPRISPlayPauseWakesAnMPDClientIdlingOnPlayer() throws {
        let (mpd, client) = try startLibrary()
        XCTAssertTrue(try client.command("play").isOK)
        try waitForStatus("Playing")
        let idler = try mpd.connect()
        try idler.send("idle player")
        XCTAssertTrue(try Bus.player("PlayPause").succeeded)
        let woken = try idler.readAnswer()
        XCTAssertEqual(woken.lines, ["changed: player"], "\(woken)")
        XCTAssertEqual(try client.command("status").value("state"), "pause")
        // The other way round: an MPD client's play is MPRIS's PlaybackStatus.
        XCTAssertTrue(try client.command("pause 0").isOK)
        try waitForStatus("Playing")
    }

    func testWhatAnMPDClientSetsIsWhatMPRISShows() throws {
        let (_, client) = try startLibrary()
        XCTAssertTrue(try client.command("setvol 40").isOK)
        try eventually("MPRIS Volume 0.4 (is \((try? playerProperty("Volume")) ?? .double(-1)))") {
            try playerProperty("Volume") == .double(0.4)
        }
        XCTAssertTrue(try client.commandList(["repeat 1", "single 1"]).isOK)
        XCTAssertEqual(try playerProperty("LoopStatus"), .string("Track"))
        XCTAssertTrue(try client.command("single 0").isOK)
        XCTAssertEqual(try playerProperty("LoopStatus"), .string("Playlist"))
        XCTAssertTrue(try client.command("random 1").isOK)
        XCTAssertEqual(try playerProperty("Shuffle"), .boolean(true))
        // And an MPRIS LoopStatus is MPD's repeat and single.
        XCTAssertTrue(try Bus.set(Bus.playerInterface, "LoopStatus", "string:None").succeeded)
        let status = try client.command("status")
        XCTAssertEqual(status.value("repeat"), "0")
        XCTAssertEqual(status.value("single"), "0")
        // The queue: what `add` put in is MPRIS's TrackList, in the same order and number.
        let songs = try client.command("playlistinfo").values("file")
        XCTAssertEqual(try Bus.tracks().count, songs.count)
        XCTAssertTrue(try client.command("delete 0").isOK)
        try eventually("MPRIS Tracks one shorter") { try Bus.tracks().count == songs.count - 1 }
    }

    func testAStationsNewTitleMovesTheQueueVersionAndWakesIdlePlaylist() throws {
        let (_, source, url) = try startStation(titles: [(0, "Ann Example - First Song")])
        let music = try makeDirectory("music")
        let mpd = try startMPDDaemon(music: music, playlists: try makeDirectory("playlists"), arguments: [url])
        let client = try mpd.connect()
        try waitForTitle("First Song", timeout: 15)
        let current = try client.command("currentsong")
        XCTAssertEqual(current.value("file"), url)
        XCTAssertEqual(current.value("Title"), "Ann Example - First Song", "mpd shows a station's title whole")
        XCTAssertEqual(current.value("Name"), Self.stationName)
        let version = try XCTUnwrap(Int(try client.command("status").value("playlist") ?? ""))
        let idler = try mpd.connect(timeout: Sanitizer.scaled(20))
        try idler.send("idle playlist")
        try source.setTitleNow("Bo Example - Second Song")
        let woken = try idler.readAnswer()
        XCTAssertEqual(woken.lines, ["changed: playlist"], "\(woken)")
        let after = try client.command("status")
        XCTAssertGreaterThan(Int(after.value("playlist") ?? "") ?? 0, version, "\(after)")
        let changes = try client.command("plchanges \(version)")
        XCTAssertEqual(changes.value("Title"), "Bo Example - Second Song", "\(changes)")
    }
}
