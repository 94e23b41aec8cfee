import Testing
@testable import PlayerCore

/// The guard: the audio session for the other players. Each test is a table of readings of the
/// sound server and player changes, and the Pause/Play it sends.
@Suite struct SessionGuardTests {
    static let mpv = OtherPlayer(name: "org.mpris.MediaPlayer2.mpv", status: .playing, trackID: "/mpv/1", processID: 100)
    static let vlc = OtherPlayer(name: "org.mpris.MediaPlayer2.vlc", status: .playing, trackID: "/vlc/1", processID: 200)
    static let firefox = OtherPlayer(name: "org.mpris.MediaPlayer2.firefox.instance_1_7", status: .playing,
                                     trackID: "/firefox/1", processID: 300, identity: "Mozilla Firefox", desktopEntry: "firefox-esr")

    /// A guard that knows `players`, has read `first`, with `policy` (the defaults unless told).
    private func guarding(_ players: [OtherPlayer], first: SoundServerFacts, policy: GuardPolicy = GuardPolicy()) -> SessionGuard {
        var state = SessionGuard()
        _ = state.handle(.setPolicy(policy), at: at(0))
        for player in players { _ = state.handle(.playerChanged(player), at: at(0)) }
        _ = state.handle(.soundServerChanged(first), at: at(0))
        return state
    }

    private func commands(_ effects: [GuardEffect]) -> [String] {
        effects.compactMap { if case .command(let name, let command) = $0 { "\(command.rawValue) \(name)" } else { nil } }
    }

    private func decisions(_ effects: [GuardEffect]) -> [GuardDecision] {
        effects.compactMap { if case .decision(let decision) = $0 { decision } else { nil } }
    }

    private func stream(_ index: UInt32, on sink: String?, pid: Int32?, parents: [Int32] = [], binary: String? = nil,
                        role: String? = nil) -> PlaybackStreamFacts {
        PlaybackStreamFacts(index: index, sinkName: sink, processID: pid, ancestors: parents, processBinary: binary, role: role)
    }

    private func reading(_ sinks: [SinkFacts], streams: [PlaybackStreamFacts], phones: Int = 0) -> SoundServerFacts {
        SoundServerFacts(sinks: sinks, defaultSinkName: sinks.first?.name, ourSinkName: nil, phoneStreamCount: phones,
                         otherStreams: streams)
    }

    private static let headphones = Sinks.null("headphones", portType: .headphones, description: "Headphones")
    private static let speakers = Sinks.null("speakers", portType: .builtInSpeaker, description: "Speakers")

    /// mpv on the headphones (its child plays), vlc on the speakers: both playing.
    private var twoDevices: SoundServerFacts {
        reading([Self.headphones, Self.speakers], streams: [stream(1, on: "headphones", pid: 101, parents: [100, 50]),
                                                            stream(2, on: "speakers", pid: 200)])
    }

    // MARK: Unplug

    @Test func removingTheHeadphonesPausesOnlyThePlayerThatPlayedThere() {
        var state = guarding([Self.mpv, Self.vlc], first: twoDevices)
        let moved = reading([Self.speakers], streams: [stream(1, on: "speakers", pid: 101, parents: [100, 50]),
                                                       stream(2, on: "speakers", pid: 200)])
        let effects = state.handle(.soundServerChanged(moved), at: at(1))
        #expect(commands(effects) == ["Pause org.mpris.MediaPlayer2.mpv"])
        let decision = decisions(effects).first
        #expect(decision?.reason == .deviceLost)
        #expect(decision?.stream?.index == 1)
        #expect(decision?.device == "Headphones")
    }

    /// PipeWire removes the sink before it moves the stream: the stream's sink is unknown for one reading.
    @Test func theSinkGoneBeforeTheStreamMovedIsAnUnplugToo() {
        var state = guarding([Self.mpv, Self.vlc], first: twoDevices)
        let between = reading([Self.speakers], streams: [stream(1, on: nil, pid: 101, parents: [100]),
                                                         stream(2, on: "speakers", pid: 200)])
        #expect(commands(state.handle(.soundServerChanged(between), at: at(1))) == ["Pause org.mpris.MediaPlayer2.mpv"])
        let moved = reading([Self.speakers], streams: [stream(1, on: "speakers", pid: 101, parents: [100]),
                                                       stream(2, on: "speakers", pid: 200)])
        #expect(commands(state.handle(.soundServerChanged(moved), at: at(1.01))).isEmpty)
    }

