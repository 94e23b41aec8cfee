@testable import PlayerCore
import Testing

/// Interruptions (a call) from both sources, the cork request and phone-role streams, and
/// system sleep, through `PlayerState.handle`.
@Suite struct InterruptionTests {
    struct Step: Sendable {
        var event: Event
        var at: Double
        /// Every effect but log lines, in order.
        var actions: [Effect] = []
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var policy = AudioSessionPolicy()
        var start: Start = .playing
        var steps: [Step]
        var status: PlaybackStatus
        /// nil: not checked.
        var pauseReason: PauseReason?
        var knownIssue: String? = nil
        /// The call is over after the last step.
        var callOver = true
        var testDescription: String { name }
    }

    static let home = Readings.onHeadphones()
    static func phones(_ count: Int) -> Event { .soundServerChanged(home.with(phones: count)) }

    static let began: [Effect] = [.interruptionBegan, .output(.pause)]
    static let endedResuming: [Effect] = [.interruptionEnded(shouldResume: true), .output(.resume)]
    static let endedNotResuming: [Effect] = [.interruptionEnded(shouldResume: false)]

    static let unplugDuringCall = """
        Headphones unplugged during a call: the unplug cannot pause (already paused by the call), \
        and when the call ends the interruption resumes — to the laptop speaker, the very thing \
        the route policy exists to prevent ("pulling the headphones out pauses the music before \
        it reaches the loudspeaker"; PortType.isPrivateListening: "so the music does not \
        suddenly come out of the loudspeaker"). Losing the private route during an interruption \
        should cancel its resume.
        """

