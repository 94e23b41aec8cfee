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
    public init(identity: StreamIdentity, events: @escaping @Sendable (OutputEvent) -> Void) {
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
    /// there is none; a new stream only if the format differs.
    public func play(_ source: PCMSource, entry: EntryID, title: String, artist: String?, playing: Bool) {
        let feed = OutputEngine.Feed(source: source, entry: entry, title: title, artist: artist)
        withEngine { $0.start(feed, playing: playing) }
    }

    /// Gapless follow-up after `needsNext`: continues right after the previous source, no
    /// flush, no silence.
    public func enqueue(_ source: PCMSource, entry: EntryID, title: String, artist: String?) {
        let feed = OutputEngine.Feed(source: source, entry: entry, title: title, artist: artist)
        withEngine { $0.enqueue(feed) }
    }

    /// No more entries: play out what is buffered, then report `.finished`.
    public func endOfQueue() { withEngine { $0.endOfQueue() } }

    /// Corks the stream: nothing more is written or played; the position holds.
    public func pause() { withEngine { $0.setCorked(true) } }

    /// Uncorks the stream.
    public func resume() { withEngine { $0.setCorked(false) } }

    /// Replaces the current source by an already-seeked one, flushing the stream's buffer so
    /// the jump is immediate.
    public func restart(_ source: PCMSource, entry: EntryID) {
        withEngine { $0.restart(source, entry: entry) }
    }

    /// Releases (disconnects) the stream; the server connection stays.
    public func stop() { withEngine { $0.stop() } }

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