    @Test func pullingTheJackOfTheLaptopPausesThePlayersOnIt() {
        let plugged = reading([Sinks.laptop(.headphones, .plugged), Sinks.hdmi],
                              streams: [stream(1, on: Sinks.laptopName, pid: 100), stream(2, on: Sinks.hdmi.name, pid: 200)])
        var state = guarding([Self.mpv, Self.vlc], first: plugged)
        let pulled = reading([Sinks.laptop(.speaker, .unplugged), Sinks.hdmi],
                             streams: [stream(1, on: Sinks.laptopName, pid: 100), stream(2, on: Sinks.hdmi.name, pid: 200)])
        // The TV over HDMI plays on.
        #expect(commands(state.handle(.soundServerChanged(pulled), at: at(1))) == ["Pause org.mpris.MediaPlayer2.mpv"])
    }

    @Test func aBluetoothHeadsetGoingPausesItsPlayer() {
        let before = reading([Sinks.laptop(.speaker, .unplugged), Sinks.bluetoothA2DP],
                             streams: [stream(1, on: Sinks.bluetoothA2DP.name, pid: 100)])
        var state = guarding([Self.mpv], first: before)
        let after = reading([Sinks.laptop(.speaker, .unplugged)], streams: [stream(1, on: Sinks.laptopName, pid: 100)])
        #expect(commands(state.handle(.soundServerChanged(after), at: at(1))) == ["Pause org.mpris.MediaPlayer2.mpv"])
    }

    @Test func losingTheSpeakersOrMovingAStreamByHandPausesNobody() {
        var state = guarding([Self.mpv, Self.vlc], first: twoDevices)
        // vlc moved to the headphones on purpose; the speakers stay.
        let movedByHand = reading([Self.headphones, Self.speakers], streams: [stream(1, on: "headphones", pid: 101, parents: [100]),
                                                                             stream(2, on: "headphones", pid: 200)])
        #expect(commands(state.handle(.soundServerChanged(movedByHand), at: at(1))).isEmpty)
        var other = guarding([Self.mpv, Self.vlc], first: twoDevices)
        // The loudspeakers (not a private device) going away pauses nobody.
        let speakersGone = reading([Self.headphones], streams: [stream(1, on: "headphones", pid: 101, parents: [100]),
                                                                stream(2, on: "headphones", pid: 200)])
        #expect(commands(other.handle(.soundServerChanged(speakersGone), at: at(1))).isEmpty)
    }

    @Test func aPlayerThatIsAlreadyPausedIsNotTouched() {
        var paused = Self.mpv
        paused.status = .paused
        var state = guarding([paused, Self.vlc], first: twoDevices)
        let moved = reading([Self.speakers], streams: [stream(1, on: "speakers", pid: 101, parents: [100]),
                                                       stream(2, on: "speakers", pid: 200)])
        #expect(commands(state.handle(.soundServerChanged(moved), at: at(1))).isEmpty)
    }

    @Test func aStreamNoPlayerOwnsIsLeftAlone() {
        let before = reading([Self.headphones, Self.speakers], streams: [stream(7, on: "headphones", pid: 999, parents: [42], binary: "pacat")])
        var state = guarding([Self.mpv], first: before)
        #expect(state.streamOwners.map(\.owner) == [nil])
        let after = reading([Self.speakers], streams: [stream(7, on: "speakers", pid: 999, parents: [42], binary: "pacat")])
        #expect(commands(state.handle(.soundServerChanged(after), at: at(1))).isEmpty)
    }

    @Test func thePlayersDeviceBackResumesItOnlyWithResumeOnReconnect() {
        var policy = GuardPolicy()
        policy.resumeOnReconnect = true
        var state = guarding([Self.mpv], first: twoDevices, policy: policy)
        let moved = reading([Self.speakers], streams: [stream(1, on: "speakers", pid: 101, parents: [100])])
        _ = state.handle(.soundServerChanged(moved), at: at(1))
        var paused = Self.mpv
        paused.status = .paused
        _ = state.handle(.playerChanged(paused), at: at(1.1))
        let back = reading([Self.speakers, Self.headphones], streams: [stream(1, on: "speakers", pid: 101, parents: [100])])
        let effects = state.handle(.soundServerChanged(back), at: at(5))
        #expect(commands(effects) == ["Play org.mpris.MediaPlayer2.mpv"])
        #expect(decisions(effects).first?.reason == .deviceBack)

        var off = guarding([Self.mpv], first: twoDevices)
        _ = off.handle(.soundServerChanged(moved), at: at(1))
        _ = off.handle(.playerChanged(paused), at: at(1.1))
        #expect(commands(off.handle(.soundServerChanged(back), at: at(5))).isEmpty)
    }

