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
    /// How Aubade shares the speakers with other MPRIS players.
    public var category = SessionCategory.playback
    /// How long a person's pause must last before the players Aubade paused get Play back.
    public var handBackDelay: Microseconds = 5_000_000
    /// Switch a Bluetooth headset out of its call profile into A2DP when playing to it.
    public var preferA2DP = true
    /// Hold a logind "block" sleep inhibitor while playing.
    public var inhibitSleepWhilePlaying = true
    /// Which ReplayGain tags level the music (applied to the samples, never to the Volume).
    /// Off by default, as Sound Check on a phone: files play as mastered until asked.
    public var replayGain = ReplayGainMode.off
    /// dB added to every tagged gain (−15…15).
    public var replayGainPreamp: Double = 0

    public init() {}
}

/// iOS's audio-session categories, for sharing the speakers with other MPRIS players.
public enum SessionCategory: String, Sendable, CaseIterable {
    /// Starting to play pauses the other players (and hands them back afterwards); another
    /// player starting pauses Aubade until it stops.
    case playback
    /// Play alongside the others: nobody is paused.
    case mixWithOthers
}
