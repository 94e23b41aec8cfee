@testable import AudioOutput
import PlayerCore
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

    /// Every call profile the route calls HFP is also the one whose description asks for the
    /// switch, with the profile to switch to, on both servers.
    @Test func whatIsClassedHFPIsDescribedForTheSwitch() {
        func headset(profile: String, profiles: [String], bus: String? = "bluetooth", api: String? = "bluez") -> SinkReading {
            var sink = SinkReading(name: "bluez_output.00_1B_66_AA_BB_CC.1", description: "WH-1000XM4", formFactor: "headset",
                                   bus: bus, api: api, cardProfile: profile)
            sink.cardName = "bluez_card.00_1B_66_AA_BB_CC"
            sink.cardProfiles = profiles
            return sink
        }
        let pipeWire = ["a2dp-sink", "a2dp-sink-sbc", "headset-head-unit-cvsd", "headset-head-unit", "off"]
        for profile in ["headset-head-unit-cvsd", "headset-head-unit-msbc", "headset-head-unit"] {
            let sink = headset(profile: profile, profiles: pipeWire, bus: nil)
            #expect(PortType(reading: sink) == .bluetoothHFP, "\(profile)")
            #expect(sink.described.bluetooth == BluetoothFacts(profile: profile, isCallProfile: true, musicProfile: "a2dp-sink"))
        }
        let pulseAudio = ["a2dp_source", "a2dp_sink", "headset_head_unit", "handsfree_head_unit", "off"]
        for profile in ["headset_head_unit", "handsfree_head_unit"] {
            let sink = headset(profile: profile, profiles: pulseAudio)
            #expect(PortType(reading: sink) == .bluetoothHFP, "\(profile)")
            #expect(sink.described.bluetooth?.musicProfile == "a2dp_sink", "\(profile)")
            #expect(sink.described.cardName == "bluez_card.00_1B_66_AA_BB_CC")
        }
        let music = headset(profile: "a2dp-sink", profiles: pipeWire, bus: nil)
        #expect(PortType(reading: music) == .bluetoothA2DP)
        #expect(music.described.bluetooth?.isCallProfile == false)
        // Not Bluetooth: no Bluetooth description, whatever its card says.
        var laptop = SinkReading(name: "alsa_output.pci", description: "Speakers", formFactor: "internal", bus: "pci",
                                 api: "alsa", cardProfile: "output:analog-stereo")
        laptop.cardName = "alsa_card.pci"
        #expect(laptop.described.bluetooth == nil)
    }
}
