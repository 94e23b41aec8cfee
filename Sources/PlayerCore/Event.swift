/// Something that happened, handed to `PlayerState.handle(_:at:)`.
///
/// Adapters only translate: an MPRIS method call, an output callback or a decode failure
/// becomes one of these, and PlayerCore decides what it means.
public enum Event: Sendable, Equatable {
    // Transport commands (MPRIS, media keys, the CLI).
    case play
    case pause
    case playPause
    case stop
    case next
    case previous
    /// Whether this event is a person's command, which overrides any automatic resume.
    public var isTransportCommand: Bool {
        switch self {
        case .play, .pause, .playPause, .stop, .next, .previous, .seek, .setPosition, .open, .goTo,
             .replaceQueue, .playEntry, .seekEntry: return true
        default: return false
        }
    }

    /// Relative seek (MPRIS Seek): clamps at 0; past the end acts like the track ending.
    case seek(by: Microseconds)
    /// Absolute seek (MPRIS SetPosition): ignored unless `entry` is current and 0 ≤ position ≤ length.
    case setPosition(EntryID, Microseconds)
    case setLoopStatus(LoopStatus)
    /// MPD's repeat, single and consume (repeat and single are the LoopStatus: `SingleMode`).
    case setRepeat(Bool)
    case setSingle(SingleMode)
    /// Each entry is removed from the queue once it has played.
    case setConsume(Bool)
    case setReplayGainMode(ReplayGainMode)
    /// MPD's `enableoutput`/`disableoutput`: a disabled output hears nothing (its stream is
    /// muted) while playback goes on, as an mpd output that is switched off.
    case setOutputEnabled(Bool)
    case setShuffle(Bool)
    case setVolume(Double)
    /// MPRIS Rate; only 1.0 is supported, and 0.0 acts like Pause (as the spec asks).
    case setRate(Double)

    // Queue changes.
    /// Appends tracks to the queue; when `play` and nothing is playing, starts the first.
    case enqueue([Track], play: Bool)
    /// MPRIS OpenUri: inserts the tracks after the current one and plays the first now.
    case open([Track])
    /// MPRIS TrackList.AddTrack: inserts the tracks at `place`; `makeCurrent` jumps to the first.
    case addTracks([Track], at: QueuePlace, makeCurrent: Bool)
    /// MPRIS TrackList.RemoveTrack: removing the current entry moves on to the next.
    case removeTrack(EntryID)
    /// MPRIS TrackList.GoTo: jumps to the entry, keeping the playback status.
    case goTo(EntryID)
    /// MPD `play`/`playid`: plays the entry from its start, whatever the status.
    case playEntry(EntryID)
    /// MPD `seek`/`seekid`: the entry at this position, playing unless paused.
    case seekEntry(EntryID, to: Microseconds)
    /// MPD `move`/`moveid`: these entries (consecutive in the queue) go to `position` of the
    /// queue they leave behind.
    case moveEntries([EntryID], toPosition: Int)
    /// MPD `swap`/`swapid`.
    case swapEntries(EntryID, EntryID)
    /// MPD `delete` of a range, `deleteid`: as RemoveTrack, for many at once.
    case removeEntries([EntryID])
    /// MPD `shuffle`: the entries at these positions of the queue in a random order (the
    /// current one, when among them, first).
    case shuffleQueue(Range<Int>?)
    /// MPD `prio`/`prioid`.
    case setPriority([EntryID], UInt8)
    /// A new queue (a playlist activated or loaded): stops, replaces, and plays when asked.
    case replaceQueue([Track], play: Bool)
    /// Puts back what was saved: same track, Paused at the saved position.
    case restore(PlayerMemento)
    /// The cover of an entry's file was found (looked up when the entry became current).
    case artworkFound(EntryID, url: String)
    /// The exact length of an entry whose length was an estimate (an MP3 without a Xing/Info
    /// frame), measured off the core queue once it started playing.
    case trackLengthMeasured(EntryID, Microseconds)
    case quit

    // What the audio output reports.
    /// The first sample of this entry is audible now.
    case outputStarted(EntryID)
    /// The output has written all of this entry and wants to know what follows (gapless).
    case outputNeedsNext(after: EntryID)
    /// The output has played everything it was given; the queue has ended.
    case outputFinished(EntryID)
    /// Decoding of this entry failed mid-way; the output goes on as if it had ended.
    case outputFailed(EntryID, reason: String)
    /// Someone else (a mixer) changed our stream's volume.
    case outputVolumeChanged(Double)
    /// The sound server came back after it was lost: the stream and what it held are gone.
    case outputReconnected
    /// The connection to the sound server broke, or none could be made: nothing is heard.
    case soundServerLost(reason: String)
    /// The server dropped our stream while the connection stayed (killed from a mixer, or
    /// failed on its own): what it held is gone.
    case outputStreamLost(reason: String)
    // The audio session: what the sound server reports.
    /// A new reading of the server's devices and streams (route changes, phone streams).
    case soundServerChanged(SoundServerFacts)
    /// The server asks us to cork (PulseAudio's role-cork: a call started).
    case corkRequested
    /// The server lets us uncork (the call ended).
    case uncorkRequested
    /// The system is about to sleep (logind PrepareForSleep).
    case sleepImminent
    case setPolicy(AudioSessionPolicy)
    /// Where the output plays, said once by the daemon at start (`output =` in aubade.conf).
    case setOutput(OutputPlacement)
    /// Another MPRIS player appeared or changed its status or track.
    case otherPlayerChanged(OtherPlayer)
    /// Another MPRIS player left the bus.
    case otherPlayerGone(String)
    /// The hand-back delay after a person's pause has passed.
    case handBackDue

    /// The file of this entry could not be opened for playing: it is dropped from the queue.
    case trackUnplayable(EntryID, reason: String)
    /// A stream entry's connection changed (connected, dropped and retrying…).
    case streamStatus(EntryID, StreamStatus)
    /// A station's new title has reached the speakers (not merely been downloaded).
    case liveTitleHeard(EntryID, LiveTitle)
}
