import DBusKit
import Foundation
import XCTest
@testable import TestSupport

/// The audio session for every player (issue 13): Aubade pauses OTHER MPRIS players whose
/// streams lose their device, pauses every playing player for a call and hands back to the
/// untouched ones afterwards, pauses them all before sleep, and leaves streams that belong to
/// no player alone. The other players are `ProcessMPRISPlayer`s: real processes owning their
/// bus names, each playing a real stream from itself or from a child `pacat`.
///
/// An unplug is `Pulse.unloadNullSink("headphones")` (the server moves the streams to the
/// speakers); a call is a `media.role=phone` paplay stream that the test ends by PID. Aubade
/// itself stays Stopped (no tracks), so its own session category pauses nobody. Runs on
/// PulseAudio and on PipeWire.
final class OtherPlayersGuardTests: AudioSessionTestCase {
    var players: [ProcessMPRISPlayer] = []
    var processes: [Subprocess] = []
    var guards: [GuardDaemon] = []
    var guardMonitors: [SignalMonitor] = []
    var systemBus: Subprocess?
    var logind: FakeLogind?

    override func tearDown() {
        let failed = (testRun?.failureCount ?? 0) + (testRun?.unexpectedExceptionCount ?? 0) > 0
        if failed {
            for player in players { print("--- \(player)\n\(player.log)") }
            for guardian in guards {
                print("--- stderr of aubade \(guardian.arguments.joined(separator: " ")) (pid \(guardian.pid)):")
                print(guardian.stderrLines.joined(separator: "\n"))
            }
        }
        for process in processes { process.stop(grace: 1) }
        processes.removeAll()
        for monitor in guardMonitors { monitor.stop() }
        guardMonitors.removeAll()
        for guardian in guards { guardian.stop() }
        guards.removeAll()
        // The daemons stop in super (they may still call the players, which must answer), then
        // the sinks come back.
        super.tearDown()
        for player in players { player.stop() }
        players.removeAll()
        logind?.close()
        logind = nil
        systemBus?.stop(grace: 3)
        systemBus = nil
    }

    // MARK: Unplug

    /// Two players on the headphones (one playing from a child pacat, one from itself) get Pause
    /// and nothing else; the one on the speakers plays on; one already Paused there gets nothing.
    func testUnplugPausesExactlyThePlayersWhoseStreamsWereOnTheHeadphones() throws {
        let daemon = try serve()
        let signals = try monitor(daemon)
        let started = try startPlayers(.init(name: "unplugchild", stream: .child), .init(name: "unplugself"),
                                       .init(name: "unplugspeakers", sink: "speakers"),
                                       .init(name: "unplugpaused", status: "Paused"))
        let (fromChild, fromItself, onSpeakers, alreadyPaused) = (started[0], started[1], started[2], started[3])
        // The harness: the child's stream is pacat's, whose parent is the player; the other is the player's own.
        XCTAssertEqual(try fromChild.sinkInput()?.properties["application.process.binary"], "pacat")
        XCTAssertEqual(ProcessMPRISPlayer.parentPID(of: fromChild.streamPID), fromChild.pid, "the parent of the child pacat")
        XCTAssertEqual(try fromItself.sinkInput()?.processID, fromItself.pid, "the stream of the player that plays itself")
        let streams = try waitUntilMapped(started)
        XCTAssertEqual(streams[fromChild.busName]?.matchedBy, "ancestor", "a child's stream: \(streams)")
        XCTAssertEqual(streams[fromItself.busName]?.matchedBy, "process", "the player's own stream: \(streams)")
        XCTAssertEqual(streams[fromChild.busName]?.sink, "headphones")
        XCTAssertEqual(streams[onSpeakers.busName]?.sink, "speakers")
        let route = try Shell.run(try Daemon.binaryPath(), ["route", "--all"])
        XCTAssertTrue(route.succeeded, "aubade route --all: \(route)")
        for player in started {
            XCTAssertTrue(route.stdout.contains(player.options.name),
                          "aubade route --all should name \(player.busName):\n\(route.stdout)")
        }
        print("aubade route --all:\n\(route.trimmedOutput)")
        let mark = signals.mark
        let logMark = daemon.stderrLines.count

        try Pulse.unloadNullSink("headphones")

        for player in [fromChild, fromItself] {
            try waitForCall("Pause", on: player, "after the unplug")
            try waitForPlayerStatus(player, "Paused")
            let decision = waitForDecision(on: signals, after: mark, "pause \(player.busName) deviceLost") {
                $0.action == "pause" && $0.player == player.busName && $0.reason == "deviceLost"
            }
            XCTAssertEqual(decision?.processID, player.streamPID,
                           "the decision's stream: \(decision.map(String.init(describing:)) ?? "-")")
        }
        settle(1)
        XCTAssertEqual(fromChild.transportCalls.map(\.member), ["Pause"], "\(fromChild)")
        XCTAssertEqual(fromItself.transportCalls.map(\.member), ["Pause"], "\(fromItself)")
        XCTAssertEqual(onSpeakers.transportCalls.map(\.member), [], "the player on the speakers: \(onSpeakers)")
        XCTAssertEqual(onSpeakers.playbackStatus, "Playing")
        XCTAssertEqual(alreadyPaused.transportCalls.map(\.member), [], "the player already Paused: \(alreadyPaused)")
        XCTAssertEqual(try alreadyPaused.busPlaybackStatus(), "Paused")
        let decisions = self.decisions(on: signals, after: mark)
        XCTAssertFalse(decisions.contains { $0.player == onSpeakers.busName || $0.player == alreadyPaused.busName },
                       "decisions: \(decisions)")
        print("decisions after the unplug (\(server.rawValue)): \(decisions)")
        let logged = daemon.stderrLines.dropFirst(logMark).filter { $0.contains(fromChild.options.name) }
        XCTAssertFalse(logged.isEmpty, "no log line names \(fromChild.busName) after the unplug:\n"
                       + daemon.stderrLines.dropFirst(logMark).joined(separator: "\n"))
    }

