import DBusKit
import Foundation
import XCTest
@testable import TestSupport

/// Session categories (issue 7), against fake MPRIS players on the private session bus
/// (`ProcessMPRISPlayer`s with no stream: each a process of its own, `org.mpris.MediaPlayer2.fake<N>`):
///
/// - `playback` (the default): Aubade starting or resuming pauses every other player that is
///   Playing, and hands them back (Play) when it stops, quits, or stays paused by the user for
///   `hand-back-delay` seconds, only to those still Paused on the same track; never after a
///   route-change pause. Another player starting while Aubade plays pauses Aubade (PauseReason
///   otherPlayer) until it stops.
/// - `mixWithOthers`: nobody is paused or resumed, and other players are ignored.
///
/// Plus: no Pause/Play ping-pong, `aubade monitor` shows the decisions, and a logind "block"
/// sleep inhibitor is held while Playing (against `RecordingLogind` on a private system bus).
///
/// Ordering, not sleeping: a fake announces a change (PropertiesChanged) before it answers the
/// call that made it (its user's control call, which `userPlays()` and friends wait for), so the
/// bus has queued the news to Aubade before anything the test sends to Aubade next; and Aubade
/// reads its one connection in order on one queue. A call to Aubade after a user action is
/// therefore handled after the news (`aubadeHeardTheFakes`). The fixed waits left are the tests'
/// claims about time: that nothing happens within a span, or actions in quick succession.
final class SessionCategoryTests: AudioSessionTestCase {
    static let sessionInterface = "org.aubade.AudioSession1"
    /// Short, so the tests do not wait long; each test waits generously around it.
    static let handBackDelay = 0.5

    private var fakes: [ProcessMPRISPlayer] = []
    private var monitorProcesses: [Subprocess] = []
    private var systemBus: Subprocess?
    private var logind: RecordingLogind?

    override func tearDown() {
        let failed = (testRun?.failureCount ?? 0) + (testRun?.unexpectedExceptionCount ?? 0) > 0
        if failed {
            for fake in fakes {
                print("--- \(fake.busName) (pid \(fake.pid)): status history \(fake.statusHistory), calls received:")
                for call in fake.calls { print("    \(call.interface).\(call)") }
                if !fake.errors.isEmpty { print("    errors: \(fake.errors)\n\(fake.log)") }
            }
            if let logind { print("--- logind inhibitors: \(logind.summary)") }
        }
        for process in monitorProcesses { process.stop(grace: 2) }
        monitorProcesses.removeAll()
        // The daemons stop first (SIGTERM: they may hand back to the fakes, which must still answer).
        super.tearDown()
        for fake in fakes { fake.stop() }
        fakes.removeAll()
        logind?.close()
        logind = nil
        systemBus?.stop(grace: 3)
        systemBus = nil
    }

    // MARK: Helpers

    /// A fake player `org.mpris.MediaPlayer2.fake<index>` with no stream, owning its name when
    /// this returns; stopped (by PID) after the test. Track 0: no track (empty Metadata).
    private func fake(_ index: Int, _ status: String = "Stopped", track: Int = 1,
                      pause: ProcessMPRISPlayer.PauseBehaviour = .strict,
                      playerPropertiesDelay: Double = 0) throws -> ProcessMPRISPlayer {
        let fake = try ProcessMPRISPlayer(.init(name: "fake\(index)", status: status, stream: .none, pause: pause, track: track,
                                                playerPropertiesDelay: playerPropertiesDelay))
        fakes.append(fake)
        try fake.waitUntilReady()
        return fake
    }

    /// Returns once Aubade has handled every change the fakes announced so far (see the
    /// class's comment: the answer to this read comes after it).
    private func aubadeHeardTheFakes() throws {
        _ = try playbackStatus()
    }

    /// `aubade serve --hand-back-delay D EXTRA… long1.mp3`, waiting until it plays.
    @discardableResult
    private func serve(_ extra: [String] = [], handBackDelay: Double = SessionCategoryTests.handBackDelay,
                       environment: [String: String] = [:],
                       file: StaticString = #filePath, line: UInt = #line) throws -> Daemon {
        let daemon = try startDaemon(["--hand-back-delay", "\(handBackDelay)"] + extra + [fixtures.long.path],
                                     environment: environment)
        try waitForStatus("Playing", timeout: 10, file: file, line: line)
        try waitUntilAubadeFollows(fakes.filter { $0.options.playerPropertiesDelay == 0 }, file: file, line: line)
        return daemon
    }

