import PulseKit
import PlayerCore

// Threads of the audio output
// ---------------------------
// 1. The PulseAudio thread: one `pa_threaded_mainloop` per daemon. It runs every libpulse
//    callback (context and stream state, write requests, subscription events, operation
//    replies, our timers) with the mainloop lock held. It only copies decoded PCM out of each
//    track's `DecodeAhead` buffer into libpulse's; it never reads a file. `events` is called
//    only here.
// 2. Any caller thread (the app's serial queue): the public methods of `PulseAudioOutput` take
//    the mainloop lock, change `OutputEngine`'s state, issue libpulse requests and, when PCM
//    has to be written, `kick()` the loop thread (a zero-delay timer) instead of decoding on
//    the caller's thread. An events handler may call back in: on the loop thread the lock is
//    already held, and `withLock` does not take it again (libpulse would abort).
// 3. One decoder queue per track (`DecodeAhead`): opens, seeks and decodes the file into a
//    bounded buffer (~2 s) ahead of the stream (another ~2 s in the server); takes only its
//    own buffer's lock, and the mainloop lock (never while holding its own) to wake this
//    engine when a starved read can go on. A slow disk delays that track's audio only.

/// The state machine behind `PulseAudioOutput`. Every member is used with the mainloop lock
/// held; that lock is the only synchronisation, hence `@unchecked Sendable`.
final class OutputEngine: @unchecked Sendable {
    let mainloop: ThreadedMainloop
    let identity: StreamIdentity
    let events: @Sendable (OutputEvent, PlaySerial) -> Void
    /// Bumped by every `play`, `restart` and `stop` of the app, and sent along with every event,
    /// so that the app can tell the events of what it has since replaced.
    var playSerial = PlaySerial(0)

    /// One track being decoded ahead and written, and for which queue entry.
    struct Feed {
        var source: DecodeAhead
        var entry: EntryID
        var title: String?
        var artist: String?
        /// The entry written just before this one (gapless), if any: what the output waits
        /// after when this one turns out unplayable.
        var predecessor: EntryID?
    }

    /// An entry whose first byte is written at `offset` (bytes since the last flush) but not
    /// yet announced as audible.
    struct PendingStart {
        var entry: EntryID
        var offset: Int64
        var title: String?
        var artist: String?
    }

    /// A mark of the current source (a station's new title) written at `offset` (bytes since
    /// the last flush), announced when that byte is heard.
    struct PendingMark {
        var entry: EntryID
        var offset: Int64
        var title: LiveTitle
    }

    // Connection: the shared one (`SoundServerLink`); this engine is its playback client.
    let link: SoundServerLink
    var context: Context? { link.context }
    var isReady: Bool { link.isReady }
    /// A `play` that arrived before the context was ready.
    var pendingPlay: (feed: Feed, playing: Bool)?
    /// A `play` whose track is still being opened (its format decides the stream): carried on
    /// when it is open. The stream was flushed meanwhile, so the old track stops at once.
    var awaitingFormat: Feed?
    /// The awaited feed came from `restart` (a seek within the entry), not `play`.
    var awaitingIsRestart = false

    // The one stream
    var stream: Stream?
    /// Streams let go of while the server was still creating them: libpulse cannot disconnect
    /// a stream before the server's reply (`pa_stream_disconnect` fails with BADSTATE then),
    /// and one merely unreferenced lives on in the context, a silent sink input until we exit.
    /// Each is disconnected as soon as it is ready, and forgotten once it has ended.
    var unbornStreams: [ObjectIdentifier: Stream] = [:]
    var streamFormat: PCMFormat?
    /// Desired cork state (pause/resume), also applied to a stream created later.
    var corked = false
    /// Bumped by every flush or teardown so that late replies (drain, flush) are ignored.
    var generation = 0

