/// What kind of output a route plays to, named as iOS names its port types.
public enum PortType: String, Sendable, CaseIterable {
    case builtInSpeaker, headphones, headset, bluetoothA2DP, bluetoothHFP, usbAudio, hdmi, lineOut, carAudio, unknown

    /// A device only the listener hears. Losing one while playing pauses, so the music does
    /// not suddenly come out of the loudspeaker.
    public var isPrivateListening: Bool {
        switch self {
        case .headphones, .headset, .bluetoothA2DP, .bluetoothHFP, .usbAudio, .carAudio: return true
        case .builtInSpeaker, .hdmi, .lineOut, .unknown: return false
        }
    }

    /// Classifies a sink from what the server says of it. The most specific fact wins:
    /// the Bluetooth profile, then the active port's type (PulseAudio ≥ 14), its name, the
    /// sink's form factor, and last its bus.
    public init(sink: SinkFacts) {
        if let type = Self.bluetooth(sink) ?? Self.fromPortType(sink.activePort?.typeCode ?? 0)
            ?? Self.fromPortName(sink.activePort?.name) ?? Self.fromFormFactor(sink.formFactor) {
            self = type
        } else if sink.bus == "usb" {
            self = .usbAudio
        } else {
            self = .unknown
        }
    }

    private static func bluetooth(_ sink: SinkFacts) -> PortType? {
        guard sink.bus == "bluetooth" || sink.api == "bluez" else { return nil }
        if sink.formFactor == "car" { return .carAudio }
        if let profile = sink.cardProfile, BluetoothProfile.isCall(profile) { return .bluetoothHFP }
        return .bluetoothA2DP
    }

    /// `pa_device_port_type_t` values (pulse/def.h).
    private static func fromPortType(_ code: Int) -> PortType? {
        switch code {
        case 2: return .builtInSpeaker                // SPEAKER
        case 3: return .headphones                    // HEADPHONES
        case 6, 7, 17: return .headset                // HEADSET, HANDSET, HANDSFREE
        case 4, 9, 19: return .lineOut                // LINE, SPDIF, HIFI
        // ANALOG (22) is what USB cards' generic port reports: it says nothing about the
        // device, so the form factor and bus decide.
        case 10, 11: return .hdmi                     // HDMI, TV
        case 14: return .usbAudio                     // USB
        case 15: return .bluetoothA2DP                // BLUETOOTH
        case 18: return .carAudio                     // CAR
        default: return nil
        }
    }

    private static func fromPortName(_ name: String?) -> PortType? {
        guard let name = name?.lowercased() else { return nil }
        if name.contains("headphone") { return .headphones }
        if name.contains("headset") { return .headset }
        if name.contains("hdmi") || name.contains("displayport") { return .hdmi }
        if name.contains("speaker") { return .builtInSpeaker }
        if name.contains("lineout") || name.contains("line-out") || name.contains("iec958") || name.contains("spdif") {
            return .lineOut
        }
        return nil
    }

    private static func fromFormFactor(_ formFactor: String?) -> PortType? {
        switch formFactor {
        case "headphone": return .headphones
        case "headset", "hands-free", "handset": return .headset
        case "car": return .carAudio
        case "internal", "speaker", "portable": return .builtInSpeaker
        case "tv": return .hdmi
        case "hifi": return .lineOut
        default: return nil
        }
    }
}