    /// A player whose Pause is a toggle is not sent Pause when already Paused (it would start);
    /// one that ignores Pause is reported ("ignoredPause"), and nobody is sent PlayPause.
    func testAMisbehavingPauseIsNeitherToggledNorFought() throws {
        let daemon = try serve()
        let signals = try monitor(daemon)
        let started = try startPlayers(.init(name: "togglepaused", status: "Paused", pause: .toggle),
                                       .init(name: "toggleplaying", stream: .child, pause: .toggle),
                                       .init(name: "ignoring", pause: .ignore))
        let (togglePaused, togglePlaying, ignoring) = (started[0], started[1], started[2])
        try waitUntilMapped(started)
        let mark = signals.mark

        try Pulse.unloadNullSink("headphones")

        try waitForCall("Pause", on: togglePlaying, "after the unplug")
        try waitForPlayerStatus(togglePlaying, "Paused")
        try waitForCall("Pause", on: ignoring, "after the unplug")
        let ignored = waitForDecision(on: signals, after: mark, "ignoredPause for \(ignoring.busName)") {
            $0.player == ignoring.busName && $0.reason == "ignoredPause"
        }
        print("the decision for the player that ignores Pause: \(ignored.map(String.init(describing:)) ?? "none")")
        settle(1)
        XCTAssertEqual(togglePaused.transportCalls.map(\.member), [], "a toggling player already Paused: \(togglePaused)")
        XCTAssertEqual(togglePaused.playbackStatus, "Paused", "\(togglePaused)")
        XCTAssertEqual(togglePlaying.transportCalls.map(\.member), ["Pause"], "a toggling player that played: \(togglePlaying)")
        XCTAssertEqual(togglePlaying.playbackStatus, "Paused", "\(togglePlaying)")
        let toIgnoring = ignoring.transportCalls.map(\.member)
        XCTAssertTrue(toIgnoring.allSatisfy { $0 == "Pause" } && toIgnoring.count <= 2,
                      "the player that ignores Pause should get Pause (once, or once more to check), "
                      + "nothing else: \(ignoring)")
        XCTAssertEqual(ignoring.playbackStatus, "Playing")
        for player in started {
            XCTAssertTrue(player.calls("PlayPause").isEmpty, "PlayPause sent to \(player)")
        }
    }

    // MARK: Calls

