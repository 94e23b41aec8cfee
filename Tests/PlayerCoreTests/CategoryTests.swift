import Testing
@testable import PlayerCore

/// Session categories: playback pauses the other players and hands them back; mixWithOthers
/// leaves them alone; another player starting pauses Aubade until it stops.
@Suite struct CategoryTests {
    let vlc = OtherPlayer(name: "org.mpris.MediaPlayer2.vlc", status: .playing, trackID: "/vlc/1")
    let mpv = OtherPlayer(name: "org.mpris.MediaPlayer2.mpv", status: .paused, trackID: "/mpv/1")

    private func player(_ category: SessionCategory, delay: Double = 5) -> Player {
        var player = Player(tracks: 3)
        var policy = AudioSessionPolicy()
        policy.category = category
        policy.handBackDelay = seconds(delay)
        player.send(.setPolicy(policy))
        player.send(.otherPlayerChanged(vlc))
        player.send(.otherPlayerChanged(mpv))
        return player
    }

    private func commands(_ effects: [Effect]) -> [String] {
        effects.compactMap { if case .commandOtherPlayer(let name, let command) = $0 { "\(command.rawValue) \(name)" } else { nil } }
    }

    @Test func playbackPausesOnlyThePlayingOthers() {
        var player = player(.playback)
        #expect(commands(player.send(.play, at: 1)) == ["Pause org.mpris.MediaPlayer2.vlc"])
    }

    @Test func mixWithOthersTouchesNobody() {
        var player = player(.mixWithOthers)
        #expect(commands(player.send(.play, at: 1)).isEmpty)
        #expect(player.send(.otherPlayerChanged(OtherPlayer(name: mpv.name, status: .playing, trackID: "/mpv/1")), at: 2).actions.isEmpty)
        #expect(player.status == .playing)
    }

    @Test func stopHandsBackAtOnce() {
        var player = player(.playback)
        player.send(.play, at: 1)
        player.send(.otherPlayerChanged(OtherPlayer(name: vlc.name, status: .paused, trackID: "/vlc/1")), at: 1.01)
        #expect(commands(player.send(.stop, at: 10)) == ["Play org.mpris.MediaPlayer2.vlc"])
    }

    /// A quit or stop right after the start, before the other player's Paused came back (seen
    /// on a busy machine: SIGTERM 0.1 s after the start, VLC never resumed), still hands back.
    @Test func aStopBeforeThePauseIsReportedStillHandsBack() {
        var player = player(.playback)
        #expect(commands(player.send(.play, at: 1)) == ["Pause org.mpris.MediaPlayer2.vlc"])
        #expect(commands(player.send(.quit, at: 1.1)) == ["Play org.mpris.MediaPlayer2.vlc"])
    }

    @Test func aPlayerTheUserStoppedIsNotHandedBack() {
        var player = player(.playback)
        player.send(.play, at: 1)
        player.send(.otherPlayerChanged(OtherPlayer(name: vlc.name, status: .paused, trackID: "/vlc/1")), at: 1.01)
        player.send(.otherPlayerChanged(OtherPlayer(name: vlc.name, status: .stopped, trackID: "/vlc/1")), at: 3)
        #expect(commands(player.send(.stop, at: 10)).isEmpty)
    }

    @Test func aPersonsPauseHandsBackAfterTheDelay() {
        var player = player(.playback, delay: 5)
        player.send(.play, at: 1)
        player.send(.otherPlayerChanged(OtherPlayer(name: vlc.name, status: .paused, trackID: "/vlc/1")), at: 1.01)
        let paused = player.send(.pause, at: 10)
        #expect(paused.contains(.scheduleHandBack(after: seconds(5))))
        #expect(commands(paused).isEmpty)
        #expect(commands(player.send(.handBackDue, at: 15)) == ["Play org.mpris.MediaPlayer2.vlc"])
    }

    @Test func resumingBeforeTheDelayCancelsTheHandBack() {
        var player = player(.playback, delay: 5)
        player.send(.play, at: 1)
        player.send(.otherPlayerChanged(OtherPlayer(name: vlc.name, status: .paused, trackID: "/vlc/1")), at: 1.01)
        player.send(.pause, at: 10)
        player.send(.play, at: 12)
        #expect(commands(player.send(.handBackDue, at: 15)).isEmpty)
    }

