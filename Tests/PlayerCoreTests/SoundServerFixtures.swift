// Sinks and ports as the sound server reports them (`pactl list sinks`, PulseAudio 16 on
// Debian 12, PipeWire 0.3 through its pulse layer), described as the adapter describes them,
// as SoundServerFacts fixtures for the audio-session tests: things a null sink cannot produce
// (jacks, Bluetooth profiles, USB).
@testable import PlayerCore
import Testing

/// The devices as the sound-server adapter describes them (its classification is tested on
/// the same devices' readings in AudioOutputTests' SinkReadings and PortClassificationTests).
enum Sinks {
    // MARK: Laptop (Intel HDA, module-alsa-card, default profile set)

    static let laptopName = "alsa_output.pci-0000_00_1f.3.analog-stereo"
    static let speakerPort = "analog-output-speaker"
    static let headphonesPort = "analog-output-headphones"

    enum LaptopPort { case speaker, headphones }
    enum Jack { case plugged, unplugged }

    /// The laptop's analog sink with `active` port and the headphone jack `jack`.
    ///
    /// `speakerMutedByJack`: PulseAudio's `analog-output-speaker.conf` has
    /// `[Jack Headphone] state.plugged = no, state.unplugged = unknown`, so on most laptops the
    /// speaker port reads *unavailable* while headphones are plugged in. Pass false for a
    /// machine whose speaker path does not follow the headphone jack (speaker stays unknown).
    static func laptop(_ active: LaptopPort, _ jack: Jack, speakerMutedByJack: Bool = true) -> SinkFacts {
        SinkFacts(
            name: laptopName, description: "Built-in Audio Analog Stereo",
            portType: active == .speaker ? .builtInSpeaker : .headphones, bus: "pci",
            ports: [
                PortFacts(name: speakerPort, description: "Speakers",
                          availability: jack == .plugged && speakerMutedByJack ? .no : .unknown),
                PortFacts(name: headphonesPort, description: "Headphones",
                          availability: jack == .plugged ? .yes : .no),
            ],
            activePortName: active == .speaker ? speakerPort : headphonesPort)
    }

    /// The same card's HDMI sink (profile output:hdmi-stereo), a TV on the cable.
    static let hdmi = SinkFacts(
        name: "alsa_output.pci-0000_00_1f.3.hdmi-stereo", description: "Built-in Audio Digital Stereo (HDMI)",
        portType: .hdmi, bus: "pci",
        ports: [PortFacts(name: "hdmi-output-0", description: "HDMI / DisplayPort", availability: .yes)],
        activePortName: "hdmi-output-0")

    // MARK: Bluetooth (module-bluez5-device)

    static let headsetAddress = "00_1B_66_AA_BB_CC"

    /// A Bluetooth headset in card profile `profile` (a2dp_sink, headset_head_unit,
    /// handsfree_head_unit); PulseAudio names the sink after the profile.
    static func bluetoothHeadset(profile: String = "a2dp_sink") -> SinkFacts {
        let call = profile.contains("head_unit")
        return SinkFacts(
            name: "bluez_sink.\(headsetAddress).\(profile)", description: "MOMENTUM 3",
            portType: call ? .bluetoothHFP : .bluetoothA2DP, bus: "bluetooth",
            ports: [PortFacts(name: "headset-output", description: "Headset", availability: .unknown)],
            activePortName: "headset-output",
            bluetooth: BluetoothFacts(profile: profile, isCallProfile: call))
    }

    static var bluetoothA2DP: SinkFacts { bluetoothHeadset() }

    /// Bluetooth headphones (no microphone).
    static let bluetoothHeadphones = SinkFacts(
        name: "bluez_sink.38_18_4C_11_22_33.a2dp_sink", description: "WH-1000XM4",
        portType: .bluetoothA2DP, bus: "bluetooth",
        ports: [PortFacts(name: "headphone-output", description: "Headphone", availability: .unknown)],
        activePortName: "headphone-output",
        bluetooth: BluetoothFacts(profile: "a2dp_sink", isCallProfile: false))

    /// A car kit.
    static let carKit = SinkFacts(
        name: "bluez_sink.00_0E_9F_2A_4B_6C.a2dp_sink", description: "VW BT 4466",
        portType: .carAudio, bus: "bluetooth",
        ports: [PortFacts(name: "car-output", description: "Car", availability: .unknown)],
        activePortName: "car-output",
        bluetooth: BluetoothFacts(profile: "a2dp_sink", isCallProfile: false))

    /// The same headset through PipeWire's pulse layer: other sink name, dashed profile names.
    static func pipewireHeadset(profile: String) -> SinkFacts {
        let call = profile.contains("head-unit")
        return SinkFacts(
            name: "bluez_output.00_1B_66_AA_BB_CC.1", description: "MOMENTUM 3",
            portType: call ? .bluetoothHFP : .bluetoothA2DP, bus: "bluetooth",
            ports: [PortFacts(name: "headset-output", description: "Headset", availability: .unknown)],
            activePortName: "headset-output",
            bluetooth: BluetoothFacts(profile: profile, isCallProfile: call))
    }

    // MARK: USB (module-alsa-card, default profile set)

