/// MPD's `single`: what happens when the current track ends.
///
/// With repeat on (LoopStatus Track) the track plays again; with repeat off, playback pauses at
/// the start of the next track, as mpd 0.23 does. `oneshot` does this once and turns itself off.
/// MPRIS sees only the LoopStatus: Track is repeat with single, Playlist repeat without it.
public enum SingleMode: String, Sendable, Equatable, CaseIterable {
    case off = "0"
    case on = "1"
    case oneshot
}
