/// The play queue: entries in the user's order, plus the order in which they play.
///
/// Shuffle never moves entries (the queue the user sees keeps its order); it only changes
/// `playOrder`, a permutation of the entries' ids. Every entry appears in `playOrder` exactly
/// once, so a shuffled pass plays each track once.
///
/// Lookups by id are dictionary lookups (a queue may hold 10,000 tracks and Next, Get or
/// GetTracksMetadata must stay well under a millisecond); the indexes are rebuilt on edits,
/// which are rare next to lookups.
public struct PlayQueue: Sendable, Equatable {
    public private(set) var entries: [QueueEntry] = [] {
        didSet {
            entryIndex = Self.positions(of: entries.lazy.map(\.id))
            revision &+= 1
        }
    }
    /// The ids of `entries` in the order they play.
    public private(set) var playOrder: [EntryID] = [] {
        didSet {
            orderIndex = Self.positions(of: playOrder)
            revision &+= 1
        }
    }
    private var entryIndex: [EntryID: Int] = [:]
    private var orderIndex: [EntryID: Int] = [:]
    private var lastRawID: UInt64 = 0
    /// Changes whenever the queue or its play order does: a cheap "did anything change?".
    public private(set) var revision: UInt64 = 0

    public init() {}

    public var isEmpty: Bool { entries.isEmpty }
    public var count: Int { entries.count }

    public func entry(_ id: EntryID) -> QueueEntry? {
        entryIndex[id].map { entries[$0] }
    }

    public func contains(_ id: EntryID) -> Bool { entryIndex[id] != nil }

    func entryIndex(of id: EntryID) -> Int? { entryIndex[id] }

    /// Replaces the entries and the play order in one step (one rebuild of each index).
    mutating func setEntries(_ new: [QueueEntry], order: [EntryID]) {
        entries = new
        playOrder = order
    }

    private static func positions<S: Sequence>(of ids: S) -> [EntryID: Int] where S.Element == EntryID {
        var positions: [EntryID: Int] = [:]
        positions.reserveCapacity(ids.underestimatedCount)
        for (position, id) in ids.enumerated() { positions[id] = position }
        return positions
    }

    /// Inserts tracks after `anchor` (in queue and play order), or at the end when `anchor` is nil.
    /// Returns the new entries' ids, in the order given.
    @discardableResult
    mutating func insert(_ tracks: [Track], after anchor: EntryID?) -> [EntryID] {
        guard !tracks.isEmpty else { return [] }
        let newEntries = tracks.map { track -> QueueEntry in
            lastRawID += 1
            return QueueEntry(id: EntryID(lastRawID), track: track)
        }
        let ids = newEntries.map(\.id)
        if let anchor, let index = entryIndex[anchor], let orderPosition = orderIndex[anchor] {
            entries.insert(contentsOf: newEntries, at: index + 1)
            playOrder.insert(contentsOf: ids, at: orderPosition + 1)
        } else {
            entries.append(contentsOf: newEntries)
            playOrder.append(contentsOf: ids)
        }
        return ids
    }

    /// Inserts tracks at random places after `anchor` in play order (shuffle is on), at the
    /// end of the queue the user sees.
    @discardableResult
    mutating func insertShuffled(_ tracks: [Track], after anchor: EntryID?,
                                 using random: inout RandomSource) -> [EntryID] {
        let ids = insert(tracks, after: nil)
        playOrder.removeLast(ids.count)
        let start = anchor.flatMap { orderIndex[$0] }.map { $0 + 1 } ?? 0
        var order = playOrder  // one rebuild of the index, not one per track
        for id in ids {
            let slot = Int.random(in: start...order.count, using: &random)
            order.insert(id, at: slot)
        }
        playOrder = order
        return ids
    }

    /// Inserts tracks before every other entry (MPRIS AddTrack with AfterTrack = NoTrack).
    @discardableResult
    mutating func insertAtStart(_ tracks: [Track]) -> [EntryID] {
        let ids = insert(tracks, after: nil)
        let added = entries.suffix(ids.count)
        entries.removeLast(ids.count)
        entries.insert(contentsOf: added, at: 0)
        playOrder.removeLast(ids.count)
        playOrder.insert(contentsOf: ids, at: 0)
        return ids
    }

    /// Replaces everything with `tracks` in the given play order (indices into `tracks`).
    @discardableResult
    mutating func replace(with tracks: [Track], playOrder order: [Int]? = nil) -> [EntryID] {
        entries.removeAll()
        playOrder.removeAll()
        let ids = insert(tracks, after: nil)
        if let order, order.count == ids.count, Set(order) == Set(ids.indices) {
            playOrder = order.map { ids[$0] }
        }
        return ids
    }

    /// The entry before `id` in the queue the user sees (nil when first).
    public func predecessor(of id: EntryID) -> EntryID? {
        guard let index = entryIndex[id], index > 0 else { return nil }
        return entries[index - 1].id
    }

    /// Changes an entry's own facts (its priority), never its id.
    mutating func updateEntry(_ id: EntryID, _ change: (inout QueueEntry) -> Void) {
        guard let index = entryIndex[id] else { return }
        change(&entries[index])
    }

    mutating func update(_ id: EntryID, _ change: (inout Track) -> Void) {
        guard let index = entryIndex[id] else { return }
        change(&entries[index].track)
    }

    /// Changes what is known of a stream entry while it plays (never its track).
    mutating func updateLive(_ id: EntryID, _ change: (inout LiveFacts?) -> Void) {
        guard let index = entryIndex[id] else { return }
        change(&entries[index].live)
    }

    mutating func remove(_ id: EntryID) {
        entries.removeAll { $0.id == id }
        playOrder.removeAll { $0 == id }
    }

    /// The entry that plays after `id`, wrapping to the first when `wrapping`.
    public func entry(after id: EntryID, wrapping: Bool) -> EntryID? {
        guard let index = orderIndex[id] else { return playOrder.first }
        if index + 1 < playOrder.count { return playOrder[index + 1] }
        return wrapping ? playOrder.first : nil
    }

    /// The entry that plays before `id`, wrapping to the last when `wrapping`.
    public func entry(before id: EntryID, wrapping: Bool) -> EntryID? {
        guard let index = orderIndex[id] else { return playOrder.first }
        if index > 0 { return playOrder[index - 1] }
        return wrapping ? playOrder.last : nil
    }

    public var firstInPlayOrder: EntryID? { playOrder.first }

    /// Shuffles the play order; `first` (the entry playing now and any already on their way
    /// to the output) are kept at the front, so turning shuffle on mid-track plays every other
    /// track exactly once afterwards.
    mutating func shuffle(keepingFirst first: [EntryID], using random: inout RandomSource) {
        var kept: [EntryID] = []
        for id in first where !kept.contains(id) && contains(id) { kept.append(id) }
        var rest = entries.map(\.id).filter { !kept.contains($0) }
        rest.shuffle(using: &random)
        playOrder = kept + rest
    }

    /// Returns the play order to the queue's own order.
    mutating func unshuffle() {
        playOrder = entries.map(\.id)
    }
}