    /// The call pauses every Playing player, wherever it plays; its end gives Play back only to
    /// those still Paused on the same track whom nobody touched: not the one the user resumed
    /// (which keeps playing), nor the one moved to another track, nor one played and paused again.
    func testACallPausesEveryPlayerAndHandsBackOnlyToTheUntouched() throws {
        let daemon = try serve()
        let signals = try monitor(daemon)
        let started = try startPlayers(.init(name: "callchild", stream: .child), .init(name: "callspeakers", sink: "speakers"),
                                       .init(name: "callresumed"), .init(name: "callretracked"),
                                       .init(name: "callreplayed"), .init(name: "callpaused", status: "Paused"))
        let (untouched, untouchedOnSpeakers, resumed, retracked, replayed, alreadyPaused)
            = (started[0], started[1], started[2], started[3], started[4], started[5])
        let playing = [untouched, untouchedOnSpeakers, resumed, retracked, replayed]
        try waitUntilMapped(started)
        let mark = signals.mark

        let call = try startCall()
        for player in playing {
            try waitForCall("Pause", on: player, "when the call began")
            try waitForPlayerStatus(player, "Paused")
            waitForDecision(on: signals, after: mark, "pause \(player.busName) callBegan") {
                $0.action == "pause" && $0.player == player.busName && $0.reason == "callBegan"
            }
        }
        try resumed.userPlays()
        try retracked.userChangesTrack(to: 2)
        try replayed.userPlays()
        try replayed.userPauses()
        settle(0.5)
        XCTAssertEqual(resumed.transportCalls.map(\.member), ["Pause"], "resumed by its user during the call: \(resumed)")

        try endCall(call)

        for player in [untouched, untouchedOnSpeakers] {
            try waitForCall("Play", on: player, after: 1, "when the call ended")
            try waitForPlayerStatus(player, "Playing")
            waitForDecision(on: signals, after: mark, "play \(player.busName) callEnded") {
                $0.action == "play" && $0.player == player.busName && $0.reason == "callEnded"
            }
        }
        settle(1)
        for player in [untouched, untouchedOnSpeakers] {
            XCTAssertEqual(player.transportCalls.map(\.member), ["Pause", "Play"], "\(player)")
        }
        XCTAssertEqual(resumed.transportCalls.map(\.member), ["Pause"], "resumed by its user: \(resumed)")
        XCTAssertEqual(resumed.playbackStatus, "Playing", "\(resumed)")
        XCTAssertEqual(retracked.transportCalls.map(\.member), ["Pause"], "moved to another track: \(retracked)")
        XCTAssertEqual(retracked.playbackStatus, "Paused")
        XCTAssertEqual(replayed.transportCalls.map(\.member), ["Pause"], "played and paused by its user: \(replayed)")
        XCTAssertEqual(replayed.playbackStatus, "Paused")
        XCTAssertEqual(alreadyPaused.transportCalls.map(\.member), [], "Paused before the call: \(alreadyPaused)")
        print("decisions around the call (\(server.rawValue)): \(decisions(on: signals, after: mark))")
    }

    /// A player that goes away while paused for the call (killed: its stream and name vanish)
    /// is no error: the other one still gets Play, and the daemon runs on.
    func testAPlayerExitingDuringTheCallIsNoError() throws {
        let daemon = try serve()
        let started = try startPlayers(.init(name: "callleaving", stream: .child), .init(name: "callstaying"))
        let (leaving, staying) = (started[0], started[1])
        try waitUntilMapped(started)
        let logMark = daemon.stderrLines.count

        let call = try startCall()
        try waitForCall("Pause", on: leaving, "when the call began")
        try waitForCall("Pause", on: staying, "when the call began")
        try waitForPlayerStatus(staying, "Paused")
        leaving.stop(signal: SIGKILL)
        XCTAssertFalse(try Bus.nameHasOwner(leaving.busName), "\(leaving.busName) after the kill")
        settle(0.3)

        try endCall(call)

        try waitForCall("Play", on: staying, after: 1, "when the call ended")
        try waitForPlayerStatus(staying, "Playing")
        settle(0.5)
        XCTAssertTrue(daemon.isRunning, "aubade exited after a player left during a call")
        assertStillAnswers()
        XCTAssertEqual(try GuardEndpoint.serve.otherStreams().filter { $0.player == leaving.busName }.count, 0,
                       "a stream still mapped to the player that left")
        let errors = daemon.stderrLines.dropFirst(logMark).filter { $0.contains(": error:") }
        XCTAssertTrue(errors.isEmpty, "error lines after a player left during the call:\n\(errors.joined(separator: "\n"))")
    }

