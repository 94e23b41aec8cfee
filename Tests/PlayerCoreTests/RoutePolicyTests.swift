@testable import PlayerCore
import Testing

/// The route-change policy through `PlayerState.handle`: losing a private listening device
/// while playing pauses at once; an override never pauses; resume on reconnect only when asked.
@Suite struct RoutePolicyTests {
    struct Step: Sendable {
        var event: Event
        var at: Double
        /// The route change reported (nil: none).
        var route: RouteChange.Reason? = nil
        /// The output commands (nil: not checked here, e.g. a seek's reload).
        var outputs: [OutputCommand]? = []
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var policy = AudioSessionPolicy()
        var start: Start = .playing
        var initial: SoundServerFacts
        var steps: [Step]
        var status: PlaybackStatus
        var pauseReason: PauseReason
        var knownIssue: String? = nil
        var testDescription: String { name }
    }

    // A laptop whose speaker port does not follow the jack (see RouteChangeTests.speakerFollowsJack).
    static let hpIn = facts([Sinks.laptop(.headphones, .plugged, speakerMutedByJack: false)], ours: Sinks.laptopName)
    static let hpOut = facts([Sinks.laptop(.speaker, .unplugged, speakerMutedByJack: false)], ours: Sinks.laptopName)
    /// The user picked the speaker port with the headphones still in.
    static let speakerChosen = facts([Sinks.laptop(.speaker, .plugged, speakerMutedByJack: false)], ours: Sinks.laptopName)
    /// Another Bluetooth device connected and the server moved us to it.
    static let onOtherBluetooth = facts([Sinks.laptop(.speaker, .unplugged), Sinks.bluetoothHeadphones],
                                        ours: Sinks.bluetoothHeadphones.name)
    /// The Bluetooth headset back, but our stream left on the laptop.
    static let bluetoothBackNotMoved = facts([Sinks.laptop(.speaker, .unplugged), Sinks.bluetoothA2DP],
                                             ours: Sinks.laptopName)

    static let resume = sessionPolicy(resumeOnReconnect: true, window: 30)

