import PulseKit
public import PlayerCore

/// The PulseAudio output: one `media.role=music` playback stream on the shared sound-server
/// connection, played gaplessly from `PCMSource`s, reporting what happens as `OutputEvent`s.
///
/// Every method may be called from any thread: each takes the PulseAudio mainloop lock.
/// `events` runs on the connection's thread (see the thread notes in OutputEngine.swift);
/// the app hops to its own queue there. Do not call `shutdown()` from inside `events`.
public final class PulseAudioOutput: AudioSink, @unchecked Sendable {
    // @unchecked Sendable: `engine` and all PulseAudio objects are used only with the
    // mainloop lock held; `connection` is thread-safe.
    /// The connection it plays on (and whose observer reports the server's facts).
    public let connection: SoundServerConnection
    private let engine: OutputEngine?
    /// Made by the convenience initialisers: shut down with the output.
    private let ownsConnection: Bool

    /// Plays on `connection` (connecting it lazily, on `connect()` or the first `play`). Each
    /// event carries its `PlaySerial`: the app compares it with what its last `play`/`restart`/
    /// `stop` returned to drop the events of replaced runs.
    public init(connection: SoundServerConnection, identity: StreamIdentity,
                serialEvents events: @escaping @Sendable (OutputEvent, PlaySerial) -> Void) {
        self.connection = connection
        self.ownsConnection = false
        self.engine = Self.attach(to: connection, identity: identity, events: events)
    }

    /// A connection of its own, whose facts nobody is told of (`connection.facts` reads them).
    public convenience init(identity: StreamIdentity, events: @escaping @Sendable (OutputEvent) -> Void) {
        self.init(identity: identity, serialEvents: { event, _ in events(event) })
    }

    public convenience init(identity: StreamIdentity, serialEvents events: @escaping @Sendable (OutputEvent, PlaySerial) -> Void) {
        self.init(ownConnection: SoundServerConnection(identity: identity) { _ in }, identity: identity, events: events)
    }

    /// A connection of its own whose facts go to `soundServerEvents` (shut down with the output).
    public convenience init(identity: StreamIdentity, soundServerEvents: @escaping @Sendable (SoundServerEvent) -> Void,
                            events: @escaping @Sendable (OutputEvent) -> Void) {
        self.init(ownConnection: SoundServerConnection(identity: identity, events: soundServerEvents), identity: identity,
                  events: { event, _ in events(event) })
    }

    private init(ownConnection connection: SoundServerConnection, identity: StreamIdentity,
                 events: @escaping @Sendable (OutputEvent, PlaySerial) -> Void) {
        self.connection = connection
        self.ownsConnection = true
        self.engine = Self.attach(to: connection, identity: identity, events: events)
    }

    private static func attach(to connection: SoundServerConnection, identity: StreamIdentity,
                               events: @escaping @Sendable (OutputEvent, PlaySerial) -> Void) -> OutputEngine? {
        connection.withLink { link -> OutputEngine? in
            let engine = OutputEngine(link: link, identity: identity, events: events)
            do throws(PulseError) {
                try engine.setUpTimers()
            } catch {
                return nil  // out of memory: a dead output, like a dead connection
            }
            link.playback = engine
            return engine
        } ?? nil
    }

    deinit { shutdown() }

    /// Connects and waits until the server answers (see `SoundServerConnection.connect()`).
    public func connect() throws(OutputError) {
        guard engine != nil else { throw .unavailable("no PulseAudio output") }
        try connection.connect()
    }

    /// Flushes whatever is queued and plays `source` for `entry` from its current read
    /// position; `playing: false` = prepared but corked. Creates the one playback stream if
    /// there is none; a new stream only if the format differs. A source still opening is
    /// waited for with the stream flushed (silent), without blocking the caller.
    @discardableResult
    public func play(_ source: DecodeAhead, entry: EntryID, title: String, artist: String?, playing: Bool) -> PlaySerial? {
        wakeEngine(when: source)
        let feed = OutputEngine.Feed(source: source, entry: entry, title: title, artist: artist)
        return withEngine { engine in
            engine.playSerial = engine.playSerial.next
            engine.start(feed, playing: playing)
            return engine.playSerial
        }
    }