    static let cases: [Case] = [
        // One source.
        Case(name: "cork request while playing → paused by the interruption",
             steps: [Step(event: .corkRequested, at: 10, actions: began)],
             status: .paused, pauseReason: .interruption, callOver: false),
        Case(name: "cork then uncork → resumed",
             steps: [Step(event: .corkRequested, at: 10, actions: began),
                     Step(event: .uncorkRequested, at: 15, actions: endedResuming)],
             status: .playing, pauseReason: PauseReason.none),
        Case(name: "phone stream 0 → 1 → 0 → paused, resumed",
             steps: [Step(event: phones(1), at: 10, actions: began),
                     Step(event: phones(0), at: 15, actions: endedResuming)],
             status: .playing, pauseReason: PauseReason.none),
        Case(name: "a call's playback and capture streams (0 → 2 → 1 → 0) count once",
             steps: [Step(event: phones(2), at: 10, actions: began),
                     Step(event: phones(1), at: 14),
                     Step(event: phones(0), at: 15, actions: endedResuming)],
             status: .playing, pauseReason: PauseReason.none),
        Case(name: "uncork with no interruption → nothing",
             steps: [Step(event: .uncorkRequested, at: 10)],
             status: .playing, pauseReason: PauseReason.none),

        // Both sources for one call, in every order.
        Case(name: "both: cork, phone stream, uncork, phone stream gone",
             steps: [Step(event: .corkRequested, at: 10, actions: began),
                     Step(event: phones(1), at: 10.01),
                     Step(event: .uncorkRequested, at: 15, actions: endedResuming),
                     Step(event: phones(0), at: 15.01)],
             status: .playing, pauseReason: PauseReason.none),
        Case(name: "both: cork, phone stream, phone stream gone, uncork",
             steps: [Step(event: .corkRequested, at: 10, actions: began),
                     Step(event: phones(1), at: 10.01),
                     Step(event: phones(0), at: 15, actions: endedResuming),
                     Step(event: .uncorkRequested, at: 15.01)],
             status: .playing, pauseReason: PauseReason.none),
        Case(name: "both: phone stream, cork, uncork, phone stream gone",
             steps: [Step(event: phones(1), at: 10, actions: began),
                     Step(event: .corkRequested, at: 10.01),
                     Step(event: .uncorkRequested, at: 15, actions: endedResuming),
                     Step(event: phones(0), at: 15.01)],
             status: .playing, pauseReason: PauseReason.none),
        Case(name: "both: phone stream, cork, phone stream gone, uncork",
             steps: [Step(event: phones(1), at: 10, actions: began),
                     Step(event: .corkRequested, at: 10.01),
                     Step(event: phones(0), at: 15, actions: endedResuming),
                     Step(event: .uncorkRequested, at: 15.01)],
             status: .playing, pauseReason: PauseReason.none),
        Case(name: "two calls one after the other → paused and resumed twice",
             steps: [Step(event: .corkRequested, at: 10, actions: began),
                     Step(event: .uncorkRequested, at: 15, actions: endedResuming),
                     Step(event: phones(1), at: 30, actions: began),
                     Step(event: phones(0), at: 40, actions: endedResuming)],
             status: .playing, pauseReason: PauseReason.none),

        // A person intervenes.
        Case(name: "user Pause during the call → not resumed, the user's pause",
             steps: [Step(event: .corkRequested, at: 10, actions: began),
                     Step(event: .pause, at: 12),
                     Step(event: .uncorkRequested, at: 15, actions: endedNotResuming)],
             status: .paused, pauseReason: .user),
        Case(name: "user Pause during a phone-stream call → not resumed",
             steps: [Step(event: phones(1), at: 10, actions: began),
                     Step(event: .pause, at: 12),
                     Step(event: phones(0), at: 15, actions: endedNotResuming)],
             status: .paused, pauseReason: .user),
        Case(name: "user Play during the call → plays, nothing more at the end",
             steps: [Step(event: .corkRequested, at: 10, actions: began),
                     Step(event: .play, at: 12, actions: [.output(.resume)]),
                     Step(event: .uncorkRequested, at: 15, actions: endedNotResuming)],
             status: .playing, pauseReason: PauseReason.none),
        Case(name: "user Play then Pause during the call → stays paused",
             steps: [Step(event: .corkRequested, at: 10, actions: began),
                     Step(event: .play, at: 11, actions: [.output(.resume)]),
                     Step(event: .pause, at: 12, actions: [.output(.pause)]),
                     Step(event: .uncorkRequested, at: 15, actions: endedNotResuming)],
             status: .paused, pauseReason: .user),
        Case(name: "user PlayPause during the call → plays, nothing more at the end",
             steps: [Step(event: .corkRequested, at: 10, actions: began),
                     Step(event: .playPause, at: 12, actions: [.output(.resume)]),
                     Step(event: .uncorkRequested, at: 15, actions: endedNotResuming)],
             status: .playing, pauseReason: PauseReason.none),
        Case(name: "user Stop during the call → stays stopped",
             steps: [Step(event: .corkRequested, at: 10, actions: began),
                     Step(event: .stop, at: 12, actions: [.output(.stop)]),
                     Step(event: .uncorkRequested, at: 15, actions: endedNotResuming)],
             status: .stopped, pauseReason: PauseReason.none),
        Case(name: "a volume change during the call is no transport command → still resumed",
             steps: [Step(event: .corkRequested, at: 10, actions: began),
                     Step(event: .setVolume(0.5), at: 12, actions: [.output(.setVolume(0.5))]),
                     Step(event: .uncorkRequested, at: 15, actions: endedResuming)],
             status: .playing, pauseReason: PauseReason.none),
        Case(name: "a user command before the call does not count against it",
             steps: [Step(event: .pause, at: 5, actions: [.output(.pause)]),
                     Step(event: .play, at: 6, actions: [.output(.resume)]),
                     Step(event: .corkRequested, at: 10, actions: began),
                     Step(event: .uncorkRequested, at: 15, actions: endedResuming)],
             status: .playing, pauseReason: PauseReason.none),

        // Not playing, or not asked to pause.
        Case(name: "call while paused by the user → began without a pause, ended without a resume",
             start: .paused,
             steps: [Step(event: .corkRequested, at: 10, actions: [.interruptionBegan]),
                     Step(event: .uncorkRequested, at: 15, actions: endedNotResuming)],
             status: .paused, pauseReason: .user),
        Case(name: "phone-stream call while paused by the user → no pause, no resume",
             start: .paused,
             steps: [Step(event: phones(1), at: 10, actions: [.interruptionBegan]),
                     Step(event: phones(0), at: 15, actions: endedNotResuming)],
             status: .paused, pauseReason: .user),
        Case(name: "pauseOnInterruption off → began, no pause; ended, no resume",
             policy: sessionPolicy(pauseOnInterruption: false),
             steps: [Step(event: .corkRequested, at: 10, actions: [.interruptionBegan]),
                     Step(event: .uncorkRequested, at: 15, actions: endedNotResuming)],
             status: .playing, pauseReason: PauseReason.none),
        Case(name: "call while stopped → no output effects",
             start: .stopped,
             steps: [Step(event: .corkRequested, at: 10, actions: [.interruptionBegan]),
                     Step(event: phones(1), at: 10.01),
                     Step(event: .uncorkRequested, at: 15, actions: endedNotResuming),
                     Step(event: phones(0), at: 15.01)],
             status: .stopped, pauseReason: PauseReason.none),

        // With route changes.
        Case(name: "call while paused by a route loss → no resume at the end",
             steps: [Step(event: .soundServerChanged(Readings.unplugged), at: 5,
                          actions: [.routeChanged(RouteChange.between(home, Readings.unplugged)!), .output(.pause)]),
                     Step(event: .corkRequested, at: 10, actions: [.interruptionBegan]),
                     Step(event: .uncorkRequested, at: 15, actions: endedNotResuming)],
             status: .paused, pauseReason: .routeChange),
        Case(name: "headphones unplugged during the call → no resume to the speaker at the end",
             steps: [Step(event: .corkRequested, at: 10, actions: began),
                     Step(event: .soundServerChanged(Readings.unplugged), at: 12,
                          actions: [.routeChanged(RouteChange.between(home, Readings.unplugged)!)]),
                     Step(event: .uncorkRequested, at: 15, actions: endedNotResuming)],
             status: .paused, pauseReason: nil, knownIssue: unplugDuringCall),
        Case(name: "user moves us to another sink during the call (override) → still resumed",
             steps: [Step(event: .corkRequested, at: 10, actions: began),
                     Step(event: .soundServerChanged(facts([Sinks.laptop(.headphones, .plugged), Sinks.hdmi], ours: Sinks.laptopName)),
                          at: 11, actions: [.routeChanged(RouteChange.between(
                              home, facts([Sinks.laptop(.headphones, .plugged), Sinks.hdmi], ours: Sinks.laptopName))!)]),
                     Step(event: .uncorkRequested, at: 15, actions: endedResuming)],
             status: .playing, pauseReason: PauseReason.none),
    ]