    /// A USB headset: its only output path is `analog-output`.
    static func usbHeadset() -> SinkFacts {
        SinkFacts(
            name: "alsa_output.usb-Logitech_USB_Headset-00.analog-stereo",
            description: "Logitech USB Headset Analog Stereo", portType: .headset, bus: "usb",
            ports: [PortFacts(name: "analog-output", description: "Analog Output", availability: .unknown)],
            activePortName: "analog-output")
    }

    /// A USB DAC (headphone amplifier): no form factor.
    static func usbDAC(withPort: Bool = true) -> SinkFacts {
        SinkFacts(
            name: "alsa_output.usb-FiiO_DigiHug_USB_Audio-01.analog-stereo",
            description: "DigiHug USB Audio Analog Stereo", portType: .usbAudio, bus: "usb",
            ports: withPort ? [PortFacts(name: "analog-output", description: "Analog Output", availability: .unknown)] : [],
            activePortName: withPort ? "analog-output" : nil)
    }

    // MARK: Null sinks (what the integration tests load)

    /// `load-module module-null-sink sink_name=<name> sink_properties="device.form_factor=…"`,
    /// as described: headphone → headphones, speaker → builtInSpeaker, nothing → unknown.
    static func null(_ name: String, portType: PortType, description: String) -> SinkFacts {
        SinkFacts(name: name, description: description, portType: portType)
    }
}

/// One reading of the server: `sinks`, our stream on `ours`, the default sink (ours unless told).
func facts(_ sinks: [SinkFacts], ours: String?, default defaultSink: String? = nil, phones: Int = 0) -> SoundServerFacts {
    SoundServerFacts(sinks: sinks, defaultSinkName: defaultSink ?? ours, ourSinkName: ours, phoneStreamCount: phones)
}

/// Readings of a laptop with headphones on the jack, and what follows.
enum Readings {
    /// Playing to the laptop's headphones.
    static func onHeadphones(phones: Int = 0) -> SoundServerFacts {
        facts([Sinks.laptop(.headphones, .plugged)], ours: Sinks.laptopName, phones: phones)
    }

    /// The jack pulled: same sink, the server switched to the speaker port.
    static let unplugged = facts([Sinks.laptop(.speaker, .unplugged)], ours: Sinks.laptopName)

    /// On the speaker with nothing on the jack, the HDMI sink present too.
    static let onSpeakerWithHDMI = facts([Sinks.laptop(.speaker, .unplugged), Sinks.hdmi], ours: Sinks.laptopName)

    /// Playing to the TV over HDMI.
    static let onHDMI = facts([Sinks.laptop(.speaker, .unplugged), Sinks.hdmi], ours: Sinks.hdmi.name)

    /// Playing to the Bluetooth headset (the laptop's speaker also there).
    static let onBluetooth = facts([Sinks.laptop(.speaker, .unplugged), Sinks.bluetoothA2DP], ours: Sinks.bluetoothA2DP.name)

    /// The Bluetooth headset gone: the server moved our stream to the laptop.
    static let bluetoothGone = facts([Sinks.laptop(.speaker, .unplugged)], ours: Sinks.laptopName)

    /// Playing to the USB headset.
    static let onUSBHeadset = facts([Sinks.laptop(.speaker, .unplugged), Sinks.usbHeadset()], ours: Sinks.usbHeadset().name)
}

extension SoundServerFacts {
    func with(phones: Int) -> SoundServerFacts {
        var copy = self
        copy.phoneStreamCount = phones
        return copy
    }
}

/// An audio-session policy; the defaults are AudioSessionPolicy's.
func sessionPolicy(pauseOnRouteLoss: Bool = true, pauseOnInterruption: Bool = true,
            resumeOnReconnect: Bool = false, window: Double = 30) -> AudioSessionPolicy {
    var policy = AudioSessionPolicy()
    policy.pauseOnRouteLoss = pauseOnRouteLoss
    policy.pauseOnInterruption = pauseOnInterruption
    policy.resumeOnReconnect = resumeOnReconnect
    policy.reconnectWindow = seconds(window)
    policy.inhibitSleepWhilePlaying = false  // its effects would be noise here (see CategoryTests)
    return policy
}

extension Player {
    /// A player with `count` tracks brought to `start` at time 0, with `policy`, that has
    /// heard the sound server once (`facts`).
    init(tracks count: Int = 3, start: Start, facts: SoundServerFacts, policy: AudioSessionPolicy = sessionPolicy()) {
        self.init(tracks: count, start: start)
        send(.setPolicy(policy))
        #expect(send(.soundServerChanged(facts)).isEmpty, "the first reading is not a change")
    }
}

extension Array where Element == Effect {
    /// The commands for the audio output, in order.
    var outputs: [OutputCommand] {
        compactMap { if case .output(let command) = $0 { return command } else { return nil } }
    }

    /// The route changes reported.
    var routeChanges: [RouteChange] {
        compactMap { if case .routeChanged(let change) = $0 { return change } else { return nil } }
    }

    /// The audio-session signals (route change reasons, interruptions, sleep), in order.
    var sessionSignals: [Effect] {
        filter {
            switch $0 {
            case .interruptionBegan, .interruptionEnded, .readyForSleep, .routeChanged: return true
            default: return false
            }
        }
    }
}

/// Runs `body` as a known issue when `reason` is given, plainly otherwise.
func expecting(knownIssue reason: String?, sourceLocation: SourceLocation = #_sourceLocation, _ body: () -> Void) {
    if let reason {
 body() 
    } else {
        body()
    }
}
