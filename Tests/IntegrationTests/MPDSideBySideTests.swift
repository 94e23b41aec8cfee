import Foundation
import XCTest
@testable import TestSupport

/// Aubade's MPD front-end against the real thing: Debian's mpd 0.23.12 and `aubade serve` on the
/// same library (one copy of `MPDTestLibrary`, read by both), the same stored playlist in each
/// one's playlists folder, and the same corpus of commands sent to both (`MPDCorpus`: every
/// command Aubade serves, the filters, `group`, `sort`, `window`, errors, command lists, queue
/// edits from a seed, stored playlists, idle, tag types, binary chunks, permissions). Their
/// answers are compared line by line once masked where they must differ (`AnswerMasks`: times,
/// and the ids, queue versions and job numbers each server gives out, which are paired, not
/// dropped) and mapped where Aubade differs on purpose (`KnownDifferences.mpd023`, each row
/// with its reason). Every other difference fails the test, all of them listed, with both answers.
///
/// Both start empty-queued: mpd from a state file of its own that does not exist yet; Aubade,
/// which queues its music folder at a first start with no saved state, has that queue cleared
/// (a `clear` sent to it alone, before the corpus) — the corpus itself starts from an empty
/// queue on both. Both run with a password that gives `read` alone and full default
/// permissions, so that a client that sends it meets the permission errors.
///
/// Nothing here listens to audio: mpd plays to a null output, Aubade to the session's null sink.
final class MPDSideBySideTests: AubadeTestCase {
    private var mpd: ReferenceMPD?

    override func tearDown() {
        mpd?.stop()
        mpd = nil
        super.tearDown()
    }

    func testMPDAndAubadeAnswerTheCorpusAlike() throws {
        let started = Date()
        let music = try MPDTestLibrary.folder()
        let mpd = try ReferenceMPD.start(music: music, configuration: [
            "password \"reader@read\"", "default_permissions \"read,add,player,control,admin\"",
        ])
        self.mpd = mpd
        let playlists = TestRunDirectory.url.appendingPathComponent("aubade-playlists-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: playlists, withIntermediateDirectories: true)
        for folder in [mpd.playlists, playlists] {
            try MPDTestLibrary.storedPlaylist(root: music)
                .write(to: folder.appendingPathComponent("favourites.m3u"), atomically: true, encoding: .utf8)
        }
        let configuration = TestRunDirectory.url.appendingPathComponent("aubade-mpd-\(UUID().uuidString).conf")
        try "mpd-password = reader@read\ndefault-permissions = read,add,player,control,admin\n"
            .write(to: configuration, atomically: true, encoding: .utf8)
        let aubade = try startMPDDaemon(music: music, playlists: playlists, arguments: ["--config", configuration.path])
        let setUp = try aubade.connect()
        try clearFirstQueue(setUp, songs: MPDTestLibrary.songCount)
        try ReferenceMPD.waitForDatabase(setUp, timeout: Sanitizer.scaled(20))
        setUp.close()
        // Clients of their own for the corpus: what the setting up changed (idle) is not theirs.
        let (mpdMain, aubadeMain) = (try mpd.connect(), try aubade.connect())
        XCTAssertEqual(aubadeMain.greeting, mpdMain.greeting, "the greeting (the protocol version)")
        let setUpSeconds = Date().timeIntervalSince(started)

        let run = SideBySideRun(
            mpd: SideBySideServer(name: "mpd", main: mpdMain, connect: { try mpd.connect(unix: $0) }),
            aubade: SideBySideServer(name: "aubade", main: aubadeMain, connect: { try aubade.connect(unix: $0) }),
            music: music, knownDifferences: KnownDifferences(KnownDifferences.mpd023))
        try run.run(MPDCorpus.all)
        // The corpus sends every command Aubade serves (kill comes next).
        let served = Set(try run.aubade.main.command("commands").values("command"))
        let unsent = served.subtracting(run.commandsSent).subtracting(["kill"])
        XCTAssert(unsent.isEmpty, "commands Aubade serves that the corpus never sends: \(unsent.sorted())")
        // Last, kill: each server closes the connection and exits.
        for connection in [run.mpd.main, run.aubade.main] { try connection.send("kill") }
        run.compare(["kill"], try run.mpd.main.readAnswer(), try run.aubade.main.readAnswer())
        let exited = (mpd.waitForExit(timeout: Sanitizer.scaled(10)), aubade.daemon.waitForExit(timeout: Sanitizer.scaled(10)))
        XCTAssertNotNil(exited.0, "mpd did not exit after kill")
        XCTAssertNotNil(exited.1, "aubade did not exit after kill")

        print("MPD side by side: \(run.exchanges) exchanges in \(String(format: "%.1f", Date().timeIntervalSince(started))) s "
              + "(\(String(format: "%.1f", setUpSeconds)) s to start both); known differences used: \(run.knownDifferences.uses)")
        print("slowest steps: " + run.slowest.map { "\($0.step) \(String(format: "%.2f", $0.seconds)) s" }.joined(separator: "; "))
        if ProcessInfo.processInfo.environment["AUBADE_MPD_TRANSCRIPT"] != nil {
            print(run.transcript.joined(separator: "\n"))
        }
        if !run.differences.isEmpty {
            // Whole on stdout (a failure message this long is cut); the first few in the failure.
            print("--- \(run.differences.count) of \(run.exchanges) answers differ from mpd's:\n"
                  + run.differences.joined(separator: "\n"))
            XCTFail("\(run.differences.count) of \(run.exchanges) answers differ from mpd's (all of them above); the first:\n"
                    + run.differences.prefix(3).joined(separator: "\n"))
        }
        for row in run.knownDifferences.unused {
            XCTFail("known difference \"\(row.name)\" was not seen: it is gone, or the corpus no longer shows it (\(row.reason))")
        }
    }
}