    static let cases: [Case] = [
        // Losing the route.
        Case(name: "playing on headphones, jack unplugged → paused",
             initial: Readings.onHeadphones(),
             steps: [Step(event: .soundServerChanged(Readings.unplugged), at: 10, route: .oldDeviceUnavailable, outputs: [.pause])],
             status: .paused, pauseReason: .routeChange),
        Case(name: "paused by the user, jack unplugged → stays the user's pause",
             start: .paused, initial: Readings.onHeadphones(),
             steps: [Step(event: .soundServerChanged(Readings.unplugged), at: 10, route: .oldDeviceUnavailable)],
             status: .paused, pauseReason: .user),
        Case(name: "stopped, jack unplugged → nothing for the output",
             start: .stopped, initial: Readings.onHeadphones(),
             steps: [Step(event: .soundServerChanged(Readings.unplugged), at: 10, route: .oldDeviceUnavailable)],
             status: .stopped, pauseReason: .none),
        Case(name: "jack unplug in two readings → paused on the port switch",
             initial: Readings.onHeadphones(),
             steps: [Step(event: .soundServerChanged(facts([Sinks.laptop(.headphones, .unplugged)], ours: Sinks.laptopName)), at: 10),
                     Step(event: .soundServerChanged(Readings.unplugged), at: 10.01, route: .oldDeviceUnavailable, outputs: [.pause])],
             status: .paused, pauseReason: .routeChange),
        Case(name: "playing on Bluetooth A2DP, headset leaves → paused",
             initial: Readings.onBluetooth,
             steps: [Step(event: .soundServerChanged(Readings.bluetoothGone), at: 10, route: .oldDeviceUnavailable, outputs: [.pause])],
             status: .paused, pauseReason: .routeChange),
        Case(name: "playing in the car, car kit leaves → paused",
             initial: facts([Sinks.laptop(.speaker, .unplugged), Sinks.carKit], ours: Sinks.carKit.name),
             steps: [Step(event: .soundServerChanged(Readings.bluetoothGone), at: 10, route: .oldDeviceUnavailable, outputs: [.pause])],
             status: .paused, pauseReason: .routeChange),
        Case(name: "playing on the USB headset, headset leaves → paused",
             initial: Readings.onUSBHeadset,
             steps: [Step(event: .soundServerChanged(Readings.bluetoothGone), at: 10, route: .oldDeviceUnavailable, outputs: [.pause])],
             status: .paused, pauseReason: .routeChange, knownIssue: PortTypeTests.analogTypeWins),
        Case(name: "null-sink headphones unloaded → paused",
             initial: facts([Sinks.null("headphones", portType: .headphones, description: "Headphones"),
                             Sinks.null("speakers", portType: .builtInSpeaker, description: "Speakers")], ours: "headphones"),
             steps: [Step(event: .soundServerChanged(facts([Sinks.null("speakers", portType: .builtInSpeaker, description: "Speakers")],
                                                          ours: "speakers")),
                          at: 10, route: .oldDeviceUnavailable, outputs: [.pause])],
             status: .paused, pauseReason: .routeChange),
        Case(name: "playing on HDMI, the TV sink goes → not private, keeps playing",
             initial: Readings.onHDMI,
             steps: [Step(event: .soundServerChanged(facts([Sinks.laptop(.speaker, .unplugged)], ours: Sinks.laptopName)),
                          at: 10, route: .oldDeviceUnavailable)],
             status: .playing, pauseReason: .none),
        Case(name: "pauseOnRouteLoss off, jack unplugged → keeps playing",
             policy: sessionPolicy(pauseOnRouteLoss: false), initial: Readings.onHeadphones(),
             steps: [Step(event: .soundServerChanged(Readings.unplugged), at: 10, route: .oldDeviceUnavailable)],
             status: .playing, pauseReason: .none),
        Case(name: "every sink gone while playing → paused",
             initial: Readings.onBluetooth,
             steps: [Step(event: .soundServerChanged(facts([], ours: nil)), at: 10, route: .noSuitableRoute, outputs: [.pause])],
             status: .paused, pauseReason: .routeChange),

        // Overrides never pause.
        Case(name: "user switches headphones → speaker port → override, keeps playing",
             initial: hpIn,
             steps: [Step(event: .soundServerChanged(speakerChosen), at: 10, route: .override)],
             status: .playing, pauseReason: .none),
        Case(name: "user moves our stream from Bluetooth to the laptop → override, keeps playing",
             initial: facts([Sinks.laptop(.speaker, .unplugged), Sinks.bluetoothA2DP], ours: Sinks.bluetoothA2DP.name),
             steps: [Step(event: .soundServerChanged(bluetoothBackNotMoved), at: 10, route: .override)],
             status: .playing, pauseReason: .none),
        Case(name: "user moves our stream to HDMI → override, keeps playing",
             initial: Readings.onSpeakerWithHDMI,
             steps: [Step(event: .soundServerChanged(Readings.onHDMI), at: 10, route: .override)],
             status: .playing, pauseReason: .none),
        Case(name: "a new device while playing → nothing to do",
             initial: Readings.bluetoothGone,
             steps: [Step(event: .soundServerChanged(Readings.onBluetooth), at: 10, route: .newDeviceAvailable)],
             status: .playing, pauseReason: .none),

        // Replug.
        Case(name: "resume-on-reconnect off (default): replug does not resume",
             initial: hpIn,
             steps: [Step(event: .soundServerChanged(hpOut), at: 10, route: .oldDeviceUnavailable, outputs: [.pause]),
                     Step(event: .soundServerChanged(hpIn), at: 12, route: .newDeviceAvailable)],
             status: .paused, pauseReason: .routeChange),
        Case(name: "resume-on-reconnect on: same jack back within the window → resumes",
             policy: resume, initial: hpIn,
             steps: [Step(event: .soundServerChanged(hpOut), at: 10, route: .oldDeviceUnavailable, outputs: [.pause]),
                     Step(event: .soundServerChanged(hpIn), at: 39, route: .newDeviceAvailable, outputs: [.resume])],
             status: .playing, pauseReason: .none),
        Case(name: "resume-on-reconnect on: same jack back after the window → stays paused",
             policy: resume, initial: hpIn,
             steps: [Step(event: .soundServerChanged(hpOut), at: 10, route: .oldDeviceUnavailable, outputs: [.pause]),
                     Step(event: .soundServerChanged(hpIn), at: 41, route: .newDeviceAvailable)],
             status: .paused, pauseReason: .routeChange),
        Case(name: "resume-on-reconnect on: laptop jack back (speaker follows the jack) → resumes",
             policy: resume, initial: Readings.onHeadphones(),
             steps: [Step(event: .soundServerChanged(Readings.unplugged), at: 10, route: .oldDeviceUnavailable, outputs: [.pause]),
                     Step(event: .soundServerChanged(Readings.onHeadphones()), at: 12, route: .newDeviceAvailable, outputs: [.resume])],
             status: .playing, pauseReason: .none, knownIssue: RouteChangeTests.speakerFollowsJack),
        Case(name: "resume-on-reconnect on: Bluetooth headset back and we are moved to it → resumes",
             policy: resume, initial: Readings.onBluetooth,
             steps: [Step(event: .soundServerChanged(Readings.bluetoothGone), at: 10, route: .oldDeviceUnavailable, outputs: [.pause]),
                     Step(event: .soundServerChanged(Readings.onBluetooth), at: 25, route: .newDeviceAvailable, outputs: [.resume])],
             status: .playing, pauseReason: .none),
        Case(name: "resume-on-reconnect on: Bluetooth headset back but our stream stays on the laptop → stays paused",
             policy: resume, initial: Readings.onBluetooth,
             steps: [Step(event: .soundServerChanged(Readings.bluetoothGone), at: 10, route: .oldDeviceUnavailable, outputs: [.pause]),
                     Step(event: .soundServerChanged(bluetoothBackNotMoved), at: 25, route: .newDeviceAvailable)],
             status: .paused, pauseReason: .routeChange),
        Case(name: "resume-on-reconnect on: a different device arrives → stays paused",
             policy: resume, initial: Readings.onBluetooth,
             steps: [Step(event: .soundServerChanged(Readings.bluetoothGone), at: 10, route: .oldDeviceUnavailable, outputs: [.pause]),
                     Step(event: .soundServerChanged(onOtherBluetooth), at: 15, route: .newDeviceAvailable)],
             status: .paused, pauseReason: .routeChange),
        Case(name: "resume-on-reconnect on: user played and paused in between → stays paused",
             policy: resume, initial: hpIn,
             steps: [Step(event: .soundServerChanged(hpOut), at: 10, route: .oldDeviceUnavailable, outputs: [.pause]),
                     Step(event: .play, at: 11, outputs: [.resume]),
                     Step(event: .pause, at: 12, outputs: [.pause]),
                     Step(event: .soundServerChanged(hpIn), at: 13, route: .newDeviceAvailable)],
             status: .paused, pauseReason: .user),
        Case(name: "resume-on-reconnect on: user paused again in between → stays paused",
             policy: resume, initial: hpIn,
             steps: [Step(event: .soundServerChanged(hpOut), at: 10, route: .oldDeviceUnavailable, outputs: [.pause]),
                     Step(event: .pause, at: 11),
                     Step(event: .soundServerChanged(hpIn), at: 13, route: .newDeviceAvailable)],
             status: .paused, pauseReason: .user),
        Case(name: "resume-on-reconnect on: user seeked in between → stays paused",
             policy: resume, initial: hpIn,
             steps: [Step(event: .soundServerChanged(hpOut), at: 10, route: .oldDeviceUnavailable, outputs: [.pause]),
                     Step(event: .seek(by: seconds(5)), at: 11, outputs: nil),
                     Step(event: .soundServerChanged(hpIn), at: 13, route: .newDeviceAvailable)],
             status: .paused, pauseReason: .user),
        Case(name: "resume-on-reconnect on: user skipped to the next track in between → stays paused",
             policy: resume, initial: hpIn,
             steps: [Step(event: .soundServerChanged(hpOut), at: 10, route: .oldDeviceUnavailable, outputs: [.pause]),
                     Step(event: .next, at: 11, outputs: nil),
                     Step(event: .soundServerChanged(hpIn), at: 13, route: .newDeviceAvailable)],
             status: .paused, pauseReason: .user),
        Case(name: "resume-on-reconnect on: user stopped in between → stays stopped",
             policy: resume, initial: hpIn,
             steps: [Step(event: .soundServerChanged(hpOut), at: 10, route: .oldDeviceUnavailable, outputs: [.pause]),
                     Step(event: .stop, at: 11, outputs: [.stop]),
                     Step(event: .soundServerChanged(hpIn), at: 13, route: .newDeviceAvailable)],
             status: .stopped, pauseReason: .none),
        Case(name: "resume-on-reconnect on: unplugged while the user had paused → replug does not resume",
             policy: resume, start: .paused, initial: hpIn,
             steps: [Step(event: .soundServerChanged(hpOut), at: 10, route: .oldDeviceUnavailable),
                     Step(event: .soundServerChanged(hpIn), at: 12, route: .newDeviceAvailable)],
             status: .paused, pauseReason: .user),
        Case(name: "resume-on-reconnect on: second unplug/replug cycle resumes again",
             policy: resume, initial: hpIn,
             steps: [Step(event: .soundServerChanged(hpOut), at: 10, route: .oldDeviceUnavailable, outputs: [.pause]),
                     Step(event: .soundServerChanged(hpIn), at: 12, route: .newDeviceAvailable, outputs: [.resume]),
                     Step(event: .soundServerChanged(hpOut), at: 50, route: .oldDeviceUnavailable, outputs: [.pause]),
                     Step(event: .soundServerChanged(hpIn), at: 60, route: .newDeviceAvailable, outputs: [.resume])],
             status: .playing, pauseReason: .none),
    ]

