/// One place in the play queue: a track and the id that names this occurrence of it.
public struct QueueEntry: Sendable, Equatable, Identifiable {
    public let id: EntryID
    public var track: Track
    /// For a stream while it is current: its connection, station name and the title on air.
    /// Not saved: a station's title belongs to the moment.
    public var live: LiveFacts?

    public init(id: EntryID, track: Track) {
        self.id = id
        self.track = track
    }
}
