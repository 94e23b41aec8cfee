/// What kind of output a route plays to, named as iOS names its port types. The sound-server
/// adapter classifies its devices into these (AudioOutput's `PortClassification`).
public enum PortType: String, Sendable, CaseIterable {
    case builtInSpeaker, headphones, headset, bluetoothA2DP, bluetoothHFP, usbAudio, hdmi, lineOut, carAudio, unknown
    /// Sent over the network to other rooms (a Snapcast server and its clients), as iOS's
    /// AirPlay port: no device of this machine, so none of its unplugs concern it.
    case networkStream

    /// A device only the listener hears. Losing one while playing pauses, so the music does
    /// not suddenly come out of the loudspeaker.
    public var isPrivateListening: Bool {
        switch self {
        case .headphones, .headset, .bluetoothA2DP, .bluetoothHFP, .usbAudio, .carAudio: return true
        case .builtInSpeaker, .hdmi, .lineOut, .unknown, .networkStream: return false
        }
    }
}