    @Test(arguments: cases)
    func routePolicy(_ c: Case) {
        var player = Player(start: c.start, facts: c.initial, policy: c.policy)
        expecting(knownIssue: c.knownIssue) {
            for (index, step) in c.steps.enumerated() {
                let effects = player.send(step.event, at: step.at)
                #expect(effects.routeChanges.map(\.reason) == (step.route.map { [$0] } ?? []), "step \(index)")
                if let outputs = step.outputs { #expect(effects.outputs == outputs, "step \(index)") }
                #expect(!effects.contains(.interruptionBegan) && !effects.contains(.readyForSleep), "step \(index)")
            }
            #expect(player.status == c.status)
            #expect(player.snapshot.status == c.status)
            #expect(player.snapshot.pauseReason == c.pauseReason)
        }
        #expect(player.snapshot.route == AudioRoute(facts: player.state.soundServer!))
    }

    /// The unplug, exactly: the route change first (with both routes), then the cork; the
    /// position holds where the music stopped; the snapshot shows the new route and the reason.
    @Test func unplugEffectsInOrder() {
        var player = Player(start: .playing, facts: Readings.onHeadphones())
        let effects = player.send(.soundServerChanged(Readings.unplugged), at: 10)
        let change = RouteChange(reason: .oldDeviceUnavailable,
                                 previous: AudioRoute(sink: Sinks.laptop(.headphones, .plugged)),
                                 current: AudioRoute(sink: Sinks.laptop(.speaker, .unplugged)))
        #expect(effects == [.routeChanged(change), .output(.pause)])
        #expect(change.previous?.portType == .headphones)
        #expect(player.snapshot.route?.portType == .builtInSpeaker)
        #expect(player.snapshot.pauseReason == .routeChange)
        #expect(player.position(at: 10) == seconds(10))
        #expect(player.position(at: 60) == seconds(10))
        // The user's Play resumes from there, on the speaker.
        #expect(player.send(.play, at: 60) == [.output(.resume)])
        #expect(player.snapshot.pauseReason == .none)
        #expect(player.position(at: 61) == seconds(11))
    }

    /// A resume on reconnect says why in the log, then resumes; the position goes on.
    @Test func resumeOnReconnectLogsAndResumes() {
        var player = Player(start: .playing, facts: Self.hpIn, policy: Self.resume)
        player.send(.soundServerChanged(Self.hpOut), at: 10)
        let effects = player.send(.soundServerChanged(Self.hpIn), at: 20)
        #expect(effects.actions == [.routeChanged(RouteChange(reason: .newDeviceAvailable,
                                                              previous: AudioRoute(facts: Self.hpOut),
                                                              current: AudioRoute(facts: Self.hpIn))),
                                    .output(.resume)])
        #expect(effects.logs.count == 1)
        #expect(effects.logs.first?.0 == .info)
        #expect(player.position(at: 25) == seconds(15))
    }

    /// The window is the policy's: a short window excludes what a long one allows.
    struct Window: Sendable, CustomTestStringConvertible {
        var window: Double
        var replugAt: Double
        var resumes: Bool
        var testDescription: String { "window \(window) s, replug at \(replugAt) s → \(resumes ? "resumes" : "stays paused")" }
    }

    @Test(arguments: [Window(window: 5, replugAt: 14, resumes: true), Window(window: 5, replugAt: 16, resumes: false),
                      Window(window: 60, replugAt: 69, resumes: true), Window(window: 60, replugAt: 71, resumes: false)])
    func reconnectWindow(_ w: Window) {
        let (window, replugAt, resumes) = (w.window, w.replugAt, w.resumes)
        var player = Player(start: .playing, facts: Self.hpIn, policy: sessionPolicy(resumeOnReconnect: true, window: window))
        player.send(.soundServerChanged(Self.hpOut), at: 10)
        let effects = player.send(.soundServerChanged(Self.hpIn), at: replugAt)
        #expect(effects.outputs == (resumes ? [.resume] : []))
        #expect(player.status == (resumes ? .playing : .paused))
    }

    /// Turning resume-on-reconnect on after the unplug still counts the unplug.
    @Test func policyChangeTakesEffectAtOnce() {
        var player = Player(start: .playing, facts: Self.hpIn)
        player.send(.soundServerChanged(Self.hpOut), at: 10)
        #expect(player.send(.setPolicy(Self.resume), at: 11).isEmpty)
        #expect(player.snapshot.policy == Self.resume)
        #expect(player.send(.soundServerChanged(Self.hpIn), at: 12).outputs == [.resume])
    }
}
