import PulseKit
import PlayerCore

/// The life of one connection to the sound server: connecting, noticing loss, reconnecting
/// every second, subscribing to its events and keeping the observer on the live context.
/// Shared by the observer and, when the daemon plays through PulseAudio, by the playback engine
/// (`PlaybackClient`), so a daemon holds one connection, and `aubade guard` one that never plays.
///
/// Mainloop lock only, like every libpulse object; hence `@unchecked Sendable`.
final class SoundServerLink: @unchecked Sendable {
    /// What a playback engine on this link is told (loop thread, lock held).
    protocol PlaybackClient: AnyObject {
        /// The context is ready (the stream can be created).
        func linkReady()
        /// The context failed: streams on it are gone. Once per outage.
        func linkLost(_ message: String)
        /// A subscription event (the engine tracks its own stream's volume).
        func linkEvent(_ event: SubscriptionEvent)
        /// The playback stream, if any: its sink is `ourSinkName` in the facts.
        var ourStream: Stream? { get }
    }

    static let reconnectInterval: UInt64 = 1_000_000  // µs

    let mainloop: ThreadedMainloop
    let identity: StreamIdentity
    private let events: @Sendable (SoundServerEvent) -> Void
    private(set) var context: Context?
    /// Someone asked for a connection: reconnect when it breaks.
    var wantsConnection = false
    /// `lost` was reported and `connected` not yet: report an outage once.
    private var outageReported = false
    private var reconnectTimer: MainloopTimer?
    private(set) var observer: SoundServerObserver?
    weak var playback: PlaybackClient?
    private(set) var isShutDown = false

    init(mainloop: ThreadedMainloop, identity: StreamIdentity,
         events: @escaping @Sendable (SoundServerEvent) -> Void) {
        self.mainloop = mainloop
        self.identity = identity
        self.events = events
    }

    /// Creates the timers; called once with the lock held.
    func setUp() throws(PulseError) {
        reconnectTimer = try MainloopTimer(mainloop: mainloop) { [weak self] in self?.reconnect() }
        observer = try SoundServerObserver(mainloop: mainloop, ourStream: { [weak self] in self?.playback?.ourStream },
                                           report: { [weak self] in self?.events(.changed($0)) })
    }

    var isReady: Bool { context?.state == .ready }

    /// Creates a context and starts connecting; the outcome arrives in `contextStateChanged`.
    func startConnecting() throws(PulseError) {
        if let context, !context.state.isFinal { return }
        dropContext()
        let properties = try Proplist([
            Proplist.Key.applicationName: identity.applicationName,
            Proplist.Key.applicationID: identity.applicationID,
            Proplist.Key.applicationIconName: identity.iconName,
        ])
        let context = try Context(mainloop: mainloop, name: identity.applicationName, properties: properties)
        context.onStateChange = { [weak self] in self?.contextStateChanged() }
        context.onSubscriptionEvent = { [weak self] event in self?.subscriptionEvent(event) }
        self.context = context
        try context.connect()
    }

    /// Starts connecting with no caller to throw to: failures become `lost` and a retry.
    func connectLazily() {
        guard !isShutDown else { return }
        wantsConnection = true
        do throws(PulseError) {
            try startConnecting()
        } catch {
            connectionFailed(error.message)
        }
    }

    private func contextStateChanged() {
        // Wakes `SoundServerConnection.connect()`, which waits for ready or failed.
        mainloop.signal()
        guard let context, !isShutDown else { return }
        switch context.state {
        case .ready:
            outageReported = false
            do throws(PulseError) {
                try context.subscribe([.server, .sink, .source, .card, .sinkInput, .sourceOutput])
            } catch {
                // Volume tracking and fresh facts are lost; the first facts still come below.
            }
            // The playback engine first (its `serverConnected`, a play that waited), then the
            // observer's first facts: the order the app has always seen.
            playback?.linkReady()
            events(.connected)
            observer?.attach(context)
        case .failed, .terminated:
            observer?.detach()
            connectionFailed(context.lastError("pa_context_connect").message)
        default:
            break
        }
    }

    /// Reports the outage once and retries in a second, if a connection is still wanted.
    private func connectionFailed(_ message: String) {
        guard wantsConnection, !isShutDown else { return }
        if !outageReported {
            outageReported = true
            playback?.linkLost(message)
            events(.lost(message))
        }
        reconnectTimer?.schedule(after: Self.reconnectInterval)
    }

    /// Timer: try again with a fresh context (a failed one cannot reconnect).
    private func reconnect() {
        guard wantsConnection, !isShutDown, !isReady else { return }
        do throws(PulseError) {
            try startConnecting()
        } catch {
            connectionFailed(error.message)
        }
    }

    /// Forgets a context. Called from a timer or a public method, never from the context's own
    /// callback, so its deinit does not unref it from inside its own callback.
    private func dropContext() {
        guard let context else { return }
        context.onStateChange = nil
        context.onSubscriptionEvent = nil
        self.context = nil
    }

    private func subscriptionEvent(_ event: SubscriptionEvent) {
        switch event.facility {
        case .server, .sink, .source, .card, .sinkInput, .sourceOutput: observer?.refreshSoon()
        default: break
        }
        playback?.linkEvent(event)
    }

    /// Asks the server to switch a card's profile; fire and forget (see
    /// `SoundServerConnection.switchCardProfile`).
    func switchCardProfile(card: String, profile: String) {
        guard !card.isEmpty, !profile.isEmpty, let context, context.state == .ready else { return }
        do throws(PulseError) {
            try context.setCardProfile(card: card, profile: profile)
        } catch {
            // Rejected by libpulse before sending (the context is going away).
        }
    }

    /// Tears everything down; the loop thread is stopped by the owner afterwards.
    func shutDown() {
        isShutDown = true
        wantsConnection = false
        reconnectTimer = nil
        observer?.shutDown()
        observer = nil
        if let context {
            context.onStateChange = nil
            context.onSubscriptionEvent = nil
            context.disconnect()
        }
        context = nil
    }
}