    /// Returns once Aubade has read each fake's status (the fake has answered its GetAll of the
    /// Player interface): a change a fake announces afterwards reaches Aubade after that answer,
    /// so it is a change, not the status Aubade first sees. (Without this, a user pressing play
    /// on the other player just after Aubade started could be taken for a player that was
    /// already playing, which Aubade pauses instead of giving way.)
    private func waitUntilAubadeFollows(_ players: [ProcessMPRISPlayer], file: StaticString = #filePath, line: UInt = #line) throws {
        for player in players {
            try eventually("Aubade reads \(player.busName)'s status", timeout: 10, file: file, line: line) {
                player.calls.contains { $0.member == "GetAll" && $0.arguments == [Bus.playerInterface] }
            }
        }
        try aubadeHeardTheFakes()
    }

    /// Aubade playing, having paused `players`: it starts, the user pauses it, starts the
    /// players on their own buttons, and resumes Aubade, which pauses them. (Independent of
    /// what Aubade does with players already Playing when it starts: that has its own test.)
    @discardableResult
    private func aubadePlaysHavingPaused(_ players: [ProcessMPRISPlayer], _ extra: [String] = [],
                                         handBackDelay: Double = SessionCategoryTests.handBackDelay,
                                         file: StaticString = #filePath, line: UInt = #line) throws -> Daemon {
        let daemon = try serve(extra, handBackDelay: handBackDelay, file: file, line: line)
        XCTAssertTrue(try Bus.player("Pause").succeeded, file: file, line: line)
        try waitForStatus("Paused", file: file, line: line)
        for player in players { try player.userPlays() }
        // Answered after Aubade handled their PropertiesChanged (aubadeHeardTheFakes).
        XCTAssertEqual(try playbackStatus(), "Paused", "Aubade, paused by the user, while others start", file: file, line: line)
        let marks = players.map(\.transportMark)
        XCTAssertTrue(try Bus.player("Play").succeeded, file: file, line: line)
        try waitForStatus("Playing", file: file, line: line)
        for (player, mark) in zip(players, marks) {
            try waitForCall("Pause", on: player, after: mark, "when Aubade resumes", file: file, line: line)
            try waitForFakeStatus(player, "Paused", file: file, line: line)
        }
        return daemon
    }

    private func category() throws -> String? {
        try Bus.get(Self.sessionInterface, "Category").string
    }

    /// Waits for the fake to have received `member` (after `mark` transport calls); returns it.
    @discardableResult
    private func waitForCall(_ member: String, on fake: ProcessMPRISPlayer, after mark: Int = 0, timeout: TimeInterval = 5,
                             _ why: String = "", file: StaticString = #filePath,
                             line: UInt = #line) throws -> ProcessMPRISPlayer.Call {
        var found: ProcessMPRISPlayer.Call?
        try eventually("\(member) on \(fake.busName) \(why) (transport calls: \(fake.transportCalls(after: mark)))",
                       timeout: timeout, file: file, line: line) {
            found = fake.transportCalls(after: mark).first { $0.member == member }
            return found != nil
        }
        return found!
    }

    /// Fails if any fake gets a transport call (Play, Pause, …) after its mark within `duration`.
    private func assertNoCalls(to fakes: [ProcessMPRISPlayer], marks: [Int]? = nil, for duration: TimeInterval,
                               _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        let marks = marks ?? fakes.map(\.transportMark)
        Thread.sleep(forTimeInterval: duration)  // about time: no call within `duration`
        for (fake, mark) in zip(fakes, marks) {
            let calls = fake.transportCalls(after: mark)
            XCTAssertTrue(calls.isEmpty, "\(fake.busName) should get no call \(context), got \(calls)", file: file, line: line)
        }
    }

    private func waitForFakeStatus(_ fake: ProcessMPRISPlayer, _ status: String, timeout: TimeInterval = 5,
                                   file: StaticString = #filePath, line: UInt = #line) throws {
        try eventually("\(fake.busName) \(status) (is \(fake.playbackStatus), calls \(fake.transportCalls))",
                       timeout: timeout, file: file, line: line) { fake.playbackStatus == status }
    }

    /// Aubade's PlaybackStatus stays `status` and the fakes get no call for `duration`.
    private func assertSettled(_ status: String, fakes: [ProcessMPRISPlayer], for duration: TimeInterval, _ context: String,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let marks = fakes.map(\.transportMark)
        try assertStatusStays(status, for: duration, context, file: file, line: line)
        for (fake, mark) in zip(fakes, marks) {
            let calls = fake.transportCalls(after: mark)
            XCTAssertTrue(calls.isEmpty, "\(fake.busName) should get no call \(context), got \(calls)", file: file, line: line)
        }
    }

