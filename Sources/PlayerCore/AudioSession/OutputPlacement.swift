/// Where the daemon's audio output plays, as far as the audio-session policy cares.
///
/// The local sound server's devices come and go (headphones, Bluetooth) and their loss pauses;
/// a Snapcast server's rooms are none of this machine's devices, so its unplugs never touch
/// them, and what the rooms hear lags what was written by the server's buffer.
public enum OutputPlacement: Sendable, Equatable {
    /// A device of the local sound server: the route is read from its facts.
    case soundServer
    /// Somewhere this machine's devices do not reach: the route is fixed, and audio written now
    /// is heard `latency` later (the Snapcast server's buffer and what waits in its pipe).
    case remote(route: AudioRoute, latency: Microseconds)

    /// The fixed route of a remote output; nil for the sound server (its facts tell).
    public var route: AudioRoute? {
        if case .remote(let route, _) = self { return route }
        return nil
    }

    /// How long after a start or resume the first sample is heard, as far as the core can tell
    /// in advance (the output still reports `outputStarted` when it is heard).
    public var latency: Microseconds {
        if case .remote(_, let latency) = self { return max(0, latency) }
        return 0
    }
}
