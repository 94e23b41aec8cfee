/// What the sound server says about its devices and streams at one moment, as the PulseAudio
/// adapter reads it. PlayerCore compares two of these to find route changes and interruptions;
/// the adapter only reports, it never decides.
public struct SoundServerFacts: Sendable, Equatable {
    public var sinks: [SinkFacts]
    /// The server's default sink (by name), if any.
    public var defaultSinkName: String?
    /// The sink our playback stream is connected to; nil when we have no stream.
    public var ourSinkName: String?
    /// Playback and capture streams (not ours) whose `media.role` is "phone": a call.
    public var phoneStreamCount: Int
    /// Every playback stream but ours: what the guard ties to the other players.
    public var otherStreams: [PlaybackStreamFacts]

    public init(sinks: [SinkFacts] = [], defaultSinkName: String? = nil, ourSinkName: String? = nil,
                phoneStreamCount: Int = 0, otherStreams: [PlaybackStreamFacts] = []) {
        self.sinks = sinks
        self.defaultSinkName = defaultSinkName
        self.ourSinkName = ourSinkName
        self.phoneStreamCount = phoneStreamCount
        self.otherStreams = otherStreams
    }

    /// The same reading seen from another stream: its sink stands where ours would, so the
    /// route rules (`AudioRoute`, `RouteChange`) answer for that stream.
    public func seen(fromSink sinkName: String?) -> SoundServerFacts {
        var facts = self
        facts.ourSinkName = sinkName
        return facts
    }

    public func sink(named name: String?) -> SinkFacts? {
        guard let name else { return nil }
        return sinks.first { $0.name == name }
    }
}

/// One output device (a PulseAudio sink) as the server describes it.
public struct SinkFacts: Sendable, Equatable {
    public var name: String
    public var description: String
    /// `device.form_factor`: internal, speaker, headphone, headset, hands-free, car, hifi, tv…
    public var formFactor: String?
    /// `device.bus`: pci, usb, bluetooth, …
    public var bus: String?
    /// `device.api`: alsa, bluez, …
    public var api: String?
    /// The active profile of the sink's card (for Bluetooth: a2dp_sink, headset_head_unit, …).
    public var cardProfile: String?
    public var ports: [PortFacts]
    public var activePortName: String?
    /// The card the sink belongs to (`bluez_card.…` for Bluetooth), its available profiles,
    /// and whether a capture stream (a call's microphone) records from that card now.
    public var cardName: String? = nil
    public var cardProfiles: [String] = []
    public var cardCaptureInUse = false

    public init(name: String, description: String, formFactor: String? = nil, bus: String? = nil,
                api: String? = nil, cardProfile: String? = nil, ports: [PortFacts] = [],
                activePortName: String? = nil) {
        self.name = name
        self.description = description
        self.formFactor = formFactor
        self.bus = bus
        self.api = api
        self.cardProfile = cardProfile
        self.ports = ports
        self.activePortName = activePortName
    }

    public var activePort: PortFacts? { ports.first { $0.name == activePortName } }
}

/// One port of a sink (a jack, the internal speaker, …).
public struct PortFacts: Sendable, Equatable {
    public enum Availability: String, Sendable {
        case unknown, yes, no
    }

    public var name: String
    public var description: String
    /// `pa_device_port_type_t` (PulseAudio ≥ 14): 2 speaker, 3 headphones, 6 headset,
    /// 15 Bluetooth, 18 car, … ; 0 unknown.
    public var typeCode: Int
    public var availability: Availability

    public init(name: String, description: String, typeCode: Int = 0, availability: Availability = .unknown) {
        self.name = name
        self.description = description
        self.typeCode = typeCode
        self.availability = availability
    }
}