    // MARK: The setting

    func testCategoryDefaultsToPlaybackAndIsWritable() throws {
        try serve()
        XCTAssertEqual(try category(), "playback", "Category default")

        let set = try Bus.set(Self.sessionInterface, "Category", "string:mixWithOthers")
        XCTAssertTrue(set.succeeded, "Set Category mixWithOthers: \(set)")
        XCTAssertEqual(try category(), "mixWithOthers")

        let bad = try Bus.set(Self.sessionInterface, "Category", "string:soloAmbient")
        XCTAssertFalse(bad.succeeded, "Set Category to an unknown value should fail: \(bad)")
        print("Set Category soloAmbient: \(bad.errorName ?? "no error")")
        XCTAssertEqual(try category(), "mixWithOthers", "a refused value changes nothing")

        let wrongType = try Bus.set(Self.sessionInterface, "Category", "int32:1")
        XCTAssertFalse(wrongType.succeeded, "Set Category to an int32 should fail: \(wrongType)")

        XCTAssertTrue(try Bus.set(Self.sessionInterface, "Category", "string:playback").succeeded)
        XCTAssertEqual(try category(), "playback")
    }

    func testCategoryFromTheFlag() throws {
        try serve(["--category", "mixWithOthers"])
        XCTAssertEqual(try category(), "mixWithOthers")
    }

    func testCategoryFromTheConfigurationFileAndTheFlagWins() throws {
        let (home, _) = try home(withConfiguration: "category = mixWithOthers\nhand-back-delay = 2.5\n")
        let first = try startDaemon([fixtures.long.path], home: home)
        try waitForStatus("Playing", timeout: 10)
        XCTAssertEqual(try category(), "mixWithOthers", "category from aubade.conf")
        first.stop()

        try startDaemon(["--category", "playback", fixtures.long.path], home: home)
        try waitForStatus("Playing", timeout: 10)
        XCTAssertEqual(try category(), "playback", "--category over the file")
    }

    func testABadCategoryInTheFileStopsTheStart() throws {
        let (home, file) = try home(withConfiguration: "category = soloAmbient\n")
        let daemon = try startDaemon([fixtures.long.path], waitingFor: nil, home: home)
        guard let status = daemon.waitForExit(timeout: 10) else {
            return XCTFail("aubade serve started despite category = soloAmbient")
        }
        XCTAssertNotEqual(status, 0)
        let stderr = daemon.stderrLines.joined(separator: "\n")
        XCTAssertTrue(stderr.contains("\(file):1:") && stderr.contains("category"), "stderr: \(stderr)")
    }

    func testBadCategoryOrHandBackDelayFlagsAreUsageErrors() throws {
        for arguments in [["--category", "soloAmbient"], ["--hand-back-delay", "soon"], ["--hand-back-delay", "-1"]] {
            let daemon = try startDaemon(arguments + [fixtures.long.path], waitingFor: nil)
            guard let status = daemon.waitForExit(timeout: 10) else {
                XCTFail("aubade serve \(arguments.joined(separator: " ")) started")
                continue
            }
            XCTAssertEqual(status, 64, "exit status of aubade serve \(arguments.joined(separator: " "))")
            let stderr = daemon.stderrLines.joined(separator: "\n")
            XCTAssertTrue(stderr.contains(arguments[0]), "stderr should name \(arguments[0]): \(stderr)")
        }
    }

    // MARK: playback: pausing others and handing back

    /// A playing player whose status comes after its process and Identity (asked for at the
    /// same time) is paused by Aubade's start, not taken for one starting to play: before, it was
    /// reported Stopped first, and Aubade, playing by then, paused itself (seen in CI).
    func testAPlayingPlayerWhoseStatusComesLastIsPaused() throws {
        let playing = try fake(1, "Playing", playerPropertiesDelay: 1.5)

        try serve()

        _ = try waitForCall("Pause", on: playing, timeout: 5, "once its status is known")
        try waitForFakeStatus(playing, "Paused")
        try assertStatusStays("Playing", for: 1, "after pausing the other player")
        XCTAssertEqual(playing.calls("Pause").count, 1, "one Pause: \(playing.transportCalls)")
    }

