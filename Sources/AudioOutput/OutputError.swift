/// Why `SoundServerConnection.connect()` (and `PulseAudioOutput.connect()`) failed.
public enum OutputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No server answered (not running, wrong `PULSE_SERVER`, refused us). Retry later.
    case serverUnreachable(String)
    /// libpulse could not set up its mainloop (out of memory or file descriptors).
    case unavailable(String)

    public var description: String {
        switch self {
        case .serverUnreachable(let message): "sound server unreachable: \(message)"
        case .unavailable(let message): "PulseAudio client unavailable: \(message)"
        }
    }
}
