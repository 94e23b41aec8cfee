/// Whether music is coming out, as MPRIS names it (the raw values are the wire strings).
public enum PlaybackStatus: String, Sendable, CaseIterable {
    case playing = "Playing"
    case paused = "Paused"
    case stopped = "Stopped"
}

/// What happens at the end of a track, as MPRIS names it (the raw values are the wire strings).
public enum LoopStatus: String, Sendable, CaseIterable {
    /// Play through the queue once, then stop.
    case none = "None"
    /// Repeat the current track when it ends.
    case track = "Track"
    /// Start the queue again after its last track.
    case playlist = "Playlist"
}
