import PulseKit
import PlayerCore

/// Writing PCM into the stream (loop thread only), gapless boundaries, `.started` timing.
extension OutputEngine {
    /// Re-check at least this often while a start is pending, in case the clock estimate drifts.
    static let maximumStartCheckDelay: UInt64 = 2_000_000  // µs
    /// Retry delay while the stream has no timing information yet (just after a flush).
    static let timingRetryDelay: UInt64 = 20_000  // µs

    /// Writes as much as the server wants, copying from the tracks' decode-ahead buffers.
    /// Never decodes or reads a file: a track whose decoder is behind writes nothing now and
    /// wakes us when it has caught up.
    func fillBuffer() {
        guard let stream, stream.state == .ready, !draining else { return }
        let frameSize = stream.sampleSpec.frameSize
        var ended: (feed: Feed, result: DecodeAhead.Read)?
        do throws(PulseError) {
            while let feed = current {
                if let format = feed.source.format, let streamFormat, format != streamFormat {
                    beginFormatBoundary(at: feed)
                    break
                }
                let writable = try stream.writableSize()
                guard writable >= frameSize else { break }
                let buffer = try stream.beginWrite(maxBytes: writable)
                let usable = buffer.count - buffer.count % frameSize
                let result = feed.source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<usable]))
                guard case .bytes(let count) = result, count > 0 else {
                    stream.cancelWrite()
                    if result != .pending { ended = (feed, result) }
                    break
                }
                try stream.commitWrite(buffer, count: min(count - count % frameSize, usable))
                bytesSinceFlush += Int64(min(count - count % frameSize, usable))
                for (mark, bytesAfter) in feed.source.takeReadMarks() {
                    pendingMarks.append(PendingMark(entry: feed.entry, offset: bytesSinceFlush - bytesAfter, title: mark.title))
                }
                if !pendingMarks.isEmpty { checkStarts() }
            }
        } catch {
            // The stream or context is failing; their state callbacks clean up.
            return
        }
        guard let ended else { return }
        switch ended.result {
        case .failed(let reason):
            emit(.failed(ended.feed.entry, reason))
            sourceExhausted(ended.feed)
        case .unplayable(let reason):
            sourceUnplayable(ended.feed, reason: reason)
        default:
            sourceExhausted(ended.feed)
        }
    }

    /// The current source ended: switch to an early-enqueued one, drain, or ask for the next.
    private func sourceExhausted(_ feed: Feed) {
        current = nil
        if let following = next {
            next = nil
            enqueue(following)
        } else if endRequested {
            endRequested = false
            startDrain(after: feed.entry)
        } else {
            waitingAfter = feed.entry
            // Again even if asked early: the app ignores a question it has answered, and one
            // it did not answer must not leave the output waiting for ever.
            emit(.needsNext(after: feed.entry))
        }
    }

    /// `feed` follows gaplessly but has another format than the stream: nothing of it is
    /// written here. The stream drains (its last sample is heard, no click), and `finishQueue`
    /// creates the new stream for `feed`, from its first sample (still in its decode buffer).
    private func beginFormatBoundary(at feed: Feed) {
        current = nil
        pendingStarts.removeAll { $0.entry == feed.entry && $0.offset == bytesSinceFlush }
        formatBoundary = (feed, next)
        next = nil
        if let predecessor = feed.predecessor {
            startDrain(after: predecessor)
        } else {
            crossFormatBoundary()
        }
    }

    /// The old stream has played out: the boundary's track starts in a stream of its format.
    private func crossFormatBoundary() {
        guard let boundary = formatBoundary else { return }
        formatBoundary = nil
        pendingFinish = nil
        draining = false
        while !pendingStarts.isEmpty { announce(pendingStarts.removeFirst()) }
        start(boundary.feed, playing: !corked)
        if let following = boundary.following { enqueue(following) }
    }

    /// Asks for the gapless follow-up as soon as the current track's decoder has reached its
    /// end, while up to `DecodeAhead.bufferSeconds` of it still wait to be written: the next
    /// file then opens (and fills its own buffer) during that time, not after.
    func askForNextEarly() {
        guard let feed = current, next == nil, !endRequested, !draining, askedNext != feed.entry,
              feed.source.hasDecodedEverything else { return }
        askedNext = feed.entry
        emit(.needsNext(after: feed.entry))
    }

    /// Nothing of `feed` was written: forget its start and wait, as after its predecessor,
    /// for the app to say what follows (it drops the entry and enqueues the next, or ends).
    private func sourceUnplayable(_ feed: Feed, reason: String) {
        current = nil
        pendingStarts.removeAll { $0.entry == feed.entry && $0.offset == bytesSinceFlush }
        emit(.unplayable(feed.entry, reason))
        if var following = next {
            // Already given: it follows what came before the unplayable one.
            next = nil
            following.predecessor = feed.predecessor
            enqueue(following)
        } else if endRequested, let predecessor = feed.predecessor {
            endRequested = false
            startDrain(after: predecessor)
        } else {
            waitingAfter = feed.predecessor
        }
    }

    /// Plays out what is buffered, then reports `.finished` and corks (lets the sink suspend).
    func startDrain(after entry: EntryID) {
        guard let stream, !draining else { return }
        waitingAfter = nil
        draining = true
        pendingFinish = (entry, bytesSinceFlush, nil)
        let generation = self.generation
        do throws(PulseError) {
            // The drain also starts playback of a tail shorter than the prebuffer.
            try stream.drain { [weak self] _ in
                guard let self, self.generation == generation, self.stream === stream else { return }
                self.queueRanEmpty()
            }
        } catch {
            queueRanEmpty()
        }
    }

    /// The server's queue is empty (underflow or drain reply): while draining, what is left
    /// plays from the sink's own buffer, so `.finished` is due after the sink's latency.
    func queueRanEmpty() {
        guard let finish = pendingFinish, finish.deadline == nil, let stream else { return }
        let latency = min(stream.timingInfo?.sinkLatency ?? 0, 500_000) + 10_000
        pendingFinish?.deadline = .now + .microseconds(Int64(latency))
        startTimer?.schedule(after: latency)
        checkStarts()
    }

    /// Playback began again after prebuffering (start, or after an underrun). libpulse stopped
    /// interpolating during the underrun: fetch fresh timing before checking boundaries.
    func playbackRestarted() {
        checkStarts()
        do throws(PulseError) {
            try stream?.updateTimingInfo { [weak self] _ in self?.checkStarts() }
        } catch {
            // The context is going away.
        }
    }

    /// Announces every pending entry whose first byte has become audible, then a pending
    /// finish, and schedules the timer for the next boundary.
    func checkStarts() {
        guard let stream, stream.state == .ready, !pendingStarts.isEmpty || pendingFinish != nil || !pendingMarks.isEmpty else {
            startTimer?.cancel()
            return
        }
        if indexBase == nil, let timing = stream.timingInfo, !timing.writeIndexCorrupt {
            indexBase = timing.writeIndex - bytesSinceFlush
        }
        if let deadline = pendingFinish?.deadline, ContinuousClock.now >= deadline {
            finishQueue()
            return
        }
        // Nothing becomes audible while corked (the interpolated clock can still read a few
        // ms past a fresh stream's start); resume() checks again.
        guard !corked else { return }
        guard let base = indexBase, let now = try? stream.time() else {
            // No timing yet (fresh stream or just flushed): the update's reply will arrive soon.
            if !corked {
                startTimer?.schedule(after: Self.timingRetryDelay)
            }
            return
        }
        func boundary(_ offset: Int64) -> UInt64 {
            // Stream time is the audible position of the absolute read index (sink latency
            // already subtracted), so a byte is audible once the time passes its index.
            stream.sampleSpec.microseconds(forBytes: Int(base + offset))
        }
        while let first = pendingStarts.first {
            let start = boundary(first.offset)
            guard now > start else {
                scheduleCheck(in: start - now)
                return
            }
            pendingStarts.removeFirst()
            announce(first)
        }
        while let mark = pendingMarks.first {
            let point = boundary(mark.offset)
            guard now > point else {
                scheduleCheck(in: point - now)
                return
            }
            pendingMarks.removeFirst()
            updateTrackProperties(title: mark.title.title, artist: mark.title.artist)
            emit(.markHeard(mark.entry, mark.title))
        }
        if let finish = pendingFinish {
            // After an underrun the read index stops at the end: allow a few ms of slack.
            let end = boundary(finish.offset)
            if now + 5_000 >= end {
                finishQueue()
            } else if finish.deadline == nil {
                scheduleCheck(in: end - now)
            }  // else the deadline's timer is armed
            return
        }
        startTimer?.cancel()
    }

    private func scheduleCheck(in microseconds: UInt64) {
        guard !corked else { return }  // time stands still while corked; resume() re-checks
        // +1 ms lands just after the boundary; re-check at least every 2 s in case of drift.
        var delay = min(microseconds + 1_000, Self.maximumStartCheckDelay)
        if let deadline = pendingFinish?.deadline {
            let untilDeadline = (deadline - .now).components
            let microseconds = max(untilDeadline.seconds * 1_000_000 + untilDeadline.attoseconds / 1_000_000_000_000, 0)
            delay = min(delay, UInt64(microseconds))
        }
        startTimer?.schedule(after: delay)
    }

    /// Everything written has been played: announce stragglers, report, cork while idle.
    private func finishQueue() {
        guard let finish = pendingFinish, let stream else { return }
        if formatBoundary != nil {
            // Not the end of the queue: the next track waits for a stream of its format.
            crossFormatBoundary()
            return
        }
        pendingFinish = nil
        draining = false
        while !pendingStarts.isEmpty { announce(pendingStarts.removeFirst()) }
        emit(.finished(finish.entry))
        // Corked while idle so the sink can suspend; the next play uncorks.
        _ = try? stream.cork(true)
        startTimer?.cancel()
    }

    private func announce(_ start: PendingStart) {
        lastStarted = start.entry
        updateTrackProperties(title: start.title, artist: start.artist)
        emit(.started(start.entry))
    }
}
