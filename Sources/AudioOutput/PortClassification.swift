public import PlayerCore

extension PortType {
    /// Classifies a sink from what the server says of it. The most specific fact wins:
    /// the Bluetooth profile, then the active port's type (PulseAudio ≥ 14), its name, the
    /// sink's form factor, and last its bus.
    public init(reading sink: SinkReading) {
        if let type = Self.bluetooth(sink) ?? Self.fromPortType(sink.activePort?.typeCode ?? 0)
            ?? Self.fromPortName(sink.activePort?.name) ?? Self.fromFormFactor(sink.formFactor) {
            self = type
        } else if sink.bus == "usb" {
            self = .usbAudio
        } else {
            self = .unknown
        }
    }

    private static func bluetooth(_ sink: SinkReading) -> PortType? {
        guard sink.isBluetooth else { return nil }
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