    /// A call may be only a capture stream (a softphone's microphone): media.role=phone on a
    /// record stream pauses the players too, and its end hands back.
    func testACaptureCallPausesAndHandsBack() throws {
        let daemon = try serve()
        let signals = try monitor(daemon)
        let player = try startPlayers(.init(name: "capturecall", stream: .child))[0]
        try waitUntilMapped([player])
        let mark = signals.mark

        // Recording from the speakers' monitor (a source every server has here), as a phone call.
        let microphone = try Subprocess("parec", ["--raw", "--property=media.role=phone", "--client-name=Softphone",
                                                  "-d", "speakers.monitor"], binaryStdout: true)
        processes.append(microphone)

        try waitForCall("Pause", on: player, "when the capture call began")
        try waitForPlayerStatus(player, "Paused")
        waitForDecision(on: signals, after: mark, "pause \(player.busName) callBegan") {
            $0.action == "pause" && $0.player == player.busName && $0.reason == "callBegan"
        }
        microphone.stop(signal: SIGINT, grace: 2)
        try waitForCall("Play", on: player, after: 1, "when the capture call ended")
        try waitForPlayerStatus(player, "Playing")
    }

    // MARK: Streams of nobody

    /// A bare pacat (no MPRIS name in its process or its ancestors) is listed as belonging to no
    /// player and left alone by the unplug, which still pauses the player next to it.
    func testAStreamWithoutAPlayerIsLeftAlone() throws {
        let daemon = try serve()
        let signals = try monitor(daemon)
        let bare = try Subprocess("pacat", ["--playback", "--raw", "--format=s16le", "--rate=44100", "--channels=2",
                                            "--client-name=Bare stream", "--property=media.role=music", "/dev/zero"])
        processes.append(bare)
        let owner = try startPlayers(.init(name: "nexttobare"))[0]
        try waitUntilMapped([owner])
        var entry: OtherStream?
        try eventually("the bare pacat (pid \(bare.pid)) in OtherStreams", timeout: 5 * Self.slowdown) {
            entry = try GuardEndpoint.serve.otherStreams().first { $0.processID == bare.pid }
            return entry != nil
        }
        XCTAssertEqual(entry?.player, "", "the bare pacat's player: \(entry.map(String.init(describing:)) ?? "-")")
        XCTAssertEqual(entry?.matchedBy, "", "the bare pacat's match: \(entry.map(String.init(describing:)) ?? "-")")
        let route = try Shell.run(try Daemon.binaryPath(), ["route", "--all"])
        XCTAssertTrue(route.succeeded, "aubade route --all: \(route)")
        let bareLine = route.stdout.split(separator: "\n").first { $0.contains("no player") }
        XCTAssertNotNil(bareLine, "aubade route --all shows no stream with \"no player\":\n\(route.stdout)")
        print("aubade route --all:\n\(route.trimmedOutput)")
        let mark = signals.mark

        try Pulse.unloadNullSink("headphones")

        try waitForCall("Pause", on: owner, "after the unplug")
        settle(1)
        XCTAssertTrue(bare.isRunning, "the bare pacat: \(bare.stderr.text)")
        let decisions = self.decisions(on: signals, after: mark)
        XCTAssertFalse(decisions.contains { $0.processID == bare.pid || $0.player.isEmpty },
                       "a decision about the bare stream: \(decisions)")
        XCTAssertEqual(Set(decisions.map(\.player)), [owner.busName], "decisions: \(decisions)")
    }