    @Test(arguments: cases)
    func interruption(_ c: Case) {
        var player = Player(start: c.start, facts: Self.home, policy: c.policy)
        expecting(knownIssue: c.knownIssue) {
            for (index, step) in c.steps.enumerated() {
                #expect(player.send(step.event, at: step.at).actions == step.actions, "step \(index)")
            }
            #expect(player.status == c.status)
            if let reason = c.pauseReason { #expect(player.snapshot.pauseReason == reason) }
        }
        #expect(player.state.interruption.isActive == !c.callOver)
    }

    /// The clock holds during the call: right after the resume the position is where the
    /// call stopped the music.
    @Test(arguments: [(Event.corkRequested, Event.uncorkRequested), (phones(1), phones(0))])
    func positionHoldsDuringTheCall(begin: Event, end: Event) {
        var player = Player(start: .playing, facts: Self.home)
        player.send(begin, at: 10)
        #expect(player.position(at: 12) == seconds(10))
        #expect(player.send(end, at: 15).outputs == [.resume])
        #expect(player.position == seconds(10))
        #expect(player.position(at: 16) == seconds(11))
        #expect(player.snapshot.current == player.entry(0))
    }
}

/// logind's PrepareForSleep(true): pause, let the system go, never resume by itself.
@Suite struct SleepTests {
    static let resumingPolicy = sessionPolicy(resumeOnReconnect: true)