    @Test func aPlayerTheUserTouchedIsLeftAlone() {
        var player = player(.playback)
        player.send(.play, at: 1)
        player.send(.otherPlayerChanged(OtherPlayer(name: vlc.name, status: .paused, trackID: "/vlc/1")), at: 1.01)
        // The user moved VLC to another track while Aubade played.
        player.send(.otherPlayerChanged(OtherPlayer(name: vlc.name, status: .paused, trackID: "/vlc/2")), at: 3)
        #expect(commands(player.send(.stop, at: 10)).isEmpty)
    }

    @Test func aRouteChangePauseNeverHandsBack() {
        var player = player(.playback, delay: 0)
        let headphones = SinkFacts(name: "headphones", description: "Headphones", portType: .headphones)
        let speakers = SinkFacts(name: "speakers", description: "Speakers", portType: .builtInSpeaker)
        player.send(.soundServerChanged(SoundServerFacts(sinks: [headphones, speakers], defaultSinkName: "headphones",
                                                         ourSinkName: "headphones")), at: 0.5)
        player.send(.play, at: 1)
        player.send(.otherPlayerChanged(OtherPlayer(name: vlc.name, status: .paused, trackID: "/vlc/1")), at: 1.01)
        let unplug = player.send(.soundServerChanged(SoundServerFacts(sinks: [speakers], defaultSinkName: "speakers",
                                                                      ourSinkName: "speakers")), at: 5)
        #expect(player.status == .paused)
        #expect(commands(unplug).isEmpty)
        #expect(commands(player.send(.handBackDue, at: 6)).isEmpty)
        #expect(commands(player.send(.stop, at: 7)).isEmpty)
    }

    @Test func anotherPlayerStartingPausesAubadeUntilItStops() {
        var player = player(.playback)
        player.send(.play, at: 1)
        player.send(.otherPlayerChanged(OtherPlayer(name: vlc.name, status: .paused, trackID: "/vlc/1")), at: 1.01)
        let interrupted = player.send(.otherPlayerChanged(OtherPlayer(name: mpv.name, status: .playing, trackID: "/mpv/1")), at: 5)
        #expect(interrupted.actions.contains(.output(.pause)))
        #expect(commands(interrupted).isEmpty, "being interrupted hands nothing back")
        #expect(player.snapshot.pauseReason == .otherPlayer)
        let resumed = player.send(.otherPlayerChanged(OtherPlayer(name: mpv.name, status: .paused, trackID: "/mpv/1")), at: 9)
        #expect(resumed.actions.contains(.output(.resume)))
        #expect(player.status == .playing)
        #expect(commands(resumed).isEmpty, "mpv is paused, vlc is paused: nobody to pause")
    }

    @Test func aPersonsCommandDuringTheInterruptionKeepsAubadePaused() {
        var player = player(.playback)
        player.send(.play, at: 1)
        player.send(.otherPlayerChanged(OtherPlayer(name: mpv.name, status: .playing, trackID: "/mpv/1")), at: 5)
        player.send(.pause, at: 6)
        player.send(.otherPlayerChanged(OtherPlayer(name: mpv.name, status: .stopped, trackID: nil)), at: 9)
        #expect(player.status == .paused)
    }

    @Test func theInterrupterLeavingTheBusResumesAubade() {
        var player = player(.playback)
        player.send(.play, at: 1)
        player.send(.otherPlayerChanged(OtherPlayer(name: mpv.name, status: .playing, trackID: "/mpv/1")), at: 5)
        #expect(player.send(.otherPlayerGone(mpv.name), at: 6).actions.contains(.output(.resume)))
    }

    @Test func keepAwakeFollowsPlaying() {
        var player = Player(tracks: 1)
        player.send(.setPolicy(AudioSessionPolicy()))
        #expect(player.send(.play, at: 1).contains(.keepAwake(true)))
        #expect(player.send(.pause, at: 2).contains(.keepAwake(false)))
        var policy = AudioSessionPolicy()
        policy.inhibitSleepWhilePlaying = false
        player.send(.setPolicy(policy))
        #expect(!player.send(.play, at: 3).contains(.keepAwake(true)))
    }
}