    /// A stream from a process unrelated to any player is tied by name: its application.name
    /// is a player's Identity ("name"); the unplug then pauses that player.
    func testAStreamIsTiedByNameWhenNotByProcess() throws {
        let daemon = try serve()
        let signals = try monitor(daemon)
        let player = try startPlayers(.init(name: "bynameonly", stream: .none, identity: "Namesake Player"))[0]
        let stream = try Subprocess("pacat", ["--playback", "--raw", "--format=s16le", "--rate=44100", "--channels=2",
                                              "--client-name=Namesake Player", "--property=media.role=music", "/dev/zero"])
        processes.append(stream)
        var entry: OtherStream?
        try eventually("the stream of pacat (pid \(stream.pid)) tied to \(player.busName) "
                       + "(last: \(entry.map(String.init(describing:)) ?? "-"))", timeout: 5 * Self.slowdown) {
            entry = try GuardEndpoint.serve.otherStreams().first { $0.processID == stream.pid }
            return entry?.player == player.busName
        }
        XCTAssertEqual(entry?.matchedBy, "name", "\(entry.map(String.init(describing:)) ?? "-")")
        let mark = signals.mark

        try Pulse.unloadNullSink("headphones")

        try waitForCall("Pause", on: player, "after the unplug of its namesake's stream")
        let decision = waitForDecision(on: signals, after: mark, "pause \(player.busName) deviceLost") {
            $0.action == "pause" && $0.player == player.busName && $0.reason == "deviceLost"
        }
        XCTAssertEqual(decision?.processID, stream.pid, "the decision's stream: \(decision.map(String.init(describing:)) ?? "-")")
    }

    /// Aubade playing is not one of the others: its stream is not listed and no decision is
    /// about it, while its own route-change pause still happens.
    func testAubadeIsNeverOneOfTheOthers() throws {
        let (daemon, _) = try startPlayingOnHeadphones()
        let signals = try monitor(daemon)
        let other = try startPlayers(.init(name: "besideaubade", status: "Paused"))[0]
        try waitUntilMapped([other])
        let streams = try GuardEndpoint.serve.otherStreams()
        XCTAssertFalse(streams.contains { $0.processID == daemon.pid || $0.player == Daemon.busName },
                       "Aubade's own stream among the others: \(streams)")
        let mark = signals.mark

        try Pulse.unloadNullSink("headphones")

        try waitForStatus("Paused")
        try waitForPauseReason("routeChange")
        settle(1)
        let decisions = self.decisions(on: signals, after: mark)
        XCTAssertFalse(decisions.contains { $0.player == Daemon.busName }, "a decision about Aubade itself: \(decisions)")
        XCTAssertEqual(other.transportCalls.map(\.member), [], "\(other)")
    }

    // MARK: aubade guard

    /// The guard alone: no player and no MPRIS name of its own; the unplug pauses the player on
    /// the headphones (started before the guard) and not the one on the speakers.
    func testTheGuardAloneDoesTheUnplug() throws {
        let started = try startPlayers(.init(name: "alonechild", stream: .child), .init(name: "alonespeakers", sink: "speakers"))
        let (onHeadphones, onSpeakers) = (started[0], started[1])
        let guardian = try startGuard()
        XCTAssertFalse(try Bus.nameHasOwner(Daemon.busName), "aubade guard owns \(Daemon.busName)")
        let reply = try Bus.call("org.freedesktop.DBus.ListNames", destination: "org.freedesktop.DBus",
                                 path: "/org/freedesktop/DBus")
        for name in reply.values.first?.strings ?? [] where name.hasPrefix("org.mpris.MediaPlayer2.") {
            XCTAssertNotEqual(try Bus.nameOwner(name), guardian.uniqueName, "aubade guard owns \(name)")
        }
        let signals = try guardMonitor(guardian)
        try waitUntilMapped(started, on: .alone)
        let mark = signals.mark

        try Pulse.unloadNullSink("headphones")

        try waitForCall("Pause", on: onHeadphones, "after the unplug")
        try waitForPlayerStatus(onHeadphones, "Paused")
        waitForDecision(on: signals, from: .alone, after: mark, "pause \(onHeadphones.busName) deviceLost") {
            $0.action == "pause" && $0.player == onHeadphones.busName && $0.reason == "deviceLost"
        }
        settle(1)
        XCTAssertEqual(onHeadphones.transportCalls.map(\.member), ["Pause"], "\(onHeadphones)")
        XCTAssertEqual(onSpeakers.transportCalls.map(\.member), [], "\(onSpeakers)")
        XCTAssertTrue(guardian.isRunning)
    }