    // MARK: Tying streams to players

    @Test func theNearestProcessWinsAndParentsCount() {
        let players = [Self.mpv.name: Self.mpv, Self.vlc.name: Self.vlc]
        // vlc (200) started from mpv's process (100): its stream is vlc's.
        let owner = StreamOwner.find(for: stream(1, on: "x", pid: 201, parents: [200, 100]), among: players)
        #expect(owner == StreamOwner(player: Self.vlc.name, match: .ancestor))
        #expect(StreamOwner.find(for: stream(1, on: "x", pid: 100), among: players)?.match == .process)
    }

    @Test func withoutAProcessMatchTheProgramNameOrFlatpakIdDecides() {
        let players = [Self.firefox.name: Self.firefox, Self.vlc.name: Self.vlc]
        #expect(StreamOwner.find(for: stream(1, on: "x", pid: 4242, binary: "firefox-esr"), among: players)
                == StreamOwner(player: Self.firefox.name, match: .name))
        // By the first part of the bus name (org.mpris.MediaPlayer2.vlc → vlc).
        #expect(StreamOwner.find(for: stream(1, on: "x", pid: nil, binary: "VLC"), among: players)?.player == Self.vlc.name)
        let spotify = OtherPlayer(name: "org.mpris.MediaPlayer2.spotify", status: .playing, trackID: nil, processID: 1_000_001,
                                  desktopEntry: "com.spotify.Client")
        var flatpak = stream(1, on: "x", pid: 2, binary: "spotify-bin")
        flatpak.appID = "com.spotify.Client"
        #expect(StreamOwner.find(for: flatpak, among: [spotify.name: spotify]) == StreamOwner(player: spotify.name, match: .appID))
    }

    @Test func initAndAStrangersNamesTieNothing() {
        let players = [Self.mpv.name: Self.mpv]
        #expect(StreamOwner.find(for: stream(1, on: "x", pid: 1), among: players) == nil)
        #expect(StreamOwner.find(for: stream(1, on: "x", pid: 5, parents: [1], binary: "pacat"), among: players) == nil)
        #expect(StreamOwner.find(for: stream(1, on: "x", pid: nil, binary: "  "), among: players) == nil)
    }

    // MARK: Calls

    private var bothOnSpeakers: SoundServerFacts {
        reading([Self.speakers], streams: [stream(1, on: "speakers", pid: 100), stream(2, on: "speakers", pid: 200)])
    }

    private func call(_ facts: SoundServerFacts, phones: Int, phoneStream: PlaybackStreamFacts? = nil) -> SoundServerFacts {
        var facts = facts.with(phones: phones)
        if let phoneStream { facts.otherStreams.append(phoneStream) }
        return facts
    }

    @Test func aCallPausesEveryPlayingPlayerAndHandsBackToTheUntouched() {
        var paused = Self.firefox
        paused.status = .paused
        var state = guarding([Self.mpv, Self.vlc, paused], first: bothOnSpeakers)
        let began = state.handle(.soundServerChanged(call(bothOnSpeakers, phones: 1)), at: at(1))
        #expect(commands(began) == ["Pause org.mpris.MediaPlayer2.mpv", "Pause org.mpris.MediaPlayer2.vlc"])
        var mpvPaused = Self.mpv, vlcPaused = Self.vlc
        mpvPaused.status = .paused
        vlcPaused.status = .paused
        _ = state.handle(.playerChanged(mpvPaused), at: at(1.1))
        _ = state.handle(.playerChanged(vlcPaused), at: at(1.1))
        // vlc's user resumes it during the call, and pauses it again: it is theirs now.
        _ = state.handle(.playerChanged(Self.vlc), at: at(2))
        _ = state.handle(.playerChanged(vlcPaused), at: at(3))
        let ended = state.handle(.soundServerChanged(bothOnSpeakers), at: at(4))
        #expect(commands(ended) == ["Play org.mpris.MediaPlayer2.mpv"])
        #expect(decisions(ended).map(\.reason) == [.callEnded])
        // Each decision names the player's stream.
        #expect(decisions(began).map { $0.stream?.index } == [1, 2])
        #expect(decisions(ended).first?.stream?.index == 1)
    }

    @Test func aPlayerMovedToAnotherTrackDuringTheCallIsNotResumed() {
        var state = guarding([Self.mpv], first: bothOnSpeakers)
        _ = state.handle(.soundServerChanged(call(bothOnSpeakers, phones: 1)), at: at(1))
        var next = Self.mpv
        next.status = .paused
        next.trackID = "/mpv/2"
        _ = state.handle(.playerChanged(next), at: at(2))
        #expect(commands(state.handle(.soundServerChanged(bothOnSpeakers), at: at(3))).isEmpty)
    }

    @Test func thePlayerThatMakesTheCallIsNotPaused() {
        var state = guarding([Self.mpv, Self.vlc], first: bothOnSpeakers)
        let began = state.handle(.soundServerChanged(call(bothOnSpeakers, phones: 1,
                                                          phoneStream: stream(9, on: "speakers", pid: 201, parents: [200], role: "phone"))),
                                 at: at(1))
        #expect(commands(began) == ["Pause org.mpris.MediaPlayer2.mpv"])
    }

    @Test func aPlayerThatLeavesDuringTheCallIsForgotten() {
        var state = guarding([Self.mpv], first: bothOnSpeakers)
        _ = state.handle(.soundServerChanged(call(bothOnSpeakers, phones: 1)), at: at(1))
        _ = state.handle(.playerGone(Self.mpv.name), at: at(2))
        #expect(commands(state.handle(.soundServerChanged(bothOnSpeakers), at: at(3))).isEmpty)
    }

    // MARK: Checking the Pause

    @Test func aPlayerThatIgnoresPauseIsReportedAndNeverHandedBack() {
        var state = guarding([Self.mpv], first: bothOnSpeakers)
        let began = state.handle(.soundServerChanged(call(bothOnSpeakers, phones: 1)), at: at(1))
        #expect(began.contains(.schedulePauseCheck(Self.mpv.name, after: GuardPolicy().pauseCheckDelay)))
        let check = state.handle(.pauseCheckDue(Self.mpv.name), at: at(3))
        #expect(decisions(check).map(\.reason) == [.ignoredPause])
        #expect(decisions(check).first?.action == GuardDecision.Action.none)
        #expect(commands(state.handle(.soundServerChanged(bothOnSpeakers), at: at(4))).isEmpty)
    }

    @Test func aPauseThatWorkedNeedsNoReport() {
        var state = guarding([Self.mpv], first: bothOnSpeakers)
        _ = state.handle(.soundServerChanged(call(bothOnSpeakers, phones: 1)), at: at(1))
        var paused = Self.mpv
        paused.status = .paused
        _ = state.handle(.playerChanged(paused), at: at(1.1))
        #expect(state.handle(.pauseCheckDue(Self.mpv.name), at: at(3)).isEmpty)
    }

    // MARK: Sleep, and off

    @Test func sleepPausesEveryPlayingPlayerAndForgetsTheCall() {
        var stopped = Self.firefox
        stopped.status = .stopped
        var state = guarding([Self.mpv, Self.vlc, stopped], first: bothOnSpeakers)
        _ = state.handle(.soundServerChanged(call(bothOnSpeakers, phones: 1)), at: at(1))
        var paused = Self.mpv
        paused.status = .paused
        _ = state.handle(.playerChanged(paused), at: at(1.1))
        _ = state.handle(.playerChanged(Self.vlc), at: at(1.2))
        let sleep = state.handle(.sleepImminent, at: at(2))
        #expect(commands(sleep) == ["Pause org.mpris.MediaPlayer2.vlc"])
        // Waking into the call's end starts nothing.
        #expect(commands(state.handle(.soundServerChanged(bothOnSpeakers), at: at(60))).isEmpty)
    }

    @Test func guardOtherPlayersOffSendsNothing() {
        var policy = GuardPolicy()
        policy.isOn = false
        var state = guarding([Self.mpv, Self.vlc], first: twoDevices, policy: policy)
        let moved = reading([Self.speakers], streams: [stream(1, on: "speakers", pid: 101, parents: [100]),
                                                       stream(2, on: "speakers", pid: 200)])
        #expect(state.handle(.soundServerChanged(moved), at: at(1)).isEmpty)
        #expect(state.handle(.soundServerChanged(call(moved, phones: 1)), at: at(2)).isEmpty)
        #expect(state.handle(.sleepImminent, at: at(3)).isEmpty)
    }

    @Test func afterTheServerWasLostTheFirstReadingIsAFreshStart() {
        var state = guarding([Self.mpv], first: twoDevices)
        _ = state.handle(.soundServerLost, at: at(1))
        let moved = reading([Self.speakers], streams: [stream(1, on: "speakers", pid: 101, parents: [100])])
        #expect(commands(state.handle(.soundServerChanged(moved), at: at(2))).isEmpty)
    }
}
