import PulseKit

/// The engine as the link's playback client (the connection's life is `SoundServerLink`'s),
/// and its stream's volume.
extension OutputEngine: SoundServerLink.PlaybackClient {
    /// Starts connecting from `play` (no caller to throw to): failures become `serverLost` and
    /// a retry.
    func connectLazily() { link.connectLazily() }

    var ourStream: Stream? { stream }

    func linkReady() {
        emit(.serverConnected)
        if let pending = pendingPlay {
            pendingPlay = nil
            start(pending.feed, playing: pending.playing)
        }
    }

    func linkLost(_ message: String) {
        // The stream died with the context; the source's position is the app's to restore.
        releaseStream()
        current = nil
        next = nil
        emit(.serverLost(message))
    }

    func linkEvent(_ event: SubscriptionEvent) {
        guard event.facility == .sinkInput, event.kind == .change,
              let index = stream?.index, event.index == index else { return }
        refreshVolume(index: index, report: true)
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

    /// Mutes our sink input (an output switched off), or unmutes it; the next stream starts so.
    func setMuted(_ muted: Bool) {
        self.muted = muted
        guard let context, let stream, stream.state == .ready, let index = stream.index else { return }
        do throws(PulseError) {
            try context.setSinkInputMute(index, muted)
        } catch {
            // Only fails if the context is going away; the outage is reported by its state.
        }
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