    /// The same late status for a Stopped player: it must still be known as Stopped, so that
    /// its start later interrupts Aubade (before the mend of the watcher's first report, a
    /// Stopped status equal to what the partial entry assumed was never reported, and its start
    /// read as "first seen already playing": Aubade paused it instead of giving way).
    func testAStoppedPlayerWhoseStatusComesLastStillInterruptsWhenItStarts() throws {
        // No track: nothing in its status news but the status.
        let stopped = try fake(1, "Stopped", track: 0, playerPropertiesDelay: 1.5)
        try serve()
        // Its status has been read once it was sent: the news below comes after it on the fake's connection.
        try eventually("the late answer to GetAll(\(Bus.playerInterface)) sent (\(stopped))", timeout: 5) {
            stopped.lateAnswers.contains { $0.member == "GetAll" && $0.arguments == [Bus.playerInterface] }
        }

        try stopped.userPlays()

        try waitForStatus("Paused", timeout: 5)
        Thread.sleep(forTimeInterval: 1)  // about time: no Pause for it within a second
        XCTAssertEqual(stopped.playbackStatus, "Playing")
        XCTAssertTrue(stopped.calls("Pause").isEmpty, "the player that started is not paused: \(stopped.transportCalls)")
    }

    /// Aubade starting pauses the playing fake (only it), and Stop hands it back.
    func testStartingPausesThePlayingPlayerAndStopHandsItBack() throws {
        let playing = try fake(1, "Playing")
        let paused = try fake(2, "Paused")
        let stopped = try fake(3, "Stopped")

        try serve()

        try waitForCall("Pause", on: playing, "when Aubade starts playing")
        try waitForFakeStatus(playing, "Paused")
        try assertStatusStays("Playing", for: 1, "after pausing the other player")
        XCTAssertTrue(paused.transportCalls.isEmpty, "a Paused player is not touched: \(paused.transportCalls)")
        XCTAssertTrue(stopped.transportCalls.isEmpty, "a Stopped player is not touched: \(stopped.transportCalls)")
        XCTAssertEqual(playing.calls("Pause").count, 1, "one Pause: \(playing.transportCalls)")

        let mark = playing.transportMark
        XCTAssertTrue(try Bus.player("Stop").succeeded)
        try waitForStatus("Stopped")
        try waitForCall("Play", on: playing, after: mark, "when Aubade stops")
        try waitForFakeStatus(playing, "Playing")
        assertNoCalls(to: [paused, stopped], marks: [0, 0], for: 1, "ever (Aubade did not pause it)")
        try assertStatusStays("Stopped", for: 1, "after handing back")
        XCTAssertEqual(playing.transportCalls.map(\.member), ["Pause", "Play"])
    }

    /// A player that starts while Aubade is paused by the user is paused when Aubade resumes.
    func testResumingPausesAPlayerThatStartedMeanwhile() throws {
        let other = try fake(1)
        try serve()
        XCTAssertTrue(try Bus.player("Pause").succeeded)
        try waitForStatus("Paused")

        try other.userPlays()
        try assertSettled("Paused", fakes: [other], for: 1, "while Aubade is paused and the other one plays")

        XCTAssertTrue(try Bus.player("Play").succeeded)
        try waitForStatus("Playing")
        try waitForCall("Pause", on: other, "when Aubade resumes")
        try waitForFakeStatus(other, "Paused")
        try assertStatusStays("Playing", for: 1, "after pausing the other player")
    }

    /// Stop hands back (to a player Aubade paused when resuming).
    func testStopHandsBack() throws {
        let other = try fake(1)
        let bystander = try fake(2, "Paused")
        try aubadePlaysHavingPaused([other])
        try assertStatusStays("Playing", for: 0.5, "after pausing the other player")
        let mark = other.transportMark

        XCTAssertTrue(try Bus.player("Stop").succeeded)
        try waitForStatus("Stopped")
        try waitForCall("Play", on: other, after: mark, "when Aubade stops")
        try waitForFakeStatus(other, "Playing")
        try assertSettled("Stopped", fakes: [other, bystander], for: 1, "after handing back")
        XCTAssertTrue(bystander.transportCalls.isEmpty, "a player Aubade did not pause: \(bystander.transportCalls)")
        XCTAssertEqual(other.transportCalls.map(\.member), ["Pause", "Play"])
    }

