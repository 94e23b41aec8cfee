/// The switches of the audio-session policy (configuration file, flags, D-Bus properties).
public struct AudioSessionPolicy: Sendable, Equatable {
    /// Pause when the private listening device we play to goes away.
    public var pauseOnRouteLoss = true
    /// Pause while a call plays, and resume afterwards unless someone intervened.
    public var pauseOnInterruption = true
    /// Resume when the device that was lost comes back within `reconnectWindow`. Off by
    /// default: music that starts by itself when a headset reconnects surprises people.
    public var resumeOnReconnect = false
    public var reconnectWindow: Microseconds = 30_000_000

    public init() {}
}
