/// What the sound server says about its devices and streams at one moment, as the sound-server
/// adapter describes it. PlayerCore compares two of these to find route changes and interruptions;
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

/// One output device as the sound-server adapter describes it: already classified (what kind
/// of device, whether a Bluetooth one is in a call profile and what would switch it to music),
/// so the policy decides from route descriptions and never reads a server's codes or names.
///
/// `name`, `cardName` and the port names are identities: compared, handed back in commands,
/// shown to people, never interpreted.
public struct SinkFacts: Sendable, Equatable {
    public var name: String
    public var description: String
    /// What kind of device this is with its active port.
    public var portType: PortType
    /// The bus it hangs on (pci, usb, bluetooth…), for people: shown in the route, never decided on.
    public var bus: String?
    public var ports: [PortFacts]
    public var activePortName: String?
    /// The sound card the device belongs to: a Bluetooth card that switches profiles replaces
    /// its sink but keeps its card.
    public var cardName: String? = nil
    /// For a Bluetooth device: its profile, and what playing music on it would take.
    public var bluetooth: BluetoothFacts? = nil

    public init(name: String, description: String, portType: PortType = .unknown, bus: String? = nil,
                ports: [PortFacts] = [], activePortName: String? = nil, cardName: String? = nil,
                bluetooth: BluetoothFacts? = nil) {
        self.name = name
        self.description = description
        self.portType = portType
        self.bus = bus
        self.ports = ports
        self.activePortName = activePortName
        self.cardName = cardName
        self.bluetooth = bluetooth
    }

    public var activePort: PortFacts? { ports.first { $0.name == activePortName } }
}

/// A Bluetooth device's profile, as the adapter classified it.
public struct BluetoothFacts: Sendable, Equatable {
    /// The active profile's name, for people (a2dp_sink, headset_head_unit, a2dp-sink…).
    public var profile: String
    /// The active profile is a call profile (HSP/HFP): music through it sounds like a phone.
    public var isCallProfile: Bool
    /// The profile to switch to for music, among those the device offers; nil when it has none.
    public var musicProfile: String?
    /// A capture stream records from the device now: a call uses its microphone.
    public var microphoneInUse: Bool

    public init(profile: String, isCallProfile: Bool, musicProfile: String? = nil, microphoneInUse: Bool = false) {
        self.profile = profile
        self.isCallProfile = isCallProfile
        self.musicProfile = musicProfile
        self.microphoneInUse = microphoneInUse
    }
}

/// One port of a device (a jack, the internal speaker, …).
public struct PortFacts: Sendable, Equatable {
    public enum Availability: String, Sendable {
        case unknown, yes, no
    }

    public var name: String
    public var description: String
    public var availability: Availability

    public init(name: String, description: String, availability: Availability = .unknown) {
        self.name = name
        self.description = description
        self.availability = availability
    }
}
