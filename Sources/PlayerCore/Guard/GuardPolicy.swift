/// The guard's switches: the audio-session settings, applied to the other players.
public struct GuardPolicy: Sendable, Equatable {
    /// guard-other-players: off, the guard follows everything and sends nothing.
    public var isOn = true
    public var pauseOnRouteLoss = true
    public var pauseOnInterruption = true
    public var resumeOnReconnect = false
    public var reconnectWindow: Microseconds = 30_000_000
    public var pauseBeforeSleep = true
    /// How long after a Pause the player must have stopped playing (else `ignoredPause`).
    public var pauseCheckDelay: Microseconds = 2_000_000

    public init() {}

    /// The guard's share of the audio-session policy.
    public init(_ policy: AudioSessionPolicy, pauseBeforeSleep: Bool, isOn: Bool = true) {
        self.isOn = isOn
        pauseOnRouteLoss = policy.pauseOnRouteLoss
        pauseOnInterruption = policy.pauseOnInterruption
        resumeOnReconnect = policy.resumeOnReconnect
        reconnectWindow = policy.reconnectWindow
        self.pauseBeforeSleep = pauseBeforeSleep
    }
}

/// What the guard is told: the sound server's facts, the other players, sleep, its timers.
public enum GuardEvent: Sendable, Equatable {
    case soundServerChanged(SoundServerFacts)
    /// The server went away: its last facts say nothing any more (no unplug is read from the
    /// outage; the first facts after it are a fresh start).
    case soundServerLost
    case playerChanged(OtherPlayer)
    case playerGone(String)
    case sleepImminent
    /// The check that a Pause sent to `player` took effect is due.
    case pauseCheckDue(String)
    case setPolicy(GuardPolicy)
}

/// What the guard asks the app to do.
public enum GuardEffect: Sendable, Equatable {
    case command(String, OtherPlayerCommand)
    case decision(GuardDecision)
    /// Send `.pauseCheckDue(player)` after this long.
    case schedulePauseCheck(String, after: Microseconds)
}
