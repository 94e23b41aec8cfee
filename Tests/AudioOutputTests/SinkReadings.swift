// Sinks and ports as the sound server reports them (`pactl list sinks`, PulseAudio 16 on
// Debian 12, PipeWire 0.3 through its pulse layer), as `SinkReading`s: what the adapter
// classifies into route descriptions (things a null sink cannot produce: jacks, Bluetooth
// profiles, USB). PlayerCore's tests hold the same devices already described.
@testable import AudioOutput
import PlayerCore

/// Sinks as the sound server states them (what `SinkReading` holds before it is described).
enum Readings {
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
    /// `typed: false` is an older PulseAudio (< 14) that reports no port types.
    static func laptop(_ active: LaptopPort, _ jack: Jack, speakerMutedByJack: Bool = true,
                       typed: Bool = true) -> SinkReading {
        SinkReading(
            name: laptopName, description: "Built-in Audio Analog Stereo",
            formFactor: "internal", bus: "pci", api: "alsa",
            cardProfile: "output:analog-stereo+input:analog-stereo",
            ports: [
                SinkReading.Port(name: speakerPort, description: "Speakers", typeCode: typed ? 2 : 0,
                          availability: jack == .plugged && speakerMutedByJack ? .no : .unknown),
                SinkReading.Port(name: headphonesPort, description: "Headphones", typeCode: typed ? 3 : 0,
                          availability: jack == .plugged ? .yes : .no),
            ],
            activePortName: active == .speaker ? speakerPort : headphonesPort)
    }

    /// The same card's HDMI sink (profile output:hdmi-stereo), a TV on the cable.
    static let hdmi = SinkReading(
        name: "alsa_output.pci-0000_00_1f.3.hdmi-stereo", description: "Built-in Audio Digital Stereo (HDMI)",
        formFactor: "internal", bus: "pci", api: "alsa", cardProfile: "output:hdmi-stereo",
        ports: [SinkReading.Port(name: "hdmi-output-0", description: "HDMI / DisplayPort", typeCode: 10, availability: .yes)],
        activePortName: "hdmi-output-0")

    // MARK: Bluetooth (module-bluez5-device)

    static let headsetAddress = "00_1B_66_AA_BB_CC"

    /// A Bluetooth headset in card profile `profile` (a2dp_sink, headset_head_unit,
    /// handsfree_head_unit); PulseAudio names the sink after the profile.
    static func bluetoothHeadset(profile: String = "a2dp_sink") -> SinkReading {
        SinkReading(
            name: "bluez_sink.\(headsetAddress).\(profile)", description: "MOMENTUM 3",
            formFactor: "headset", bus: "bluetooth", api: "bluez", cardProfile: profile,
            ports: [SinkReading.Port(name: "headset-output", description: "Headset", typeCode: 6, availability: .unknown)],
            activePortName: "headset-output")
    }

    static var bluetoothA2DP: SinkReading { bluetoothHeadset() }

    /// Bluetooth headphones (no microphone): form factor headphone, port type HEADPHONES.
    static let bluetoothHeadphones = SinkReading(
        name: "bluez_sink.38_18_4C_11_22_33.a2dp_sink", description: "WH-1000XM4",
        formFactor: "headphone", bus: "bluetooth", api: "bluez", cardProfile: "a2dp_sink",
        ports: [SinkReading.Port(name: "headphone-output", description: "Headphone", typeCode: 3, availability: .unknown)],
        activePortName: "headphone-output")

    /// A car kit: the head unit announces itself as a car (port type CAR).
    static let carKit = SinkReading(
        name: "bluez_sink.00_0E_9F_2A_4B_6C.a2dp_sink", description: "VW BT 4466",
        formFactor: "car", bus: "bluetooth", api: "bluez", cardProfile: "a2dp_sink",
        ports: [SinkReading.Port(name: "car-output", description: "Car", typeCode: 18, availability: .unknown)],
        activePortName: "car-output")

    /// The same headset through PipeWire's pulse layer: other sink name, api bluez5,
    /// dashed profile names.
    static func pipewireHeadset(profile: String) -> SinkReading {
        SinkReading(
            name: "bluez_output.00_1B_66_AA_BB_CC.1", description: "MOMENTUM 3",
            formFactor: "headset", bus: "bluetooth", api: "bluez5", cardProfile: profile,
            ports: [SinkReading.Port(name: "headset-output", description: "Headset", typeCode: 6, availability: .unknown)],
            activePortName: "headset-output")
    }

    // MARK: USB (module-alsa-card, default profile set)

    /// A USB headset: its only output path is `analog-output`, which PulseAudio ≥ 14 types as
    /// ANALOG (22) (alsa-mixer.c: `{ "analog-output", N_("Analog Output"), PA_DEVICE_PORT_TYPE_ANALOG }`).
    static func usbHeadset(typed: Bool = true) -> SinkReading {
        SinkReading(
            name: "alsa_output.usb-Logitech_USB_Headset-00.analog-stereo",
            description: "Logitech USB Headset Analog Stereo",
            formFactor: "headset", bus: "usb", api: "alsa",
            cardProfile: "output:analog-stereo+input:mono-fallback",
            ports: [SinkReading.Port(name: "analog-output", description: "Analog Output", typeCode: typed ? 22 : 0,
                              availability: .unknown)],
            activePortName: "analog-output")
    }

    /// A USB DAC (headphone amplifier): no form factor.
    static func usbDAC(withPort: Bool = true) -> SinkReading {
        SinkReading(
            name: "alsa_output.usb-FiiO_DigiHug_USB_Audio-01.analog-stereo",
            description: "DigiHug USB Audio Analog Stereo", bus: "usb", api: "alsa",
            cardProfile: "output:analog-stereo",
            ports: withPort ? [SinkReading.Port(name: "analog-output", description: "Analog Output", typeCode: 22,
                                         availability: .unknown)] : [],
            activePortName: withPort ? "analog-output" : nil)
    }

    // MARK: Null sinks (what the integration tests load)

    /// `load-module module-null-sink sink_name=<name> sink_properties="device.form_factor=<ff> …"`.
    static func null(_ name: String, formFactor: String?, description: String) -> SinkReading {
        SinkReading(name: name, description: description, formFactor: formFactor)
    }
}

