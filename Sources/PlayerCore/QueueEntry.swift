/// One place in the play queue: a track and the id that names this occurrence of it.
public struct QueueEntry: Sendable, Equatable, Identifiable {
    public let id: EntryID
    public var track: Track
    /// For a stream while it is current: its connection, station name and the title on air.
    /// Not saved: a station's title belongs to the moment.
    public var live: LiveFacts?
    /// MPD's priority (0–255): with shuffle on, higher ones play first. Back to 0 once it plays.
    public var priority: UInt8 = 0

    public init(id: EntryID, track: Track) {
        self.id = id
        self.track = track
    }
}
