import PulseKit
import PlayerCore

/// Transport commands and the life of the one playback stream.
extension OutputEngine {
    /// ~2 s buffered on the server: decoding can stall that long (busy CPU) without a gap.
    static let targetSeconds = 2.0
    /// Refill in ~150 ms chunks: few wakeups of the PulseAudio thread.
    static let minimumRequestSeconds = 0.15
    /// Start (and restart after an underrun) once ~250 ms are there.
    static let prebufferSeconds = 0.25

    /// `play`: flush whatever is queued and play `feed` from its source's current position.
    func start(_ feed: Feed, playing: Bool) {
        guard !isShutDown else { return }
        corked = !playing
        awaitingFormat = nil
        awaitingIsRestart = false
        guard isReady, let context else {
            pendingPlay = (feed, playing)
            connectLazily()
            return
        }
        let format: PCMFormat
        switch feed.source.status {
        case .open(let known):
            format = known
        case .opening:
            // The decoder is still opening the file (a slow disk takes seconds): stop what
            // plays now, and carry on from `resumeAwaitingStart` when it is open.
            if let stream, !stream.state.isFinal { silence(stream) }
            awaitingFormat = feed
            return
        case .unplayable(let reason):
            if let stream, !stream.state.isFinal { silence(stream) }
            emit(.unplayable(feed.entry, reason))
            return
        }
        if let stream, stream.state.isFinal || streamFormat != format {
            releaseStream()  // a new stream only when the format changes (or the old one died)
        }
        resetQueue(startingWith: feed, announce: true)
        if let stream {
            flush(stream)
            do throws(PulseError) {
                try stream.cork(corked)
            } catch {
                // Only fails while the context dies; its state change reports that.
            }
            kick()
        } else {
            createStream(on: context, format: format, title: feed.title)
        }
    }

    /// The track a `play` waits for has opened (or failed to): go on with it.
    func resumeAwaitingStart() {
        guard let feed = awaitingFormat, feed.source.status != .opening else { return }
        if awaitingIsRestart {
            awaitingFormat = nil
            restart(feed.source, entry: feed.entry)
        } else {
            start(feed, playing: !corked)
        }
    }

    /// Drops everything queued on the stream (it plays nothing more) but keeps it.
    private func silence(_ stream: Stream) {
        forgetQueued()
        bytesSinceFlush = 0
        flush(stream)
    }

    /// Forgets every track written or waiting; late replies about them are ignored.
    private func forgetQueued() {
        generation += 1
        current = nil
        next = nil
        waitingAfter = nil
        askedNext = nil
        endRequested = false
        draining = false
        pendingStarts = []
        pendingMarks = []
        pendingFinish = nil
        formatBoundary = nil
        startTimer?.cancel()
    }

    /// `enqueue`: the gapless follow-up, written right after the previous source's last byte.
    func enqueue(_ feed: Feed) {
        guard !isShutDown, stream != nil else { return }
        var feed = feed
        if let current {
            feed.predecessor = current.entry
            next = feed  // early: used when the current source runs out, without needsNext
            return
        }
        if feed.predecessor == nil { feed.predecessor = waitingAfter }
        waitingAfter = nil
        askedNext = nil
        endRequested = false
        pendingStarts.append(PendingStart(entry: feed.entry, offset: bytesSinceFlush,
                                          title: feed.title, artist: feed.artist))
        current = feed
        kick()
    }

    /// `restart`: replace the current source by an already-seeked one; the jump is immediate.
    func restart(_ source: DecodeAhead, entry: EntryID) {
        guard !isShutDown else { return }
        var feed = Feed(source: source, entry: entry)
        if let current, current.entry == entry {
            feed.title = current.title
            feed.artist = current.artist
        }
        if let pending = pendingPlay {
            pendingPlay = (feed, pending.playing)
            return
        }
        guard let stream else { return }
        awaitingFormat = nil
        awaitingIsRestart = false
        if source.status == .opening, !stream.state.isFinal {
            silence(stream)
            awaitingFormat = feed
            awaitingIsRestart = true
            return
        }
        if streamFormat != source.format {
            start(feed, playing: !corked)
            return
        }
        // A seek within the entry already playing is not a new start.
        resetQueue(startingWith: feed, announce: entry != lastStarted)
        flush(stream)
        kick()
    }