    /// A user pause hands back only after hand-back-delay seconds of staying paused.
    func testAUserPauseHandsBackAfterTheDelay() throws {
        let other = try fake(1)
        let delay = 1.5
        try aubadePlaysHavingPaused([other], handBackDelay: delay)

        let mark = other.transportMark
        XCTAssertTrue(try Bus.player("Pause").succeeded)
        let pausedAt = ProcessMPRISPlayer.now()  // the fake's clock: CLOCK_MONOTONIC
        try waitForStatus("Paused")
        XCTAssertEqual(try AudioSessionBus.pauseReason(), "user")

        let play = try waitForCall("Play", on: other, after: mark, timeout: delay + 5, "after hand-back-delay")
        let after = play.time - pausedAt
        print(String(format: "hand-back %.3f s after the user pause (hand-back-delay %.1f s)", after, delay))
        XCTAssertGreaterThanOrEqual(after, delay - 0.2, "handed back before hand-back-delay")
        XCTAssertLessThanOrEqual(after, delay + 2, "handed back long after hand-back-delay")
        try waitForFakeStatus(other, "Playing")
        try assertSettled("Paused", fakes: [other], for: 1.5, "after the hand-back")
    }

    /// Resuming within the delay cancels the hand-back (the player stays paused).
    func testResumingWithinTheDelayHandsNothingBack() throws {
        let other = try fake(1)
        let delay = 2.0
        try aubadePlaysHavingPaused([other], handBackDelay: delay)

        let mark = other.transportMark
        XCTAssertTrue(try Bus.player("Pause").succeeded)
        try waitForStatus("Paused")
        Thread.sleep(forTimeInterval: 0.5)  // about time: resume 0.5 s into the 2 s delay
        XCTAssertTrue(try Bus.player("Play").succeeded)
        try waitForStatus("Playing")

        assertNoCalls(to: [other], marks: [mark], for: delay + 1.5, "when Aubade resumed within hand-back-delay")
        XCTAssertEqual(other.playbackStatus, "Paused")
        XCTAssertEqual(try playbackStatus(), "Playing")
    }

    func testQuitHandsBack() throws {
        let other = try fake(1)
        let daemon = try aubadePlaysHavingPaused([other])
        let mark = other.transportMark

        let quit = try Bus.call("\(Bus.rootInterface).Quit")
        XCTAssertTrue(quit.succeeded || quit.errorName == "org.freedesktop.DBus.Error.NoReply", "Quit: \(quit)")
        XCTAssertNotNil(daemon.waitForExit(timeout: 10), "aubade did not exit after Quit")
        try waitForCall("Play", on: other, after: mark, "when Aubade quits")
        try waitForFakeStatus(other, "Playing")
    }

    func testSIGTERMHandsBack() throws {
        let other = try fake(1)
        let daemon = try aubadePlaysHavingPaused([other])
        let mark = other.transportMark

        daemon.process.signal(SIGTERM)
        let status = daemon.waitForExit(timeout: 10)
        XCTAssertEqual(status, 0, "exit status after SIGTERM")
        try waitForCall("Play", on: other, after: mark, "when Aubade gets SIGTERM")
        try waitForFakeStatus(other, "Playing")
    }

    /// Of two players Aubade paused, the one the user resumed meanwhile is left alone.
    func testAPlayerTheUserResumedIsLeftAlone() throws {
        let first = try fake(1)
        let second = try fake(2)
        let delay = 1.5
        try aubadePlaysHavingPaused([first, second], handBackDelay: delay)

        let marks = [first.transportMark, second.transportMark]
        XCTAssertTrue(try Bus.player("Pause").succeeded)
        try waitForStatus("Paused")
        // Within the delay, the user resumes the second player on its own buttons.
        try second.userPlays()

        try waitForCall("Play", on: first, after: marks[0], timeout: delay + 5, "(still Paused on its track)")
        assertNoCalls(to: [second], marks: [marks[1]], for: 1, "(the user resumed it meanwhile)")
        XCTAssertEqual(second.playbackStatus, "Playing")
    }

    /// A player the user moved to another track meanwhile is left alone.
    func testAPlayerOnAnotherTrackIsLeftAlone() throws {
        let first = try fake(1)
        let second = try fake(2)
        try aubadePlaysHavingPaused([first, second])

        let marks = [first.transportMark, second.transportMark]
        try second.userChangesTrack(to: 2)
        try aubadeHeardTheFakes()  // the Metadata change
        XCTAssertTrue(try Bus.player("Stop").succeeded)
        try waitForStatus("Stopped")

        try waitForCall("Play", on: first, after: marks[0], "(still Paused on its track)")
        assertNoCalls(to: [second], marks: [marks[1]], for: 1, "(the user changed its track meanwhile)")
        XCTAssertEqual(second.playbackStatus, "Paused")
    }