    // Writing
    var current: Feed?
    /// Enqueued before the current source ran out (allowed, though the app waits for needsNext).
    var next: Feed?
    /// The current source ran out and `needsNext` was sent for this entry.
    var waitingAfter: EntryID?
    /// `needsNext` was sent early for this entry: its decoder had reached the end while its
    /// audio still waited in the decode buffer (more time to open the next file gaplessly).
    var askedNext: EntryID?
    /// `endOfQueue()` arrived before the current source ran out.
    var endRequested = false
    /// The next track's format differs from the stream's (44.1 → 48 kHz, mono → stereo): the
    /// stream plays out to its last sample, then a stream of the new format starts with that
    /// track's first sample, and what was enqueued after it (`following`) follows it there.
    var formatBoundary: (feed: Feed, following: Feed?)?
    var draining = false
    /// Bytes written since the stream was created or last flushed.
    var bytesSinceFlush: Int64 = 0
    /// The stream's absolute write index at `bytesSinceFlush == 0`; nil until known.
    var indexBase: Int64?
    var pendingStarts: [PendingStart] = []
    var pendingMarks: [PendingMark] = []
    /// Draining after `endOfQueue()`: `.finished` comes when the stream time passes `offset`,
    /// or at `deadline`, set once the server's queue ran empty (underflow or drain reply) to
    /// that moment plus the sink's latency. Both are needed: after an underflow libpulse stops
    /// interpolating the time, and the drain reply can come a second or more late.
    var pendingFinish: (entry: EntryID, offset: Int64, deadline: ContinuousClock.Instant?)?
    var lastStarted: EntryID?
    var workTimer: MainloopTimer?
    var startTimer: MainloopTimer?

    // Volume
    /// The volume set on the server by us or last seen there; differences are external changes.
    var knownVolume: Volume?
    /// Set by the app before a stream existed: given to the next stream at connect time.
    var requestedVolume: Volume?
    /// The output is switched off (MPD's disableoutput): every stream starts muted, and the
    /// one playing is muted at once.
    var muted = false
    /// Bumped by every volume we set: a reading asked for before our last change may still
    /// report the old level, which is not someone else's change.
    var volumeChanges = 0
    /// When we last set the volume: PipeWire applies it a moment later, and readings in
    /// between still show the old level.
    var ownVolumeChangeAt: ContinuousClock.Instant?
    /// Reads the volume again once that moment has passed (an outside change meanwhile is
    /// reported then).
    var volumeCheckTimer: MainloopTimer?

    /// The server's devices and streams (the link's observer): told to read again when our
    /// stream appears, moves or goes.
    var observer: SoundServerObserver? { link.observer }

    var isShutDown = false

    init(link: SoundServerLink, identity: StreamIdentity,
         events: @escaping @Sendable (OutputEvent, PlaySerial) -> Void) {
        self.link = link
        self.mainloop = link.mainloop
        self.identity = identity
        self.events = events
    }

    /// Creates the timers; called once with the lock held.
    func setUpTimers() throws(PulseError) {
        workTimer = try MainloopTimer(mainloop: mainloop) { [weak self] in self?.doWork() }
        startTimer = try MainloopTimer(mainloop: mainloop) { [weak self] in self?.checkStarts() }
        volumeCheckTimer = try MainloopTimer(mainloop: mainloop) { [weak self] in
            guard let self, let index = self.stream?.index else { return }
            self.refreshVolume(index: index, report: true)
        }
    }

    func emit(_ event: OutputEvent) { events(event, playSerial) }

    /// Has the loop thread write PCM and check boundaries soon: decoding never runs on a
    /// caller's thread.
    func kick() { workTimer?.schedule(after: 0) }

    private func doWork() {
        resumeAwaitingStart()
        fillBuffer()
        askForNextEarly()
        checkStarts()
    }

    /// Releases the stream and stops playing; the connection is its owner's to shut down.
    func shutDown() {
        guard !isShutDown else { return }
        isShutDown = true
        releaseStream()
        pendingPlay = nil
        awaitingFormat = nil
        workTimer = nil
        startTimer = nil
        volumeCheckTimer = nil
        if link.playback === self { link.playback = nil }
    }
}