    func endOfQueue() {
        guard !isShutDown else { return }
        if let entry = waitingAfter {
            startDrain(after: entry)
        } else if current != nil {
            endRequested = true
            next = nil
        }
    }

    func setCorked(_ corked: Bool) {
        guard !isShutDown else { return }
        self.corked = corked
        if let pending = pendingPlay { pendingPlay = (pending.feed, !corked) }
        guard let stream, stream.state == .ready else { return }
        do throws(PulseError) {
            try stream.cork(corked)
        } catch {
            // Only fails while the context dies; its state change reports that.
        }
        if corked { startTimer?.cancel() } else { kick() }
    }

    /// `stop`: disconnect the stream (never write silence); the context stays.
    func stop() {
        pendingPlay = nil
        awaitingFormat = nil
        releaseStream()
    }

    /// Disconnects and forgets the stream and everything queued on it.
    func releaseStream() {
        forgetQueued()
        awaitingFormat = nil
        lastStarted = nil
        guard let stream else { return }
        stream.onStateChange = nil
        stream.onWriteRequest = nil
        stream.onStarted = nil
        stream.onUnderflow = nil
        stream.onEvent = nil
        stream.onMoved = nil
        switch stream.state {
        case .ready:
            do throws(PulseError) {
                try stream.disconnect()
            } catch {
                // Already gone on the server side; releasing the handle is all that is left.
            }
        case .creating:
            disconnectWhenCreated(stream)
        default:
            break
        }
        self.stream = nil
        streamFormat = nil
        knownVolume = nil
        observer?.refreshSoon()  // ourSinkName is nil now
    }

    /// Keeps a stream the server is still creating until it can be disconnected (see
    /// `unbornStreams`); a context that dies ends it too.
    private func disconnectWhenCreated(_ stream: Stream) {
        let key = ObjectIdentifier(stream)
        unbornStreams[key] = stream
        stream.onStateChange = { [weak self, unowned stream] in
            switch stream.state {
            case .creating, .unconnected:
                return
            case .ready:
                do throws(PulseError) {
                    try stream.disconnect()
                    return  // `.terminated` follows
                } catch {
                    // The context is dying: its end takes the stream along.
                }
            case .failed, .terminated:
                break
            }
            stream.onStateChange = nil
            self?.unbornStreams[key] = nil
        }
    }

    private func resetQueue(startingWith feed: Feed, announce: Bool) {
        generation += 1
        current = feed
        next = nil
        waitingAfter = nil
        askedNext = nil
        endRequested = false
        draining = false
        pendingFinish = nil
        bytesSinceFlush = 0
        pendingMarks = []
        pendingStarts = announce ? [PendingStart(entry: feed.entry, offset: 0,
                                                 title: feed.title, artist: feed.artist)] : []
    }

    /// Drops the server's buffer. The write index jumps back to the read index, so the base
    /// of our byte offsets is unknown until a timing update answers.
    private func flush(_ stream: Stream) {
        indexBase = nil
        do throws(PulseError) {
            try stream.flush()
            try stream.updateTimingInfo { [weak self] _ in self?.checkStarts() }
        } catch {
            // Only fails while the context dies; its state change reports that.
        }
    }

