import PulseKit

/// The context's life: connecting, noticing loss, reconnecting every second, volume tracking.
extension OutputEngine {
    static let reconnectInterval: UInt64 = 1_000_000  // µs

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
        let context = try Context(mainloop: mainloop, name: identity.applicationName,
                                  properties: properties)
        context.onStateChange = { [weak self] in self?.contextStateChanged() }
        context.onSubscriptionEvent = { [weak self] event in self?.subscriptionEvent(event) }
        self.context = context
        try context.connect()
    }

    /// Starts connecting from `play` (no caller to throw to): failures become `serverLost` and
    /// a retry.
    func connectLazily() {
        wantsConnection = true
        do throws(PulseError) {
            try startConnecting()
        } catch {
            connectionFailed(error.message)
        }
    }

    private func contextStateChanged() {
        // Wakes `PlaybackOutput.connect()`, which waits for ready or failed.
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
            emit(.serverConnected)
            observer?.attach(context)
            if let pending = pendingPlay {
                pendingPlay = nil
                start(pending.feed, playing: pending.playing)
            }
        case .failed, .terminated:
            observer?.detach()
            // The stream died with the context; the source's position is the app's to restore.
            releaseStream()
            current = nil
            next = nil
            connectionFailed(context.lastError("pa_context_connect").message)
        default:
            break
        }
    }

    /// Reports the outage once and retries in a second, if the app still wants a connection.
    private func connectionFailed(_ message: String) {
        guard wantsConnection, !isShutDown else { return }
        if !outageReported {
            outageReported = true
            emit(.serverLost(message))
        }
        reconnectTimer?.schedule(after: Self.reconnectInterval)
    }

    /// Timer: try again with a fresh context (a failed one cannot reconnect).
    func reconnect() {
        guard wantsConnection, !isShutDown, !isReady else { return }
        do throws(PulseError) {
            try startConnecting()
        } catch {
            connectionFailed(error.message)
        }
    }

    /// Forgets a context. Called from a timer or a public method, never from the context's own
    /// callback, so its deinit does not unref it from inside its own callback.
    func dropContext() {
        guard let context else { return }
        context.onStateChange = nil
        context.onSubscriptionEvent = nil
        self.context = nil
    }

    // MARK: Volume

    /// How long after our own change a different reading is taken for the old level.
    static let volumeSettleTime = Duration.milliseconds(1_000)

    /// Sets our sink input's volume, or remembers it for the next stream.
    func setVolume(_ volume: Volume) {
        requestedVolume = volume
        volumeChanges += 1
        guard let context, let stream, stream.state == .ready, let index = stream.index else { return }
        if volume != knownVolume { ownVolumeChangeAt = .now }
        knownVolume = volume
        do throws(PulseError) {
            try context.setSinkInputVolume(index, ChannelVolumes(channels: Int(stream.sampleSpec.channels),
                                                                 volume: volume))
        } catch {
            // Only fails if the context is going away; the outage is reported by its state.
        }
    }

    private func subscriptionEvent(_ event: SubscriptionEvent) {
        switch event.facility {
        case .server, .sink, .source, .card, .sinkInput, .sourceOutput: observer?.refreshSoon()
        default: break
        }
        guard event.facility == .sinkInput, event.kind == .change,
              let index = stream?.index, event.index == index else { return }
        refreshVolume(index: index, report: true)
    }

    /// Reads our sink input's volume; with `report`, a value we did not set is an external change.
    func refreshVolume(index: UInt32, report: Bool) {
        let changesBefore = volumeChanges
        do throws(PulseError) {
            try context?.sinkInputInfo(index) { [weak self] info in
                guard let self, let info, info.index == self.stream?.index else { return }
                let volume = info.volume.average
                // Asked before our own last change: it may still report the old level.
                guard changesBefore == self.volumeChanges else { return }
                guard volume != self.knownVolume else { return }
                if report, let own = self.ownVolumeChangeAt, ContinuousClock.now - own < Self.volumeSettleTime {
                    // Our own change may not be applied yet: look again when it must be.
                    self.volumeCheckTimer?.schedule(after: UInt64(Self.volumeSettleTime.components.seconds * 1_000_000
                                                                  + Self.volumeSettleTime.components.attoseconds / 1_000_000_000_000))
                    return
                }
                self.knownVolume = volume
                if report { self.emit(.volumeChanged(volume.fractionOfNorm)) }
            }
        } catch {
            // The context is going away; nothing to track.
        }
    }
}
