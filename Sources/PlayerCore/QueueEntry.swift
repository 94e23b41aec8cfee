/// One place in the play queue: a track and the id that names this occurrence of it.
public struct QueueEntry: Sendable, Equatable, Identifiable {
    public let id: EntryID
    public var track: Track

    public init(id: EntryID, track: Track) {
        self.id = id
        self.track = track
    }
}
