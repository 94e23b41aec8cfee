/// Everything about the player that clients are told about when it changes.
///
/// The MPRIS adapter takes one before and one after each event and announces the difference
/// in a single PropertiesChanged, so no change can be forgotten or sent twice.
public struct PlayerSnapshot: Sendable, Equatable {
    public var status: PlaybackStatus
    public var loopStatus: LoopStatus
    public var shuffle: Bool
    public var volume: Double
    /// The entry now playing (or paused, or selected while stopped); nil when the queue is empty.
    public var current: QueueEntry?
    public var canGoNext: Bool
    public var canGoPrevious: Bool
    public var canPlay: Bool
    public var canPause: Bool
    public var canSeek: Bool
    /// Where our audio goes; nil until the sound server has been heard from.
    public var route: AudioRoute? = nil
    public var pauseReason = PauseReason.none
    public var policy = AudioSessionPolicy()
    /// What the output does to the current track's samples (ReplayGain; unity when off).
    public var replayGain = ReplayGainDecision.unity
    /// Changes whenever the queue's entries or their play order do (`PlayQueue.revision`).
    public var queueRevision: UInt64 = 0
    /// MPD's single and consume (repeat is `loopStatus != .none`).
    public var single = SingleMode.off
    public var consume = false
    public var outputEnabled = true

    public init(status: PlaybackStatus, loopStatus: LoopStatus, shuffle: Bool, volume: Double,
                current: QueueEntry?, canGoNext: Bool, canGoPrevious: Bool, canPlay: Bool,
                canPause: Bool, canSeek: Bool, route: AudioRoute? = nil, pauseReason: PauseReason = .none,
                policy: AudioSessionPolicy = AudioSessionPolicy()) {
        self.status = status
        self.loopStatus = loopStatus
        self.shuffle = shuffle
        self.volume = volume
        self.current = current
        self.canGoNext = canGoNext
        self.canGoPrevious = canGoPrevious
        self.canPlay = canPlay
        self.canPause = canPause
        self.canSeek = canSeek
        self.route = route
        self.pauseReason = pauseReason
        self.policy = policy
    }
}