    /// The headphones going away pause Aubade and nothing is handed back.
    func testARouteChangePauseDoesNotHandBack() throws {
        let other = try fake(1)
        let daemon = try aubadePlaysHavingPaused([other])
        try waitForStream(of: daemon, "our uncorked stream on headphones") {
            try $0.corked == false && Pulse.sinkName(of: $0) == "headphones"
        }
        let mark = other.transportMark

        try Pulse.unloadNullSink("headphones")

        try waitForStatus("Paused")
        try waitForPauseReason("routeChange")
        assertNoCalls(to: [other], marks: [mark], for: Self.handBackDelay + 2, "after a route-change pause")
        XCTAssertEqual(other.playbackStatus, "Paused")
        // (tearDown puts the headphones back.)
    }

    // MARK: mixWithOthers

    func testMixWithOthersTouchesNobody() throws {
        let playing = try fake(1, "Playing")
        let idle = try fake(2, "Paused")
        try serve(["--category", "mixWithOthers"])
        try assertSettled("Playing", fakes: [playing, idle], for: 2, "in mixWithOthers after Aubade started")

        // Another player starting or pausing does not matter either.
        try idle.userPlays()
        try assertSettled("Playing", fakes: [playing, idle], for: 1.5, "in mixWithOthers when another player started")
        XCTAssertEqual(try AudioSessionBus.pauseReason(), "none")
        try idle.userPauses()

        // Pause (past the hand-back delay), Play, Stop: still nobody touched.
        XCTAssertTrue(try Bus.player("Pause").succeeded)
        try waitForStatus("Paused")
        try assertSettled("Paused", fakes: [playing, idle], for: Self.handBackDelay + 1, "in mixWithOthers after a pause")
        XCTAssertTrue(try Bus.player("Play").succeeded)
        try waitForStatus("Playing")
        XCTAssertTrue(try Bus.player("Stop").succeeded)
        try waitForStatus("Stopped")
        assertNoCalls(to: [playing, idle], marks: [0, 0], for: 1, "ever in mixWithOthers")
        XCTAssertEqual(playing.playbackStatus, "Playing")
    }

    /// Switching to mixWithOthers at run time (the property) takes effect at the next Play.
    func testSettingMixWithOthersAtRunTime() throws {
        let other = try fake(1)
        try serve()
        XCTAssertTrue(try Bus.set(Self.sessionInterface, "Category", "string:mixWithOthers").succeeded)
        XCTAssertTrue(try Bus.player("Pause").succeeded)
        try waitForStatus("Paused")
        try other.userPlays()
        XCTAssertTrue(try Bus.player("Play").succeeded)
        try waitForStatus("Playing")
        try assertSettled("Playing", fakes: [other], for: 1.5, "after Play in mixWithOthers")
        XCTAssertEqual(other.playbackStatus, "Playing")
    }

    // MARK: Aubade interrupted by another player

    func testAnotherPlayerStartingPausesUsAndItsPauseResumesUs() throws {
        let other = try fake(1)
        let daemon = try serve()
        try assertStatusStays("Playing", for: 0.5, "before the other player starts")
        let monitor = try monitor(daemon)
        let mark = monitor.mark

        try other.userPlays()

        try waitForStatus("Paused")
        try waitForPauseReason("otherPlayer")
        assertNoCalls(to: [other], marks: [0], for: 1, "(Aubade gives way, it does not fight back)")

        try other.userPauses()

        try waitForStatus("Playing")
        XCTAssertEqual(try AudioSessionBus.pauseReason(), "none")
        try assertSettled("Playing", fakes: [other], for: 1.5, "after resuming (the other one stays paused)")
        let statuses = monitor.messages.dropFirst(mark).compactMap { $0.changedProperties["PlaybackStatus"]?.string }
        XCTAssertEqual(statuses, ["Paused", "Playing"], "Aubade's PlaybackStatus changes")
    }

    func testAnotherPlayerStoppingResumesUs() throws {
        let other = try fake(1, "Paused")
        try serve()
        try other.userPlays()
        try waitForStatus("Paused")
        try waitForPauseReason("otherPlayer")

        try other.userStops()

        try waitForStatus("Playing")
        try assertSettled("Playing", fakes: [other], for: 1, "after the other player stopped")
    }

    func testAnotherPlayerGoingAwayResumesUs() throws {
        let other = try fake(1)
        try serve()
        try other.userPlays()
        try waitForStatus("Paused")
        try waitForPauseReason("otherPlayer")

        other.stop()

        try waitForStatus("Playing")
    }

