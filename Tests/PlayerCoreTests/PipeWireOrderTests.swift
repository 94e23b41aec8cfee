import Testing
@testable import PlayerCore

/// PipeWire reports an unplug in the other order from PulseAudio: first our sink is gone from
/// the list while we still name it, then the move. Either way it is the old device leaving.
@Suite struct PipeWireOrderTests {
    let headphones = Sinks.null("headphones", portType: .headphones, description: "Headphones")
    let speakers = Sinks.null("speakers", portType: .builtInSpeaker, description: "Speakers")

    private var playing: SoundServerFacts { facts([headphones, speakers], ours: "headphones", default: "headphones") }

    @Test(arguments: ["headphones", "speakers"])
    func removalBeforeTheMoveIsOldDeviceUnavailable(defaultDuringRemoval: String) {
        let removed = facts([speakers], ours: "headphones", default: defaultDuringRemoval)
        let change = RouteChange.between(playing, removed)
        #expect(change?.reason == .oldDeviceUnavailable)
        #expect(change?.previous?.portType == .headphones)
    }

    @Test func thePauseHoldsThroughTheMove() {
        var player = Player(tracks: 2, start: .playing)
        player.send(.soundServerChanged(playing), at: 1)
        let removal = player.send(.soundServerChanged(facts([speakers], ours: "headphones", default: "headphones")), at: 2)
        #expect(removal.contains(.output(.pause)))
        let moved = player.send(.soundServerChanged(facts([speakers], ours: "speakers", default: "speakers")), at: 2.001)
        #expect(!moved.contains(.output(.resume)))
        #expect(player.status == .paused)
        #expect(player.snapshot.pauseReason == .routeChange)
        #expect(player.snapshot.route?.sinkName == "speakers")
    }
}
