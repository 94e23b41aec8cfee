public import PlayerCore

/// One sink as the sound server (PulseAudio, or PipeWire's pulse layer) states it: its proplist
/// strings, its card's profiles and its ports' type codes. `described` turns it into the route
/// description PlayerCore decides from (`SinkFacts`); the server's codes and names stop here.
public struct SinkReading: Sendable, Equatable {
    public var name: String
    public var description: String
    /// `device.form_factor`: internal, speaker, headphone, headset, hands-free, car, hifi, tv…
    public var formFactor: String?
    /// `device.bus`: pci, usb, bluetooth, …
    public var bus: String?
    /// `device.api`: alsa, bluez, bluez5, …
    public var api: String?
    /// The active profile of the sink's card (for Bluetooth: a2dp_sink, headset_head_unit, …).
    public var cardProfile: String?
    public var ports: [Port]
    public var activePortName: String?
    /// The card (`bluez_card.…` for Bluetooth), its available profiles, and whether a capture
    /// stream (a call's microphone) records from it now.
    public var cardName: String? = nil
    public var cardProfiles: [String] = []
    public var cardCaptureInUse = false

    /// One port with its `pa_device_port_type_t` (PulseAudio ≥ 14; 0 unknown).
    public struct Port: Sendable, Equatable {
        public var name: String
        public var description: String
        public var typeCode: Int
        public var availability: PortFacts.Availability

        public init(name: String, description: String, typeCode: Int = 0, availability: PortFacts.Availability = .unknown) {
            self.name = name
            self.description = description
            self.typeCode = typeCode
            self.availability = availability
        }
    }

    public init(name: String, description: String, formFactor: String? = nil, bus: String? = nil,
                api: String? = nil, cardProfile: String? = nil, ports: [Port] = [], activePortName: String? = nil) {
        self.name = name
        self.description = description
        self.formFactor = formFactor
        self.bus = bus
        self.api = api
        self.cardProfile = cardProfile
        self.ports = ports
        self.activePortName = activePortName
    }

    public var activePort: Port? { ports.first { $0.name == activePortName } }

    /// A Bluetooth device, by its bus or the API that drives it.
    public var isBluetooth: Bool { bus == "bluetooth" || api == "bluez" }

    /// The route description of this sink.
    public var described: SinkFacts {
        var bluetooth: BluetoothFacts?
        if isBluetooth, let profile = cardProfile {
            bluetooth = BluetoothFacts(profile: profile, isCallProfile: BluetoothProfile.isCall(profile),
                                       musicProfile: BluetoothProfile.musicProfile(among: cardProfiles),
                                       microphoneInUse: cardCaptureInUse)
        }
        return SinkFacts(name: name, description: description, portType: PortType(reading: self), bus: bus,
                         ports: ports.map { PortFacts(name: $0.name, description: $0.description, availability: $0.availability) },
                         activePortName: activePortName, cardName: cardName, bluetooth: bluetooth)
    }
}