    /// The user pausing Aubade while the other player plays keeps it paused after that player stops.
    func testAUserPauseDuringTheOtherPlayerStaysPaused() throws {
        let other = try fake(1)
        try serve()
        try other.userPlays()
        try waitForStatus("Paused")
        try waitForPauseReason("otherPlayer")

        XCTAssertTrue(try Bus.player("Pause").succeeded)
        try waitForPauseReason("user")
        try other.userPauses()

        try assertStatusStays("Paused", for: Self.handBackDelay + 1.5, "after the other player paused (the user had acted)")
        XCTAssertEqual(try AudioSessionBus.pauseReason(), "user")
        XCTAssertTrue(other.transportCalls.isEmpty, "no call to the other player: \(other.transportCalls)")
    }

    func testMixWithOthersIgnoresAnotherPlayerStarting() throws {
        let other = try fake(1)
        try serve(["--category", "mixWithOthers"])
        try other.userPlays()
        try assertSettled("Playing", fakes: [other], for: 2, "in mixWithOthers when another player started")
        XCTAssertEqual(try AudioSessionBus.pauseReason(), "none")
        try other.userStops()
        try assertSettled("Playing", fakes: [other], for: 1, "in mixWithOthers when another player stopped")
    }

    // MARK: No ping-pong

    /// Two fakes and Aubade, a run of user actions: afterwards everything settles.
    func testNoPingPongBetweenTwoPlayersAndAubade() throws {
        let first = try fake(1)
        let second = try fake(2)
        try aubadePlaysHavingPaused([first, second])

        // The user, in quick succession, on all three (about time: the fixed gaps are the test).
        try first.userPlays()                               // → Aubade paused (otherPlayer)
        Thread.sleep(forTimeInterval: 0.3)
        try second.userPlays()
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertTrue(try Bus.player("Play").succeeded)     // → both paused again
        Thread.sleep(forTimeInterval: 0.3)
        try first.userPlays()                               // → Aubade paused
        Thread.sleep(forTimeInterval: 0.3)
        try first.userPauses()                              // → Aubade resumes (if it was the interrupter)
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertTrue(try Bus.player("Pause").succeeded)    // → hand-back after 0.5 s
        Thread.sleep(forTimeInterval: 0.2)
        try second.userPlays()
        Thread.sleep(forTimeInterval: 0.2)
        let marks = [first.transportMark, second.transportMark]
        XCTAssertTrue(try Bus.player("Play").succeeded)     // last action

        // Two seconds after the last action: a reaction or two, no stream of calls.
        Thread.sleep(forTimeInterval: 2)  // about time: what came within 2 s
        let reactions = zip([first, second], marks).flatMap { fake, mark in
            fake.transportCalls(after: mark).map { (fake.busName, $0) }
        }
        print("calls within 2 s after the last action: \(reactions.map { "\($0.0): \($0.1)" })")
        print("all calls: fake1 \(first.transportCalls.map(\.member)), fake2 \(second.transportCalls.map(\.member))")
        XCTAssertLessThanOrEqual(reactions.count, 2, "more than one reaction per player after the last action: \(reactions)")
        // Then nothing at all, and Aubade holds still.
        let status = try playbackStatus()
        try assertSettled(status, fakes: [first, second], for: 2, "once settled")
        print("settled: Aubade \(status), fake1 \(first.playbackStatus), fake2 \(second.playbackStatus)")
        // Only one player plays.
        let playing = [status, first.playbackStatus, second.playbackStatus].filter { $0 == "Playing" }.count
        XCTAssertLessThanOrEqual(playing, 1, "Aubade \(status), fake1 \(first.playbackStatus), fake2 \(second.playbackStatus)")
    }

    /// A player that plays again by itself whenever it is paused: Aubade gives way once, and
    /// does not take the speakers back (no Pause/Play loop).
    func testNoPingPongWithAPlayerThatFightsBack() throws {
        let stubborn = try fake(1, pause: .fightsBack)
        try serve()
        XCTAssertTrue(try Bus.player("Pause").succeeded)
        try waitForStatus("Paused")
        try stubborn.userPlays()
        try aubadeHeardTheFakes()

        let mark = stubborn.transportMark
        XCTAssertTrue(try Bus.player("Play").succeeded)
        try waitForCall("Pause", on: stubborn, after: mark, "when Aubade resumes")
        // It comes back 0.2 s later: Aubade, playing, gives way (otherPlayer).
        try waitForStatus("Paused")
        try waitForPauseReason("otherPlayer")
        try assertSettled("Paused", fakes: [stubborn], for: 2, "with a player that fights back")
        let calls = stubborn.transportCalls(after: mark)
        print("calls to the stubborn player: \(calls)")
        XCTAssertEqual(calls.map(\.member), ["Pause"], "one Pause, then nothing")
        XCTAssertEqual(stubborn.playbackStatus, "Playing")
    }

    // MARK: aubade monitor

