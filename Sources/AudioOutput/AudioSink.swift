public import PlayerCore

/// Where the daemon's music goes: the one seam its output path targets. Behind it, the
/// PulseAudio output (`PulseAudioOutput`, a stream on the local sound server) and the Snapcast
/// output (`SnapcastOutput`, PCM into a snapserver's pipe for the rooms of a house).
///
/// What every sink promises (the suites hold both to it): a `play` flushes what was queued and
/// starts the source from its read position; `enqueue` joins the next source gaplessly, in its
/// own format (a sink converts or restarts at the boundary without losing a sample); `.started`
/// comes when the first sample of an entry is heard (for a remote sink: in the rooms, its
/// buffer counted), `.markHeard` likewise; `.needsNext`, `.finished`, `.unplayable` and
/// `.failed` as `OutputEvent` describes. `pause` holds the position (what is heard stops and
/// `resume` goes on from there); `serverLost` … `serverConnected` bracket an outage of wherever
/// the sink plays, after which the app plays again from where it was.
///
/// Methods may be called from any thread and never wait on I/O; events arrive on the sink's
/// own thread, each with the `PlaySerial` of the command it follows.
public protocol AudioSink: AnyObject, Sendable {
    /// Starts connecting in the background: no waiting; an outage is reported once
    /// (`serverLost`) and retried until `serverConnected`.
    func connectInBackground()

    /// Flushes whatever is queued and plays `source` for `entry` from its current read
    /// position; `playing: false` = prepared but paused. Returns the run's serial.
    @discardableResult
    func play(_ source: DecodeAhead, entry: EntryID, title: String, artist: String?, playing: Bool) -> PlaySerial?

    /// Gapless follow-up after `needsNext`: continues right after the previous source.
    func enqueue(_ source: DecodeAhead, entry: EntryID, title: String, artist: String?)

    /// No more entries: play out what is buffered, then report `.finished`.
    func endOfQueue()

    /// Nothing more is heard; the position holds.
    func pause()

    func resume()

    /// Releases the stream; returns the serial after which older events are stale.
    @discardableResult
    func stop() -> PlaySerial?

    /// The user's volume, 1.0 = 100 %.
    func setVolume(_ volume: Double)

    /// Switched off (muted: nothing heard, playback goes on) or on again.
    func setMuted(_ muted: Bool)

    /// Stops everything; idempotent; not from inside the events handler.
    func shutdown()
}