    /// A walk of the guard's object tree from `/` (busctl tree org.aubade.Guard) finds its
    /// object, and nothing of a player; Introspect with arguments is a wrong call there too.
    func testTheGuardAlonesObjectTreeLeadsToItsObject() throws {
        _ = try startGuard()
        let client = try BusClient(destination: "org.aubade.Guard")
        let tree = try IntrospectedTree.walk(client)
        XCTAssertEqual(tree.objects.map(\.path), ["/", "/org", "/org/aubade", "/org/aubade/Guard"])
        XCTAssertEqual(tree.servingObjects.flatMap(\.interfaces).map(\.name).filter { !$0.hasPrefix("org.freedesktop.DBus.") },
                       ["org.aubade.Guard1"])
        for path in ["/", "/org/aubade/Guard"] {
            let (outcome, _) = try client.call(path: path, interface: "org.freedesktop.DBus.Introspectable",
                                               member: "Introspect", [.string("x")])
            XCTAssertEqual(outcome.errorName, DBusKit.DBusError.invalidArgsName, "Introspect(s) on \(path): \(outcome)")
        }
        let (elsewhere, _) = try client.call(path: "/org/mpris/MediaPlayer2", interface: "org.freedesktop.DBus.Introspectable",
                                             member: "Introspect")
        XCTAssertEqual(elsewhere.errorName, DBusKit.DBusError.unknownObjectName, "\(elsewhere)")
    }

    /// `aubade guard --resume-on-reconnect`: the headphones coming back give Play to the player
    /// it paused that is still Paused on the same track, not to the one moved to another track.
    func testTheGuardResumesOnReconnectWhenAsked() throws {
        let guardian = try startGuard(["--resume-on-reconnect"])
        let signals = try guardMonitor(guardian)
        let started = try startPlayers(.init(name: "backchild", stream: .child), .init(name: "backretracked"))
        let (comesBack, retracked) = (started[0], started[1])
        try waitUntilMapped(started, on: .alone)
        let mark = signals.mark
        try Pulse.unloadNullSink("headphones")
        try waitForCall("Pause", on: comesBack, "after the unplug")
        try waitForCall("Pause", on: retracked, "after the unplug")
        try waitForPlayerStatus(comesBack, "Paused")
        try retracked.userChangesTrack(to: 2)
        settle(0.3)

        try Pulse.restoreStandardSinks()

        try waitForCall("Play", on: comesBack, after: 1, "when the headphones came back")
        try waitForPlayerStatus(comesBack, "Playing")
        waitForDecision(on: signals, from: .alone, after: mark, "play \(comesBack.busName) deviceBack") {
            $0.action == "play" && $0.player == comesBack.busName && $0.reason == "deviceBack"
        }
        settle(1)
        XCTAssertEqual(comesBack.transportCalls.map(\.member), ["Pause", "Play"], "\(comesBack)")
        XCTAssertEqual(retracked.transportCalls.map(\.member), ["Pause"], "moved to another track while unplugged: \(retracked)")
    }

    // MARK: Sleep

    /// PrepareForSleep(true) pauses every Playing player, wherever it plays, before the delay
    /// inhibitor is released; a Paused one gets nothing; waking up plays nothing by itself.
    func testSleepPausesEveryPlayingPlayerAndWakingPlaysNothing() throws {
        let address = try startSystemBus()
        let logind = try FakeLogind(address: address)
        self.logind = logind
        let daemon = try serve(environment: ["DBUS_SYSTEM_BUS_ADDRESS": address])
        let signals = try monitor(daemon)
        let started = try startPlayers(.init(name: "sleepchild", stream: .child), .init(name: "sleepspeakers", sink: "speakers"),
                                       .init(name: "sleeppaused", status: "Paused"))
        let playing = [started[0], started[1]]
        let alreadyPaused = started[2]
        try waitUntilMapped(started)
        try eventually("a delay inhibitor before sleep", timeout: 5 * Self.slowdown) { logind.inhibitCount > 0 }
        let delays = logind.inhibitCount
        let mark = signals.mark

        try logind.prepareForSleep(true)

        var released: Double?
        let deadline = Date(timeIntervalSinceNow: 5 * Self.slowdown)
        while released == nil, Date() < deadline {
            if (0..<delays).allSatisfy({ !logind.holds("delay", index: $0) }) { released = ProcessMPRISPlayer.now() }
            Thread.sleep(forTimeInterval: 0.005)
        }
        XCTAssertNotNil(released, "the \(delays) delay inhibitor(s) still held \(5 * Self.slowdown) s "
                        + "after PrepareForSleep(true)")
        for player in playing {
            let pause = try waitForCall("Pause", on: player, "before sleep")
            try waitForPlayerStatus(player, "Paused")
            if let released {
                let late = String(format: "%.0f", (pause.time - released) * 1000)
                XCTAssertLessThanOrEqual(pause.time, released, "\(player.busName) got Pause \(late) ms after the delay "
                                         + "inhibitor was released (the suspend may already be under way)")
            }
            waitForDecision(on: signals, after: mark, "pause \(player.busName) sleep") {
                $0.action == "pause" && $0.player == player.busName && $0.reason == "sleep"
            }
        }

        try logind.prepareForSleep(false)

        settle(1.5)
        for player in playing {
            XCTAssertEqual(player.transportCalls.map(\.member), ["Pause"], "after waking: \(player)")
            XCTAssertEqual(player.playbackStatus, "Paused")
        }
        XCTAssertEqual(alreadyPaused.transportCalls.map(\.member), [], "\(alreadyPaused)")
    }