    static let sleepEndsAutomaticPause = """
        sleepImminent only pauses when playing; when an interruption or a route loss had \
        already paused us, the pause keeps its automatic reason and its pending resume, so \
        the end of the call (or the device back within the reconnect window, measured on a \
        monotonic clock that does not count the suspend) resumes after wake, though the issue \
        says sleep has "no automatic resume". Sleep should make the pause final (reason sleep, \
        lostRoute and the interruption's resume dropped).
        """

    @Test(arguments: Start.allCases)
    func sleepImminent(_ start: Start) {
        var player = Player(start: start, facts: Readings.onHeadphones())
        let effects = player.send(.sleepImminent, at: 10)
        switch start {
        case .playing:
            #expect(effects == [.output(.pause), .readyForSleep])
            #expect(player.status == .paused)
            #expect(player.snapshot.pauseReason == .sleep)
            #expect(player.position(at: 100) == seconds(10))
        case .paused:
            #expect(effects == [.readyForSleep])
            #expect(player.snapshot.pauseReason == .user)
        case .stopped:
            #expect(effects == [.readyForSleep])
            #expect(player.status == .stopped)
        }
    }

    /// After sleep nothing resumes by itself: not a call's end, not a device coming back.
    @Test func nothingResumesAfterSleep() {
        var player = Player(start: .playing, facts: Readings.onBluetooth, policy: Self.resumingPolicy)
        #expect(player.send(.sleepImminent, at: 10) == [.output(.pause), .readyForSleep])
        // On wake the headset reconnects, a call comes and goes, the jack is replugged.
        var outputs: [OutputCommand] = []
        outputs += player.send(.soundServerChanged(Readings.bluetoothGone), at: 11).outputs
        outputs += player.send(.soundServerChanged(Readings.onBluetooth), at: 12).outputs
        outputs += player.send(.corkRequested, at: 13).outputs
        outputs += player.send(.uncorkRequested, at: 14).outputs
        outputs += player.send(.soundServerChanged(Readings.onBluetooth.with(phones: 1)), at: 15).outputs
        outputs += player.send(.soundServerChanged(Readings.onBluetooth), at: 16).outputs
        #expect(outputs.isEmpty)
        #expect(player.status == .paused)
        #expect(player.snapshot.pauseReason == .sleep)
        // Only a person resumes.
        #expect(player.send(.play, at: 20) == [.output(.resume)])
        #expect(player.position(at: 21) == seconds(11))
    }

    @Test func sleepDuringACallCancelsTheResume() {
        var player = Player(start: .playing, facts: Readings.onHeadphones())
        #expect(player.send(.corkRequested, at: 10).outputs == [.pause])
        #expect(player.send(.sleepImminent, at: 11) == [.readyForSleep])
        #expect(player.send(.uncorkRequested, at: 12).outputs == [])
        #expect(player.status == .paused)
    
    }

    @Test func sleepAfterARouteLossCancelsTheReconnectResume() {
        var player = Player(start: .playing, facts: Readings.onBluetooth, policy: Self.resumingPolicy)
        #expect(player.send(.soundServerChanged(Readings.bluetoothGone), at: 10).outputs == [.pause])
        #expect(player.send(.sleepImminent, at: 11) == [.readyForSleep])
        #expect(player.send(.soundServerChanged(Readings.onBluetooth), at: 20).outputs == [])
        #expect(player.status == .paused)
    
    }
}