    /// `play` of PCM that is already at hand (generated audio, tests).
    @discardableResult
    public func play(_ source: PCMSource, entry: EntryID, title: String, artist: String?, playing: Bool) -> PlaySerial? {
        play(DecodeAhead(source), entry: entry, title: title, artist: artist, playing: playing)
    }

    /// Gapless follow-up after `needsNext`: continues right after the previous source, no
    /// flush, no silence (when it has been decoded in time).
    public func enqueue(_ source: DecodeAhead, entry: EntryID, title: String, artist: String?) {
        wakeEngine(when: source)
        let feed = OutputEngine.Feed(source: source, entry: entry, title: title, artist: artist)
        withEngine { $0.enqueue(feed) }
    }

    public func enqueue(_ source: PCMSource, entry: EntryID, title: String, artist: String?) {
        enqueue(DecodeAhead(source), entry: entry, title: title, artist: artist)
    }

    /// The decoder wakes the engine (from its own queue, holding no lock of its own) when a
    /// read found nothing and audio, the format, the end or a failure has arrived.
    private func wakeEngine(when source: DecodeAhead) {
        source.setWakeUp { [weak self] in self?.withEngine { $0.kick() } }
    }

    /// No more entries: play out what is buffered, then report `.finished`.
    public func endOfQueue() { withEngine { $0.endOfQueue() } }

    /// Corks the stream: nothing more is written or played; the position holds.
    public func pause() { withEngine { $0.setCorked(true) } }

    /// Uncorks the stream.
    public func resume() { withEngine { $0.setCorked(false) } }

    /// Replaces the current source by an already-seeked one, flushing the stream's buffer so
    /// the jump is immediate.
    @discardableResult
    public func restart(_ source: PCMSource, entry: EntryID) -> PlaySerial? {
        let ahead = DecodeAhead(source)
        wakeEngine(when: ahead)
        return withEngine { engine in
            engine.playSerial = engine.playSerial.next
            engine.restart(ahead, entry: entry)
            return engine.playSerial
        }
    }

    /// Releases (disconnects) the stream; the server connection stays.
    @discardableResult
    public func stop() -> PlaySerial? {
        withEngine { engine in
            engine.playSerial = engine.playSerial.next
            engine.stop()
            return engine.playSerial
        }
    }

    /// Connects in the background: no waiting, and retries every second while there is no
    /// server (`serverLost` once, then `serverConnected`). For a start without a server.
    public func connectInBackground() { withEngine { $0.connectLazily() } }

    /// PulseAudio's own stream volume does the work: the samples stay as they are.
    public var appliesVolumeToSamples: Bool { false }

    /// Sets the stream's (sink input's) volume: `volume * PA_VOLUME_NORM`, clamped at 0.
    /// Applied to the next stream when none exists yet.
    public func setVolume(_ volume: Double) {
        withEngine { $0.setVolume(Volume(fractionOfNorm: volume)) }
    }

    /// Mutes the stream (the output switched off) while playback goes on; unmutes it.
    public func setMuted(_ muted: Bool) {
        withEngine { $0.setMuted(muted) }
    }

    /// The server's index of our sink input, nil without a ready stream.
    public var streamIndex: UInt32? { withEngine { $0.stream?.index } ?? nil }

    /// The name of the sink our stream plays on; nil without a ready stream.
    public var sinkName: String? { withEngine { $0.stream?.deviceName } ?? nil }

    /// The facts the connection last reported; nil while not connected.
    public var soundServerFacts: SoundServerFacts? { connection.facts }

    /// Whether the server connection is ready.
    public var isConnected: Bool { connection.isConnected }

    /// See `SoundServerConnection.switchCardProfile`.
    public func switchCardProfile(card: String, profile: String) {
        connection.switchCardProfile(card: card, profile: profile)
    }

    /// Releases the stream; a connection of its own is shut down too (the PulseAudio thread
    /// stops). Idempotent; not from `events`.
    public func shutdown() {
        guard let engine, let mainloop = connection.mainloop else { return }
        mainloop.withLock { engine.shutDown() }
        if ownsConnection { connection.shutdown() }
    }

    func withEngine<T>(_ body: (OutputEngine) -> T) -> T? {
        guard let engine, let mainloop = connection.mainloop else { return nil }
        return mainloop.withLock {
            engine.isShutDown || engine.link.isShutDown ? nil : body(engine)
        }
    }
}
