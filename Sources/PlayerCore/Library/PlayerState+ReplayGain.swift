extension PlayerState {
    /// The gain the output applies to `entry`'s samples, from its tags, the `replaygain` mode,
    /// the preamp and the queue around it. Decided when the entry is handed to the output; a
    /// change of the mode applies from the next track on.
    public func replayGainDecision(for entry: QueueEntry) -> ReplayGainDecision {
        guard !entry.track.isStream else { return .unity }
        return ReplayGainDecision.decide(entry.track.replayGain, mode: policy.replayGain,
                                         albumInOrder: playsAlbumInOrder(entry), preamp: policy.replayGainPreamp)
    }

    /// For `auto`: the queue plays `entry`'s album in order — not shuffled, and the entry
    /// next to it in the queue (before or after) is of the same album. A lone track of an album
    /// among others (a mixed playlist) gets its track gain.
    func playsAlbumInOrder(_ entry: QueueEntry) -> Bool {
        guard !shuffle, let album = entry.track.album else { return false }
        let artists = entry.track.albumArtists
        func sameAlbum(_ other: QueueEntry?) -> Bool {
            guard let other else { return false }
            return other.track.album == album && other.track.albumArtists == artists
        }
        let neighbours = [queue.entry(before: entry.id, wrapping: false), queue.entry(after: entry.id, wrapping: false)]
        return neighbours.contains { sameAlbum($0.flatMap(queue.entry)) }
    }
}
