/// The queue's upper bound: tracks come from outside (AddTrack of `/`, a playlist that lists
/// a million lines, a state file), and memory must not follow them without bound.
extension PlayerState {
    /// Far above any real library queued at once (tens of thousands of files), far below what
    /// would strain memory (~1.3 kB per entry: about 130 MB at the limit).
    public static let queueCapacity = 100_000

    /// The part of `tracks` that fits in the queue, and the warning when some do not.
    func admit(_ tracks: [Track], replacing: Bool = false) -> (tracks: [Track], effects: [Effect]) {
        let room = Self.queueCapacity - (replacing ? 0 : queue.count)
        guard tracks.count > room else { return (tracks, []) }
        let kept = max(room, 0)
        let message = "the queue holds at most \(Self.queueCapacity) tracks: \(tracks.count - kept) of \(tracks.count) not queued"
        return (Array(tracks.prefix(kept)), [.log(.warning, message)])
    }

    /// A saved state with more tracks than the queue holds keeps the first ones (and the play
    /// order among them).
    func admit(_ memento: PlayerMemento) -> (memento: PlayerMemento, effects: [Effect]) {
        guard memento.tracks.count > Self.queueCapacity else { return (memento, []) }
        var kept = memento
        kept.tracks = Array(memento.tracks.prefix(Self.queueCapacity))
        kept.playOrder = memento.playOrder.filter { $0 < Self.queueCapacity }
        if let index = memento.currentIndex, index >= Self.queueCapacity {
            kept.currentIndex = nil
            kept.position = 0
        }
        let message = "the saved queue has \(memento.tracks.count) tracks; the first \(Self.queueCapacity) are kept"
        return (kept, [.log(.warning, message)])
    }
}
