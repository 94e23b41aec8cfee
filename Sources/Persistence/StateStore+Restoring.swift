import PlayerCore

extension StateStore {
    /// Lets a newer `position.json` win when it is about the same queue: its index is in
    /// range, the track there has the path it names, and the position can be a place in that
    /// track. Otherwise it belongs to an older or newer queue than `state.json` (or is
    /// nonsense) and the state's own position stands.
    static func apply(_ stored: StoredPosition, to memento: inout PlayerMemento) {
        guard let index = stored.currentIndex, memento.tracks.indices.contains(index),
              memento.tracks[index].path == stored.track,
              StoredState.position(stored.position, in: memento.tracks[index]) == stored.position else { return }
        memento.currentIndex = index
        memento.position = stored.position
    }

    /// Removes the tracks whose files are gone and remaps `currentIndex` and `playOrder` to
    /// the remaining ones. A vanished current track gives way to the next remaining track in
    /// play order (wrapping to the first), at position 0. Returns the removed paths.
    static func dropVanished(from memento: inout PlayerMemento, exists: (FilePath) -> Bool) -> [FilePath] {
        var newIndex = [Int?](repeating: nil, count: memento.tracks.count)
        var kept: [Track] = []
        var dropped: [FilePath] = []
        for (index, track) in memento.tracks.enumerated() {
            // A station is never "gone": it may only be off the air for now.
            guard let path = track.path, !exists(path) else {
                newIndex[index] = kept.count
                kept.append(track)
                continue
            }
            dropped.append(path)
        }
        guard !dropped.isEmpty else { return [] }

        let order = memento.playOrder.isEmpty ? Array(memento.tracks.indices) : memento.playOrder
        if let current = memento.currentIndex, newIndex[current] == nil {
            let start = order.firstIndex(of: current) ?? 0
            let following = order[start...].dropFirst() + order[..<start]
            memento.currentIndex = following.lazy.compactMap { newIndex[$0] }.first
            memento.position = 0
        } else {
            memento.currentIndex = memento.currentIndex.flatMap { newIndex[$0] }
        }
        memento.playOrder = memento.playOrder.compactMap { newIndex[$0] }
        memento.tracks = kept
        return dropped
    }
}