/// A Bluetooth headset in its call profile while music plays to it goes to A2DP, unless a
/// call records from it; the switch (its sink replaced) is an override, not a lost device.
@Suite struct BluetoothProfileTests {
    private func headset(profile: String, sinkName: String, captureInUse: Bool = false) -> SinkFacts {
        let call = profile == "headset_head_unit"
        return SinkFacts(name: sinkName, description: "WH-1000XM4", portType: call ? .bluetoothHFP : .bluetoothA2DP,
                         bus: "bluetooth", cardName: "bluez_card.00_1B_66_AA_BB_CC",
                         bluetooth: BluetoothFacts(profile: profile, isCallProfile: call, musicProfile: "a2dp_sink",
                                                   microphoneInUse: captureInUse))
    }

    private let laptop = SinkFacts(name: "alsa_output.pci", description: "Speakers", portType: .builtInSpeaker, bus: "pci")

    private func facts(_ sink: SinkFacts) -> SoundServerFacts {
        SoundServerFacts(sinks: [laptop, sink], defaultSinkName: sink.name, ourSinkName: sink.name)
    }

    @Test func playingToTheCallProfileSwitchesToA2DPOnce() {
        var player = Player(tracks: 1)
        let hfp = headset(profile: "headset_head_unit", sinkName: "bluez_sink.00_1B_66_AA_BB_CC.handsfree_head_unit")
        player.send(.soundServerChanged(facts(hfp)), at: 0)
        let effects = player.send(.play, at: 1)
        #expect(effects.contains(.output(.switchCardProfile(card: "bluez_card.00_1B_66_AA_BB_CC", profile: "a2dp_sink"))))
        #expect(!player.send(.soundServerChanged(facts(hfp)), at: 1.1).contains {
            if case .output(.switchCardProfile) = $0 { true } else { false }
        })
        // The switch replaces the sink: an override, still playing.
        let a2dp = headset(profile: "a2dp_sink", sinkName: "bluez_sink.00_1B_66_AA_BB_CC.a2dp_sink")
        let switched = player.send(.soundServerChanged(facts(a2dp)), at: 1.5)
        #expect(switched.contains { if case .routeChanged(let change) = $0 { change.reason == .override } else { false } })
        #expect(player.status == .playing)
    }

    @Test func neverDuringACall() {
        var player = Player(tracks: 1)
        let hfp = headset(profile: "headset_head_unit", sinkName: "bluez_sink.x.headset_head_unit", captureInUse: true)
        player.send(.soundServerChanged(facts(hfp)), at: 0)
        #expect(!player.send(.play, at: 1).contains { if case .output(.switchCardProfile) = $0 { true } else { false } })
    }

    @Test func notWhenTurnedOff() {
        var player = Player(tracks: 1)
        var policy = AudioSessionPolicy()
        policy.preferA2DP = false
        policy.inhibitSleepWhilePlaying = false
        player.send(.setPolicy(policy))
        player.send(.soundServerChanged(facts(headset(profile: "headset_head_unit", sinkName: "bluez_sink.x.hfp"))), at: 0)
        #expect(!player.send(.play, at: 1).contains { if case .output(.switchCardProfile) = $0 { true } else { false } })
    }
}

/// playerctld mirrors the last active player (Aubade, often): a relay, not a player.
@Suite struct PlayerRelayTests {
    @Test func playerctldIsARelayNotAPlayer() {
        #expect(PlayerRelay.isRelay("org.mpris.MediaPlayer2.playerctld"))
        #expect(PlayerRelay.isRelay("org.mpris.MediaPlayer2.playerctld.instance42"))
        #expect(!PlayerRelay.isRelay("org.mpris.MediaPlayer2.playerctldx"))
        #expect(!PlayerRelay.isRelay("org.mpris.MediaPlayer2.vlc"))
        #expect(!PlayerRelay.isRelay("org.mpris.MediaPlayer2.kdeconnect.mpris_000001"))
    }
}
