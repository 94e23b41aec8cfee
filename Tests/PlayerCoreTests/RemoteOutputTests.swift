@testable import PlayerCore
import Testing

/// A Snapcast output (`OutputPlacement.remote`): the rooms of a house. This machine's devices
/// coming and going do not touch it; its calls and sleep pause the house and resume it; the
/// route is the server's; the position holds until the rooms hear the music.
@Suite struct RemoteOutputTests {
    static let house = AudioRoute(portType: .networkStream, sinkName: "pipe:///tmp/snapfifo?sampleformat=48000:16:2",
                                   description: "Snapcast: every room of the snapserver reading /tmp/snapfifo")
    static let latency = seconds(1.08)

    /// Playing into the house, having heard the local server once (headphones and speakers).
    func housePlayer(policy: AudioSessionPolicy = sessionPolicy()) -> Player {
        var player = Player(tracks: 3)
        player.send(.setPolicy(policy))
        player.send(.setOutput(.remote(route: Self.house, latency: Self.latency)))
        player.send(.soundServerChanged(local(ours: nil)))
        player.send(.play, at: 0)
        return player
    }

    func local(ours: String?, phones: Int = 0, headphones: Bool = true) -> SoundServerFacts {
        let sinks = (headphones ? [Sinks.null("headphones", portType: .headphones, description: "Headphones")] : [])
            + [Sinks.null("speakers", portType: .builtInSpeaker, description: "Speakers")]
        return SoundServerFacts(sinks: sinks, defaultSinkName: headphones ? "headphones" : "speakers",
                                ourSinkName: ours, phoneStreamCount: phones)
    }

    @Test func theRouteIsTheHouseWhateverTheLocalServerSays() {
        let player = housePlayer()
        #expect(player.snapshot.route == Self.house)
        #expect(!Self.house.portType.isPrivateListening)
    }

    @Test func localHeadphonesGoingAwayDoNotTouchTheHouse() {
        var player = housePlayer()
        let effects = player.send(.soundServerChanged(local(ours: nil, headphones: false)), at: 5)
        #expect(effects.routeChanges.isEmpty)
        #expect(effects.outputs.isEmpty)
        #expect(player.status == .playing)
        #expect(player.snapshot.route == Self.house)
    }

    @Test func aCallOnThisMachinePausesTheHouseAndResumesIt() {
        var player = housePlayer()
        let began = player.send(.soundServerChanged(local(ours: nil, phones: 1)), at: 5)
        #expect(began.sessionSignals == [.interruptionBegan])
        #expect(began.outputs == [.pause])
        #expect(player.state.pauseReason == .interruption)
        let ended = player.send(.soundServerChanged(local(ours: nil, phones: 0)), at: 20)
        #expect(ended.sessionSignals == [.interruptionEnded(shouldResume: true)])
        #expect(ended.outputs == [.resume])
        #expect(player.status == .playing)
    }

    @Test func sleepPausesTheHouse() {
        var player = housePlayer()
        let effects = player.send(.sleepImminent, at: 5)
        #expect(effects.outputs == [.pause])
        #expect(player.state.pauseReason == .sleep)
    }

    /// The rooms hear a start (and a resume) a buffer later: the position holds until then,
    /// then runs; the output's `started` when heard changes nothing.
    @Test func thePositionWaitsForTheRooms() {
        var player = housePlayer()
        #expect(player.position(at: 0.5) == 0)
        #expect(player.position(at: 1.08) == 0)
        #expect(player.position(at: 2.08) == second)
        #expect(player.send(.outputStarted(player.currentID!), at: 1.1).actions.isEmpty)
        player.send(.pause, at: 10.08)
        #expect(player.position == seconds(9))
        player.send(.play, at: 20)
        #expect(player.position(at: 20.5) == seconds(9))
        #expect(player.position(at: 22.08) == seconds(10))
    }

    @Test func aSeekHoldsAtItsTargetUntilHeard() {
        var player = housePlayer()
        let effects = player.send(.setPosition(player.currentID!, seconds(50)), at: 10)
        #expect(effects.contains(.seeked(seconds(50))))
        #expect(player.position(at: 10.5) == seconds(50))
        #expect(player.position(at: 12.08) == seconds(51))
    }

    @Test func aBluetoothHeadsetInItsCallProfileIsLeftAlone() {
        var player = housePlayer()
        let headset = SinkFacts(name: "bluez_sink.x", description: "Headset", portType: .bluetoothHFP, bus: "bluetooth",
                                cardName: "bluez_card.x",
                                bluetooth: BluetoothFacts(profile: "headset_head_unit", isCallProfile: true, musicProfile: "a2dp_sink"))
        let effects = player.send(.soundServerChanged(SoundServerFacts(sinks: [headset], defaultSinkName: "bluez_sink.x")), at: 3)
        #expect(!effects.contains { if case .output(.switchCardProfile) = $0 { true } else { false } })
    }

    /// The snapserver going away is the output's own loss: paused with the position kept, back
    /// by itself where it stopped.
    @Test func theSnapserverGoingAwayPausesAndComesBackWhereItStopped() {
        var player = housePlayer()
        player.send(.soundServerLost(reason: "the snapserver stopped reading /tmp/snapfifo"), at: 11.08)
        #expect(player.status == .paused)
        #expect(player.state.pauseReason == .noSoundServer)
        #expect(player.position(at: 30) == seconds(10))
        let back = player.send(.outputReconnected, at: 30)
        #expect(back.outputs == [.play(player.state.current!, from: seconds(10), playing: true)])
        #expect(player.status == .playing)
    }
}
