public import PlayerCore

/// What the sound-server connection reports about the server itself, on its own thread: the
/// observer's side of AudioOutput (routes, calls, other players' streams), apart from playback.
public enum SoundServerEvent: Sendable, Equatable {
    /// The context is ready (first connect and every reconnect).
    case connected
    /// The connection broke (or a first connect failed); retrying every second. Reported once
    /// per outage.
    case lost(String)
    /// What the server says about its devices and streams changed (or was read for the first
    /// time on this connection): sinks, ports, default sink, the sink our stream plays on,
    /// phone streams, the other programs' streams. Reported after each burst of server events,
    /// only when different from the last report. When our sink goes away, PulseAudio moves our
    /// stream first and the first report already names the new sink; PipeWire removes the sink
    /// first, so one report may still name our old sink while `sinks` no longer lists it,
    /// followed within ~1 ms by the move.
    case changed(SoundServerFacts)
}