    private func createStream(on context: Context, format: PCMFormat, title: String?) {
        let spec = SampleSpec(format: .signed16, rate: UInt32(clamping: format.sampleRate),
                              channels: UInt8(clamping: format.channels))
        do throws(PulseError) {
            guard spec.isValid else {
                throw PulseError(function: "pa_sample_spec_valid", code: 0,
                                 message: "unsupported format \(format)")
            }
            var properties: [String: String] = [
                Proplist.Key.mediaRole: identity.mediaRole,
                Proplist.Key.applicationName: identity.applicationName,
                Proplist.Key.applicationID: identity.applicationID,
                Proplist.Key.applicationIconName: identity.iconName,
            ]
            if let feed = current {
                properties[Proplist.Key.mediaTitle] = feed.title
                properties[Proplist.Key.mediaArtist] = feed.artist
            }
            let stream = try Stream(context: context, name: title ?? identity.applicationName,
                                    sampleSpec: spec, properties: try Proplist(properties))
            stream.onStateChange = { [weak self, unowned stream] in self?.streamStateChanged(stream) }
            stream.onWriteRequest = { [weak self] _ in self?.fillBuffer() }
            stream.onStarted = { [weak self] in self?.playbackRestarted() }
            stream.onUnderflow = { [weak self] in self?.queueRanEmpty() }
            stream.onEvent = { [weak self] name in self?.streamEvent(name) }
            // The fastest sign that our sink went away: the server moves us before it tells
            // anyone the sink is gone.
            stream.onMoved = { [weak self] in self?.observer?.refreshSoon() }
            let attributes = BufferAttributes(
                targetLength: spec.bytes(forMicroseconds: UInt64(Self.targetSeconds * 1e6)),
                prebuffer: spec.bytes(forMicroseconds: UInt64(Self.prebufferSeconds * 1e6)),
                minimumRequest: spec.bytes(forMicroseconds: UInt64(Self.minimumRequestSeconds * 1e6)))
            // Early requests: the sink's own buffer is only `minreq` long (not tlength - 2 minreq),
            // so a flush (play, restart) and the gapless boundary become audible within
            // ~150 ms, while the 2 s queue in the server still covers a busy decoder.
            var flags: Stream.Flags = [.interpolateTiming, .autoTimingUpdate, .earlyRequests]
            if corked { flags.insert(.startCorked) }
            if muted { flags.insert(.startMuted) }
            let volume = requestedVolume.map { ChannelVolumes(channels: format.channels, volume: $0) }
            try stream.connectPlayback(attributes: attributes, flags: flags, volume: volume)
            self.stream = stream
            streamFormat = format
            indexBase = 0  // a new stream's write index starts at 0
            knownVolume = requestedVolume
            if requestedVolume != nil { ownVolumeChangeAt = .now }  // it settles like a change of ours
        } catch {
            // No stream: say so, or the app would wait for audio that never comes.
            let feed = current
            current = nil
            next = nil
            pendingStarts = []
            pendingMarks = []
            if error.function == "pa_sample_spec_valid", let feed {
                emit(.unplayable(feed.entry, error.message))  // the track's format, not the server
            } else {
                emit(.streamLost(error.description))
            }
        }
    }

    private func streamStateChanged(_ stream: Stream) {
        guard stream === self.stream else { return }
        switch stream.state {
        case .ready:
            // libpulse corks and uncorks only a ready stream: a pause or resume that came while
            // the server created it was not sent, and the stream is still as it was connected
            // (ci19: a Play right after a Pause, the stream left corked while the player said
            // Playing).
            if stream.isCorked != corked {
                do throws(PulseError) {
                    try stream.cork(corked)
                } catch {
                    // Only fails while the context dies; its state change reports that.
                }
            }
            if let index = stream.index { refreshVolume(index: index, report: false) }
            observer?.refreshSoon()  // ourSinkName is known now
            kick()
        case .failed, .terminated:
            // Killed by the server (e.g. `pactl kill-sink-input`) or lost with the context.
            // With the context alive the app must hear of it (it would wait for audio that
            // never comes); a lost context reports `serverLost` itself.
            let contextAlive = isReady
            let reason = context?.lastError("pa_stream").message ?? "stream ended"
            releaseStream()
            if contextAlive { emit(.streamLost(reason)) }
        default:
            break
        }
    }

    /// Cork requests are only reported: the app decides, and calls `pause()`/`resume()`. (The
    /// server sends request-uncork only to a client that really corked itself.)
    private func streamEvent(_ name: String) {
        switch name {
        case Stream.EventName.requestCork: emit(.corkRequested)
        case Stream.EventName.requestUncork: emit(.uncorkRequested)
        default: break
        }
    }

    /// Sets `media.title`/`media.artist` (and `media.name`, what mixers show) for a new track.
    func updateTrackProperties(title: String?, artist: String?) {
        guard let stream, stream.state == .ready, title != nil || artist != nil else { return }
        do throws(PulseError) {
            var values: [String: String] = [:]
            if let title {
                values[Proplist.Key.mediaTitle] = title
                values[Proplist.Key.mediaName] = title
            }
            if let artist { values[Proplist.Key.mediaArtist] = artist }
            try stream.updateProperties(try Proplist(values), mode: .replace)
        } catch {
            // Metadata is cosmetic: play on without it.
        }
    }
}
