import PulseKit
public import PlayerCore

/// One connection to the sound server (PulseAudio, or PipeWire through pipewire-pulse) and its
/// observer: the server's facts (devices, routes, calls, the other programs' streams) reported
/// as `SoundServerEvent`s, apart from playback. `aubade guard` holds one that never plays; the
/// daemon's PulseAudio output plays on the same connection (`PulseAudioOutput(connection:…)`),
/// and a Snapcast output leaves it to watch the calls.
///
/// Every method may be called from any thread: each takes the PulseAudio mainloop lock.
/// `events` runs on the connection's own thread ("aubade-pulse"). Do not call `shutdown()`
/// from inside `events`.
public final class SoundServerConnection: @unchecked Sendable {
    // @unchecked Sendable: `link` and every PulseAudio object are used only with the mainloop
    // lock held; `mainloop` itself is thread-safe; `loopError` is immutable.
    let mainloop: ThreadedMainloop?
    let link: SoundServerLink?
    private let loopError: String?

    /// Starts the PulseAudio thread but connects lazily (`connect()`, `connectInBackground()`,
    /// or a play of the output on it).
    public init(identity: StreamIdentity, events: @escaping @Sendable (SoundServerEvent) -> Void) {
        do throws(PulseError) {
            let mainloop = try ThreadedMainloop()
            let link = SoundServerLink(mainloop: mainloop, identity: identity, events: events)
            try mainloop.withLock { () throws(PulseError) in try link.setUp() }
            try mainloop.start(threadName: "aubade-pulse")
            self.mainloop = mainloop
            self.link = link
            self.loopError = nil
        } catch {
            // Out of memory or descriptors: keep a dead connection whose connect() reports why.
            self.mainloop = nil
            self.link = nil
            self.loopError = error.description
        }
    }

    deinit { shutdown() }

    /// Connects and waits until the server answers. Throws if no server can be reached (no
    /// autospawn). After success, a lost connection is retried every second (`lost` …
    /// `connected`).
    public func connect() throws(OutputError) {
        guard let mainloop, let link else { throw .unavailable(loopError ?? "no mainloop") }
        let failure: String? = mainloop.withLock {
            guard !link.isShutDown else { return "shut down" }
            if link.isReady { return nil }
            do throws(PulseError) {
                try link.startConnecting()
            } catch {
                return error.message
            }
            // Inside an events handler we cannot wait for our own thread: report progress later.
            if mainloop.isInLoopThread {
                link.wantsConnection = true
                return nil
            }
            while let state = link.context?.state, !state.isFinal, state != .ready {
                mainloop.wait()  // signalled by every context state change
            }
            guard let context = link.context, context.state == .ready else {
                return link.context?.lastError("pa_context_connect").message ?? "connection failed"
            }
            link.wantsConnection = true
            return nil
        }
        if let failure { throw .serverUnreachable(failure) }
    }

    /// Connects in the background: no waiting, and retries every second while there is no
    /// server (`lost` once, then `connected`). For a start without a server.
    public func connectInBackground() { withLink { $0.connectLazily() } }

    /// The facts last reported in `changed`; nil while not connected.
    public var facts: SoundServerFacts? { withLink { $0.observer?.lastReported } ?? nil }

    /// Whether the server connection is ready.
    public var isConnected: Bool { withLink { $0.isReady } ?? false }

    /// Asks the server to switch card `card` (by name, e.g. `bluez_card.00_11_22_33_44_55`) to
    /// `profile` (e.g. `a2dp_sink`). Returns at once; does not wait for the answer.
    ///
    /// No event reports the outcome, on purpose: a switch that happens shows up in the next
    /// `changed` (the card's new profile, and usually a new sink our stream moves to); one that
    /// does not (no such card or profile, profile unavailable, not connected, the server
    /// refused) leaves the facts as they were, which is what the app decides from anyway.
    /// Nothing is logged either. Does nothing while not connected or for empty names.
    public func switchCardProfile(card: String, profile: String) {
        withLink { $0.switchCardProfile(card: card, profile: profile) }
    }

    /// Disconnects and stops the PulseAudio thread. Idempotent; not from `events`. An output
    /// playing on this connection is shut down with it.
    public func shutdown() {
        guard let mainloop, let link else { return }
        let alreadyDown = mainloop.withLock {
            defer {
                (link.playback as? OutputEngine)?.shutDown()
                link.shutDown()
            }
            return link.isShutDown
        }
        if !alreadyDown { mainloop.stop() }
    }

    func withLink<T>(_ body: (SoundServerLink) -> T) -> T? {
        guard let mainloop, let link else { return nil }
        return mainloop.withLock {
            link.isShutDown ? nil : body(link)
        }
    }
}