    func testMonitorShowsThePauseDecision() throws {
        let other = try fake(1)
        try serve()
        XCTAssertTrue(try Bus.player("Pause").succeeded)
        try waitForStatus("Paused")
        try other.userPlays()
        // The monitor starts once Aubade has handled the other one's start: whatever it said
        // about that went out before the monitor listened, so its lines are about what follows.
        try aubadeHeardTheFakes()
        let monitor = try startMonitor()
        let start = monitor.stdout.lines.count

        XCTAssertTrue(try Bus.player("Play").succeeded)
        try waitForCall("Pause", on: other)

        let line = monitor.stdout.waitForLine(from: start, timeout: 5) {
            $0.contains("fake1") && $0.lowercased().contains("pause")
        }?.line
        XCTAssertNotNil(line, "aubade monitor printed no line about pausing fake1; it printed:\n"
                        + monitor.stdout.lines.joined(separator: "\n") + "\nstderr: \(monitor.stderr.text)")
        print("aubade monitor: \(line ?? "-")")
    }

    func testMonitorShowsTheHandBack() throws {
        let other = try fake(1)
        try aubadePlaysHavingPaused([other])
        let monitor = try startMonitor()
        let start = monitor.stdout.lines.count
        let mark = other.transportMark
        XCTAssertTrue(try Bus.player("Stop").succeeded)
        try waitForCall("Play", on: other, after: mark)
        let line = monitor.stdout.waitForLine(from: start, timeout: 5) { $0.contains("fake1") }?.line
        XCTAssertNotNil(line, "aubade monitor printed no line about handing back to fake1; it printed:\n"
                        + monitor.stdout.lines.joined(separator: "\n"))
        print("aubade monitor: \(line ?? "-")")
    }

    /// `aubade monitor`, once it listens (its "watching" line).
    private func startMonitor() throws -> Subprocess {
        let monitor = try Subprocess(try Daemon.binaryPath(), ["monitor"])
        monitorProcesses.append(monitor)
        guard monitor.stdout.waitForLine(timeout: 10, where: { _ in true }) != nil else {
            throw DaemonError("aubade monitor printed nothing; stderr: \(monitor.stderr.text)")
        }
        return monitor
    }

    // MARK: Keeping the machine awake

    func testPlayingHoldsABlockSleepInhibitorReleasedOnPauseAndStop() throws {
        let address = try startSystemBus()
        let logind = try RecordingLogind(address: address)
        self.logind = logind
        try serve(environment: ["DBUS_SYSTEM_BUS_ADDRESS": address])

        func blockers() -> [Int] {
            logind.indexes { $0.what.split(separator: ":").contains("sleep") && $0.mode == "block" }
        }
        try eventually("a block sleep inhibitor while Playing (inhibitors: \(logind.summary))", timeout: 5) {
            !blockers().isEmpty
        }
        let first = blockers()[0]
        let inhibitor = logind.inhibitors[first]
        print("inhibitors while playing: \(logind.summary)")
        XCTAssertEqual(inhibitor.why, "Playing music", "\(inhibitor)")
        XCTAssertFalse(inhibitor.who.isEmpty, "\(inhibitor)")
        XCTAssertFalse(logind.isReleased(first), "held while Playing")
        XCTAssertEqual(blockers().count, 1, "one block inhibitor: \(logind.summary)")

        XCTAssertTrue(try Bus.player("Pause").succeeded)
        try waitForStatus("Paused")
        try eventually("the block inhibitor released on Pause (\(logind.summary))", timeout: 5) { logind.isReleased(first) }

        XCTAssertTrue(try Bus.player("Play").succeeded)
        try waitForStatus("Playing")
        try eventually("a new block inhibitor on Play (\(logind.summary))", timeout: 5) {
            blockers().contains { !logind.isReleased($0) }
        }
        let second = try XCTUnwrap(blockers().first { !logind.isReleased($0) })

        XCTAssertTrue(try Bus.player("Stop").succeeded)
        try waitForStatus("Stopped")
        try eventually("the block inhibitor released on Stop (\(logind.summary))", timeout: 5) { logind.isReleased(second) }
        // No block inhibitor left; the sleep-delay one (pausing before sleep) may stay.
        try assertStatusStays("Stopped", for: 0.5)
        XCTAssertTrue(blockers().allSatisfy(logind.isReleased), "block inhibitors after Stop: \(logind.summary)")
        print("inhibitors at the end: \(logind.summary)")
    }

    private func startSystemBus() throws -> String {
        let (bus, address) = try StandInSystemBus.start()
        systemBus = bus
        return address
    }
}
