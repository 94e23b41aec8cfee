@testable import PlayerCore
import Testing

/// The one list of Bluetooth call profiles, against the names PulseAudio and PipeWire use
/// (finding 6: PipeWire's `headset-head-unit-cvsd` was classed HFP but never switched to A2DP).
@Suite struct BluetoothProfileNameTests {
    static let pulseAudioCalls = ["headset_head_unit", "handsfree_head_unit", "headset_audio_gateway", "handsfree_audio_gateway"]
    static let pipeWireCalls = ["headset-head-unit", "headset-head-unit-cvsd", "headset-head-unit-msbc", "audio-gateway",
                                "hsp_hs", "hfp_hf", "hsp_ag", "hfp_ag"]
    static let pulseAudioMusic = ["a2dp_sink", "a2dp_sink_sbc", "a2dp_sink_aac", "a2dp_sink_ldac"]
    static let pipeWireMusic = ["a2dp-sink", "a2dp-sink-sbc", "a2dp-sink-aac", "a2dp-sink-sbc_xq"]
    static let neither = ["off", "a2dp_source", "a2dp-source", "bap-sink", "output:analog-stereo", "", "hspx", "hfpfoo"]

    @Test(arguments: pulseAudioCalls + pipeWireCalls)
    func callProfiles(_ name: String) {
        #expect(BluetoothProfile.isCall(name))
        #expect(BluetoothProfile.isCall(name.uppercased()))
        #expect(!BluetoothProfile.isA2DPPlayback(name))
    }

    @Test(arguments: pulseAudioMusic + pipeWireMusic)
    func musicProfiles(_ name: String) {
        #expect(BluetoothProfile.isA2DPPlayback(name))
        #expect(!BluetoothProfile.isCall(name))
    }

    @Test(arguments: neither)
    func otherProfiles(_ name: String) {
        #expect(!BluetoothProfile.isCall(name))
        #expect(!BluetoothProfile.isA2DPPlayback(name))
    }

    @Test func theServersOwnA2DPChoiceIsPreferred() {
        #expect(BluetoothProfile.musicProfile(among: ["a2dp-sink-sbc", "a2dp-sink", "headset-head-unit"]) == "a2dp-sink")
        #expect(BluetoothProfile.musicProfile(among: ["a2dp_source", "a2dp_sink_aac", "a2dp_sink_sbc"]) == "a2dp_sink_aac")
        #expect(BluetoothProfile.musicProfile(among: ["headset_head_unit", "a2dp_source", "off"]) == nil)
    }

    private func headset(profile: String, profiles: [String], bus: String? = "bluetooth", api: String? = "bluez") -> SinkFacts {
        var sink = SinkFacts(name: "bluez_output.00_1B_66_AA_BB_CC.1", description: "WH-1000XM4", formFactor: "headset",
                             bus: bus, api: api, cardProfile: profile)
        sink.cardName = "bluez_card.00_1B_66_AA_BB_CC"
        sink.cardProfiles = profiles
        return sink
    }

    private func switchedProfile(_ sink: SinkFacts) -> String? {
        var player = Player(tracks: 1)
        let laptop = SinkFacts(name: "alsa_output.pci", description: "Speakers", formFactor: "internal")
        player.send(.soundServerChanged(SoundServerFacts(sinks: [laptop, sink], defaultSinkName: sink.name, ourSinkName: sink.name)), at: 0)
        for effect in player.send(.play, at: 1) {
            if case .output(.switchCardProfile(_, let profile)) = effect { return profile }
        }
        return nil
    }

    /// Every call profile the route calls HFP is also switched to A2DP, on both servers.
    @Test func whatIsClassedHFPIsSwitched() {
        let pipeWire = ["a2dp-sink", "a2dp-sink-sbc", "headset-head-unit-cvsd", "headset-head-unit", "off"]
        for profile in ["headset-head-unit-cvsd", "headset-head-unit-msbc", "headset-head-unit"] {
            let sink = headset(profile: profile, profiles: pipeWire, bus: nil)
            #expect(PortType(sink: sink) == .bluetoothHFP, "\(profile)")
            #expect(switchedProfile(sink) == "a2dp-sink", "\(profile)")
        }
        let pulseAudio = ["a2dp_source", "a2dp_sink", "headset_head_unit", "handsfree_head_unit", "off"]
        for profile in ["headset_head_unit", "handsfree_head_unit"] {
            let sink = headset(profile: profile, profiles: pulseAudio)
            #expect(PortType(sink: sink) == .bluetoothHFP, "\(profile)")
            #expect(switchedProfile(sink) == "a2dp_sink", "\(profile)")
        }
        // Already in A2DP: nothing to do.
        let music = headset(profile: "a2dp-sink", profiles: pipeWire, bus: nil)
        #expect(PortType(sink: music) == .bluetoothA2DP)
        #expect(switchedProfile(music) == nil)
    }
}

/// SIGHUP turning the sleep inhibitor on or off while playing takes effect at once.
@Suite struct LivePolicyTests {
    @Test func theInhibitorFollowsThePolicyWhilePlaying() {
        var player = Player(tracks: 1)
        var policy = AudioSessionPolicy()
        policy.inhibitSleepWhilePlaying = true
        player.send(.setPolicy(policy))
        #expect(player.send(.play, at: 1).contains(.keepAwake(true)))
        policy.inhibitSleepWhilePlaying = false
        #expect(player.send(.setPolicy(policy), at: 2) == [.keepAwake(false)])
        policy.inhibitSleepWhilePlaying = true
        #expect(player.send(.setPolicy(policy), at: 3) == [.keepAwake(true)])
        #expect(player.send(.setPolicy(policy), at: 4) == [])
        player.send(.pause, at: 5)
        policy.inhibitSleepWhilePlaying = false
        #expect(player.send(.setPolicy(policy), at: 6) == [])
    }
}
