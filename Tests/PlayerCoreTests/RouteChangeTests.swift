@testable import PlayerCore
import Testing

/// `RouteChange.between` on pairs of readings as the server reports them.
@Suite struct RouteChangeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var old: SoundServerFacts
        var new: SoundServerFacts
        /// nil: no change.
        var reason: RouteChange.Reason?
        var previous: PortType? = nil
        var current: PortType? = nil
        var knownIssue: String? = nil
        /// false: only the reason is checked here (the port types elsewhere).
        var checkPortTypes = true
        var testDescription: String { "\(name) → \(reason?.rawValue ?? "no change")" }
    }

    static let laptop = Sinks.laptopName

    static let speakerFollowsJack = """
        On most laptops the speaker port reads unavailable while headphones are plugged in \
        (PulseAudio's analog-output-speaker.conf: [Jack Headphone] state.plugged = no). \
        RouteChange.between looks at the old port's availability first, so plugging the jack \
        in (speaker unknown → no, headphones no → yes) reads as oldDeviceUnavailable of the \
        speaker, and a user's switch between the two ports as newDeviceAvailable / \
        oldDeviceUnavailable instead of override. The port that just became available (no → yes) \
        should be checked first; a resume-on-reconnect on jack replug never happens because of it.
        """

    static let cases: [Case] = [
        // Same sink, the active port switches (a wired jack).
        Case(name: "laptop jack unplugged (headphones → speaker, headphones unavailable)",
             old: facts([Sinks.laptop(.headphones, .plugged)], ours: laptop),
             new: facts([Sinks.laptop(.speaker, .unplugged)], ours: laptop),
             reason: .oldDeviceUnavailable, previous: .headphones, current: .builtInSpeaker),
        Case(name: "laptop jack unplugged, speaker not muted by the jack",
             old: facts([Sinks.laptop(.headphones, .plugged, speakerMutedByJack: false)], ours: laptop),
             new: facts([Sinks.laptop(.speaker, .unplugged, speakerMutedByJack: false)], ours: laptop),
             reason: .oldDeviceUnavailable, previous: .headphones, current: .builtInSpeaker),
        Case(name: "laptop jack plugged in (speaker → headphones, headphones no → yes), speaker not muted by the jack",
             old: facts([Sinks.laptop(.speaker, .unplugged, speakerMutedByJack: false)], ours: laptop),
             new: facts([Sinks.laptop(.headphones, .plugged, speakerMutedByJack: false)], ours: laptop),
             reason: .newDeviceAvailable, previous: .builtInSpeaker, current: .headphones),
        Case(name: "laptop jack plugged in, speaker goes unavailable with the jack",
             old: facts([Sinks.laptop(.speaker, .unplugged)], ours: laptop),
             new: facts([Sinks.laptop(.headphones, .plugged)], ours: laptop),
             reason: .newDeviceAvailable, previous: .builtInSpeaker, current: .headphones,
             knownIssue: speakerFollowsJack),
        Case(name: "user switches headphones → speaker, both available",
             old: facts([Sinks.laptop(.headphones, .plugged, speakerMutedByJack: false)], ours: laptop),
             new: facts([Sinks.laptop(.speaker, .plugged, speakerMutedByJack: false)], ours: laptop),
             reason: .override, previous: .headphones, current: .builtInSpeaker),
        Case(name: "user switches speaker → headphones, both available",
             old: facts([Sinks.laptop(.speaker, .plugged, speakerMutedByJack: false)], ours: laptop),
             new: facts([Sinks.laptop(.headphones, .plugged, speakerMutedByJack: false)], ours: laptop),
             reason: .override, previous: .builtInSpeaker, current: .headphones),
        Case(name: "user switches headphones → speaker with headphones in, speaker reads unavailable",
             old: facts([Sinks.laptop(.headphones, .plugged)], ours: laptop),
             new: facts([Sinks.laptop(.speaker, .plugged)], ours: laptop),
             reason: .override, previous: .headphones, current: .builtInSpeaker,
             knownIssue: speakerFollowsJack),
        Case(name: "jack unplug seen in two readings: availability first (no route change yet)",
             old: facts([Sinks.laptop(.headphones, .plugged)], ours: laptop),
             new: facts([Sinks.laptop(.headphones, .unplugged)], ours: laptop),
             reason: nil),
        Case(name: "jack unplug seen in two readings: then the port switch",
             old: facts([Sinks.laptop(.headphones, .unplugged)], ours: laptop),
             new: facts([Sinks.laptop(.speaker, .unplugged)], ours: laptop),
             reason: .oldDeviceUnavailable, previous: .headphones, current: .builtInSpeaker),

        // Another sink.
        Case(name: "Bluetooth A2DP headset leaves (its sink removed, our stream moved to the laptop)",
             old: Readings.onBluetooth, new: Readings.bluetoothGone,
             reason: .oldDeviceUnavailable, previous: .bluetoothA2DP, current: .builtInSpeaker),
        Case(name: "Bluetooth headset leaves while in the call profile",
             old: facts([Sinks.laptop(.speaker, .unplugged), Sinks.bluetoothHeadset(profile: "headset_head_unit")],
                        ours: Sinks.bluetoothHeadset(profile: "headset_head_unit").name),
             new: Readings.bluetoothGone,
             reason: .oldDeviceUnavailable, previous: .bluetoothHFP, current: .builtInSpeaker),
        Case(name: "Bluetooth car kit leaves (engine off)",
             old: facts([Sinks.laptop(.speaker, .unplugged), Sinks.carKit], ours: Sinks.carKit.name),
             new: Readings.bluetoothGone,
             reason: .oldDeviceUnavailable, previous: .carAudio, current: .builtInSpeaker),
        Case(name: "USB headset leaves (reason)",
             old: Readings.onUSBHeadset, new: facts([Sinks.laptop(.speaker, .unplugged)], ours: laptop),
             reason: .oldDeviceUnavailable, checkPortTypes: false),
        Case(name: "USB headset leaves (previous port type)",
             old: Readings.onUSBHeadset, new: facts([Sinks.laptop(.speaker, .unplugged)], ours: laptop),
             reason: .oldDeviceUnavailable, previous: .headset, current: .builtInSpeaker,
             knownIssue: PortTypeTests.analogTypeWins),
        Case(name: "null-sink headphones unloaded (the integration test's unplug)",
             old: facts([Sinks.null("headphones", portType: .headphones, description: "Headphones"),
                         Sinks.null("speakers", portType: .builtInSpeaker, description: "Speakers")], ours: "headphones"),
             new: facts([Sinks.null("speakers", portType: .builtInSpeaker, description: "Speakers")], ours: "speakers"),
             reason: .oldDeviceUnavailable, previous: .headphones, current: .builtInSpeaker),
        Case(name: "user moves our stream to the HDMI sink (pactl move-sink-input)",
             old: Readings.onSpeakerWithHDMI, new: Readings.onHDMI,
             reason: .override, previous: .builtInSpeaker, current: .hdmi),
        Case(name: "user moves our stream back from HDMI to the laptop",
             old: Readings.onHDMI, new: Readings.onSpeakerWithHDMI,
             reason: .override, previous: .hdmi, current: .builtInSpeaker),
        Case(name: "Bluetooth headset connects, our stream stays on the laptop",
             old: Readings.bluetoothGone,
             new: facts([Sinks.laptop(.speaker, .unplugged), Sinks.bluetoothA2DP], ours: laptop),
             reason: .newDeviceAvailable, previous: .builtInSpeaker, current: .builtInSpeaker),
        Case(name: "Bluetooth headset connects, the server moves us to it (module-switch-on-connect)",
             old: Readings.bluetoothGone, new: Readings.onBluetooth,
             reason: .newDeviceAvailable, previous: .builtInSpeaker, current: .bluetoothA2DP),
        Case(name: "every sink gone (our stream lost its sink)",
             old: Readings.onBluetooth, new: facts([], ours: nil),
             reason: .noSuitableRoute, previous: .bluetoothA2DP, current: nil),
        Case(name: "every sink gone, stale stream sink name",
             old: Readings.onBluetooth, new: SoundServerFacts(sinks: [], defaultSinkName: nil,
                                                              ourSinkName: Sinks.bluetoothA2DP.name),
             reason: .noSuitableRoute, previous: .bluetoothA2DP, current: nil),

        // Nothing to report.
        Case(name: "identical readings", old: Readings.onBluetooth, new: Readings.onBluetooth, reason: nil),
        Case(name: "a sink we do not use goes away", old: Readings.onSpeakerWithHDMI,
             new: facts([Sinks.laptop(.speaker, .unplugged)], ours: laptop), reason: nil),
        Case(name: "only the phone streams changed", old: Readings.onHeadphones(),
             new: Readings.onHeadphones(phones: 2), reason: nil),
        Case(name: "only the default sink changed while we have a stream", old: Readings.onSpeakerWithHDMI,
             new: facts([Sinks.laptop(.speaker, .unplugged), Sinks.hdmi], ours: laptop, default: Sinks.hdmi.name),
             reason: nil),
        Case(name: "no sinks before or after", old: facts([], ours: nil), new: facts([], ours: nil), reason: nil),

        // No stream of ours (stopped): the default sink is the route.
        Case(name: "no stream: user changes the default sink",
             old: facts([Sinks.laptop(.speaker, .unplugged), Sinks.hdmi], ours: nil, default: laptop),
             new: facts([Sinks.laptop(.speaker, .unplugged), Sinks.hdmi], ours: nil, default: Sinks.hdmi.name),
             reason: .override, previous: .builtInSpeaker, current: .hdmi),
        Case(name: "no stream: the default Bluetooth sink leaves",
             old: facts([Sinks.laptop(.speaker, .unplugged), Sinks.bluetoothA2DP], ours: nil, default: Sinks.bluetoothA2DP.name),
             new: facts([Sinks.laptop(.speaker, .unplugged)], ours: nil, default: laptop),
             reason: .oldDeviceUnavailable, previous: .bluetoothA2DP, current: .builtInSpeaker),
        Case(name: "no stream: jack unplugged on the default sink",
             old: facts([Sinks.laptop(.headphones, .plugged)], ours: nil, default: laptop),
             new: facts([Sinks.laptop(.speaker, .unplugged)], ours: nil, default: laptop),
             reason: .oldDeviceUnavailable, previous: .headphones, current: .builtInSpeaker),
        Case(name: "first sink appears",
             old: facts([], ours: nil), new: facts([Sinks.laptop(.speaker, .unplugged)], ours: nil, default: laptop),
             reason: .newDeviceAvailable, previous: nil, current: .builtInSpeaker),
    ]

    @Test(arguments: cases)
    func between(_ c: Case) throws {
        let change = RouteChange.between(c.old, c.new)
        guard let reason = c.reason else {
            #expect(change == nil)
            return
        }
        expecting(knownIssue: c.knownIssue) {
            #expect(change?.reason == reason)
            if c.checkPortTypes {
                #expect(change?.previous?.portType == c.previous)
                #expect(change?.current?.portType == c.current)
            }
        }
        // The routes reported are the two readings' routes, whatever the reason.
        #expect(change?.previous == AudioRoute(facts: c.old))
        #expect(change?.current == AudioRoute(facts: c.new))
    }

    /// The route is our stream's sink; the default sink only while we have no stream.
    @Test func routeIsOurSinkElseTheDefault() throws {
        let ours = try #require(AudioRoute(facts: facts([Sinks.laptop(.speaker, .unplugged), Sinks.hdmi],
                                                        ours: Sinks.hdmi.name, default: Sinks.laptopName)))
        #expect(ours.sinkName == Sinks.hdmi.name)
        #expect(ours.portType == .hdmi)

        let noStream = try #require(AudioRoute(facts: facts([Sinks.laptop(.headphones, .plugged), Sinks.hdmi],
                                                            ours: nil, default: Sinks.laptopName)))
        #expect(noStream == AudioRoute(portType: .headphones, sinkName: Sinks.laptopName,
                                       portName: Sinks.headphonesPort, description: "Headphones", bus: "pci"))

        #expect(AudioRoute(facts: facts([], ours: nil)) == nil)
        #expect(AudioRoute(facts: facts([Sinks.hdmi], ours: nil, default: "gone")) == nil)
    }

    @Test func bluetoothRouteCarriesTheProfile() throws {
        let route = try #require(AudioRoute(facts: Readings.onBluetooth))
        #expect(route == AudioRoute(portType: .bluetoothA2DP, sinkName: "bluez_sink.00_1B_66_AA_BB_CC.a2dp_sink",
                                    portName: "headset-output", description: "Headset", bus: "bluetooth",
                                    bluetoothProfile: "a2dp_sink"))
    }

    /// The same device: same sink and port, whatever else the reading says.
    @Test func sameDevice() throws {
        let headphones = AudioRoute(sink: Sinks.laptop(.headphones, .plugged))
        #expect(headphones.isSameDevice(as: AudioRoute(sink: Sinks.laptop(.headphones, .unplugged))))
        #expect(!headphones.isSameDevice(as: AudioRoute(sink: Sinks.laptop(.speaker, .unplugged))))
        #expect(!AudioRoute(sink: Sinks.bluetoothA2DP).isSameDevice(as: AudioRoute(sink: Sinks.bluetoothHeadphones)))
        #expect(AudioRoute(sink: Sinks.bluetoothA2DP).isSameDevice(as: AudioRoute(sink: Sinks.bluetoothHeadset())))
    }
}