    // MARK: aubade monitor

    func testMonitorPrintsTheGuardsDecision() throws {
        try serve()
        let player = try startPlayers(.init(name: "monitored"))[0]
        try waitUntilMapped([player])
        let monitor = try Subprocess(try Daemon.binaryPath(), ["monitor"])
        processes.append(monitor)
        guard monitor.stdout.waitForLine(timeout: 10, where: { _ in true }) != nil else {
            return XCTFail("aubade monitor printed nothing; stderr: \(monitor.stderr.text)")
        }
        let start = monitor.stdout.lines.count

        try Pulse.unloadNullSink("headphones")

        try waitForCall("Pause", on: player, "after the unplug")
        let line = monitor.stdout.waitForLine(from: start, timeout: 5) {
            $0.contains("guard") && $0.contains(player.options.name) && $0.contains("deviceLost")
                && $0.lowercased().contains("pause")
        }?.line
        XCTAssertNotNil(line, "aubade monitor printed no guard line for pausing \(player.busName); it printed:\n"
                        + monitor.stdout.lines.joined(separator: "\n") + "\nstderr: \(monitor.stderr.text)")
        print("aubade monitor: \(line ?? "-")")
    }

    // MARK: Turning it off

    /// `guard-other-players = false`: the unplug leaves the player alone; `--guard-other-players`
    /// on the command line wins over the file.
    func testGuardOtherPlayersFalseLeavesThemAloneAndTheFlagWins() throws {
        let (home, _) = try home(withConfiguration: "guard-other-players = false\n")
        let daemon = try startDaemon([], home: home)
        let signals = try monitor(daemon)
        let player = try startPlayers(.init(name: "unguarded", stream: .child))[0]
        settle(0.5)  // time to notice the stream, were it watching
        let mark = signals.mark

        try Pulse.unloadNullSink("headphones")

        settle(1.5)
        XCTAssertEqual(player.transportCalls.map(\.member), [], "guard-other-players = false: \(player)")
        XCTAssertEqual(player.playbackStatus, "Playing")
        XCTAssertEqual(decisions(on: signals, after: mark).count, 0, "decisions: \(decisions(on: signals, after: mark))")

        daemon.stop()
        try Pulse.restoreStandardSinks()
        // A new player: on PulseAudio the first one's stream stays on the speakers.
        let second = try startPlayers(.init(name: "guardedbyflag", stream: .child))[0]
        try startDaemon(["--guard-other-players"], home: home)
        try waitUntilMapped([second])
        try Pulse.unloadNullSink("headphones")
        try waitForCall("Pause", on: second, "after the unplug, with --guard-other-players over the file's false")
    }

    /// `--no-guard-other-players`: a call pauses nobody.
    func testNoGuardOtherPlayersFlagLeavesThemAloneInACall() throws {
        let daemon = try serve(["--no-guard-other-players"])
        let signals = try monitor(daemon)
        let player = try startPlayers(.init(name: "unguardedcall"))[0]
        settle(0.5)
        let mark = signals.mark

        let call = try startCall()
        settle(1.5)
        try endCall(call)
        settle(0.5)
        XCTAssertEqual(player.transportCalls.map(\.member), [], "--no-guard-other-players: \(player)")
        XCTAssertEqual(decisions(on: signals, after: mark).count, 0, "decisions: \(decisions(on: signals, after: mark))")
    }
}
