public import PlayerCore

/// What an `AudioSink` reports to the app, on the sink's own thread.
public enum OutputEvent: Sendable, Equatable {
    /// The first sample of this entry is audible now (within a few ms). For a gapless switch:
    /// when playback crosses the boundary, not when decoding does.
    case started(EntryID)
    /// A station's new title: the first sample of the song it names is audible now.
    case markHeard(EntryID, LiveTitle)
    /// The source of this entry is exhausted: answer with `enqueue(...)` or `endOfQueue()`.
    case needsNext(after: EntryID)
    /// After `endOfQueue()`: everything written has been played (drained).
    case finished(EntryID)
    /// The source threw; the output moved on as if it had ended (so `needsNext` follows).
    case failed(EntryID, String)
    /// Nothing of this entry can be played (it did not open, holds no audio, or its format is
    /// one the server refuses). Nothing was written for it; the app decides what follows
    /// (after a gapless follow-up, the output waits as after `needsNext`).
    case unplayable(EntryID, String)
    /// The server dropped our stream while the connection stayed (killed from a mixer, or
    /// failed on its own); what it held is gone. The app plays again from where it was.
    case streamLost(String)
    /// Someone else (pavucontrol, pactl) changed our stream volume; 1.0 = 100 %.
    case volumeChanged(Double)
    /// Where the sink plays went away (the sound server, the snapserver), or a lazy connect
    /// failed; retrying. Reported once per outage.
    case serverLost(String)
    /// The sink can play again (first connect and every reconnect). What it held before a loss
    /// is gone: the app plays again from where it was.
    case serverConnected
    /// The server asks us to cork (e.g. `module-role-cork`: a phone stream started; it has
    /// usually muted us already). Nothing is corked by the output itself.
    case corkRequested
    /// The reason for a cork request is gone. Sent only if we really corked (`pause()`).
    case uncorkRequested
}
