import PulseKit
public import PlayerCore

/// The daemon's audio output: one PulseAudio connection and one `media.role=music` playback
/// stream, played gaplessly from `PCMSource`s, reporting what happens as `OutputEvent`s.
///
/// Every method may be called from any thread: each takes the PulseAudio mainloop lock.
/// `events` runs on the output's own thread (see the thread notes in OutputEngine.swift);
/// the app hops to its own queue there. Do not call `shutdown()` from inside `events`.
public final class PlaybackOutput: @unchecked Sendable {
    // @unchecked Sendable: `engine` and all PulseAudio objects are used only with the
    // mainloop lock held; `mainloop` itself is thread-safe; `loopError` is immutable.
    private let mainloop: ThreadedMainloop?
    private let engine: OutputEngine?
    private let loopError: String?

    /// Starts the PulseAudio thread but connects lazily (on `connect()` or the first `play`).
    public convenience init(identity: StreamIdentity, events: @escaping @Sendable (OutputEvent) -> Void) {
        self.init(identity: identity, serialEvents: { event, _ in events(event) })
    }

    /// As `init(identity:events:)`, with each event's `PlaySerial`: the app compares it with
    /// what its last `play`/`restart`/`stop` returned to drop the events of replaced runs.
    public init(identity: StreamIdentity, serialEvents events: @escaping @Sendable (OutputEvent, PlaySerial) -> Void) {
        do throws(PulseError) {
            let mainloop = try ThreadedMainloop()
            let engine = OutputEngine(mainloop: mainloop, identity: identity, events: events)
            try mainloop.withLock { () throws(PulseError) in try engine.setUpTimers() }
            try mainloop.start(threadName: "aubade-pulse")
            self.mainloop = mainloop
            self.engine = engine
            self.loopError = nil
        } catch {
            // Out of memory or descriptors: keep a dead output whose connect() reports why.
            self.mainloop = nil
            self.engine = nil
            self.loopError = error.description
        }
    }

    deinit { shutdown() }

    /// Connects and waits until the server answers. Throws if no server can be reached (no
    /// autospawn): the app logs and retries later. After success, a lost connection is retried
    /// every second (`serverLost` … `serverConnected`).
    public func connect() throws(OutputError) {
        guard let mainloop, let engine else { throw .unavailable(loopError ?? "no mainloop") }
        let failure: String? = mainloop.withLock {
            guard !engine.isShutDown else { return "shut down" }
            if engine.isReady { return nil }
            do throws(PulseError) {
                try engine.startConnecting()
            } catch {
                return error.message
            }
            // Inside an events handler we cannot wait for our own thread: report progress later.
            if mainloop.isInLoopThread {
                engine.wantsConnection = true
                return nil
            }
            while let state = engine.context?.state, !state.isFinal, state != .ready {
                mainloop.wait()  // signalled by every context state change
            }
            guard let context = engine.context, context.state == .ready else {
                return engine.context?.lastError("pa_context_connect").message ?? "connection failed"
            }
            engine.wantsConnection = true
            return nil
        }
        if let failure { throw .serverUnreachable(failure) }
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

    /// Sets the stream's (sink input's) volume: `volume * PA_VOLUME_NORM`, clamped at 0.
    /// Applied to the next stream when none exists yet.
    public func setVolume(_ volume: Double) {
        withEngine { $0.setVolume(Volume(fractionOfNorm: volume)) }
    }

    /// The server's index of our sink input, nil without a ready stream.
    public var streamIndex: UInt32? { withEngine { $0.stream?.index } ?? nil }

    /// The name of the sink our stream plays on; nil without a ready stream.
    public var sinkName: String? { withEngine { $0.stream?.deviceName } ?? nil }

    /// The facts last reported in `soundServerChanged`; nil while not connected.
    public var soundServerFacts: SoundServerFacts? { withEngine { $0.observer?.lastReported } ?? nil }

    /// Whether the server connection is ready.
    public var isConnected: Bool { withEngine { $0.isReady } ?? false }

    /// Disconnects everything and stops the PulseAudio thread. Idempotent; not from `events`.
    public func shutdown() {
        guard let mainloop, let engine else { return }
        let alreadyDown = mainloop.withLock {
            defer { engine.shutDown() }
            return engine.isShutDown
        }
        if !alreadyDown { mainloop.stop() }
    }

    func withEngine<T>(_ body: (OutputEngine) -> T) -> T? {
        guard let mainloop, let engine else { return nil }
        return mainloop.withLock {
            engine.isShutDown ? nil : body(engine)
        }
    }
}
