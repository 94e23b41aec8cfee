/// What survives a restart: the queue, where playback was, and the settings.
///
/// PlayerCore makes one from its state and restores from one; the Persistence adapter stores
/// it. Entry ids are not kept: a restored queue gets fresh ids (MPRIS track ids are only
/// promised stable for the life of the daemon).
public struct PlayerMemento: Sendable, Equatable {
    public var tracks: [Track]
    /// Index into `tracks` of the current entry.
    public var currentIndex: Int?
    public var position: Microseconds
    public var volume: Double
    public var loopStatus: LoopStatus
    public var shuffle: Bool
    /// The play order as indices into `tracks` (a permutation), kept so a shuffled pass goes on
    /// where it was.
    public var playOrder: [Int]

    public init(tracks: [Track], currentIndex: Int?, position: Microseconds, volume: Double,
                loopStatus: LoopStatus, shuffle: Bool, playOrder: [Int]) {
        self.tracks = tracks
        self.currentIndex = currentIndex
        self.position = position
        self.volume = volume
        self.loopStatus = loopStatus
        self.shuffle = shuffle
        self.playOrder = playOrder
    }
}
