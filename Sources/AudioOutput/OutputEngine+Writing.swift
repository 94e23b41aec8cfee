import PulseKit
import PlayerCore

/// Writing PCM into the stream (loop thread only), gapless boundaries, `.started` timing.
extension OutputEngine {
    /// Re-check at least this often while a start is pending, in case the clock estimate drifts.
    static let maximumStartCheckDelay: UInt64 = 2_000_000  // µs
    /// Retry delay while the stream has no timing information yet (just after a flush).
    static let timingRetryDelay: UInt64 = 20_000  // µs

    /// Writes as much as the server wants, decoding straight into libpulse's buffer.
    func fillBuffer() {
        guard let stream, stream.state == .ready, !draining else { return }
        let frameSize = stream.sampleSpec.frameSize
        var exhausted: Feed?
        do throws(PulseError) {
            while let feed = current {
                let writable = try stream.writableSize()
                guard writable >= frameSize else { break }
                let buffer = try stream.beginWrite(maxBytes: writable)
                let usable = buffer.count - buffer.count % frameSize
                var count = 0
                do {
                    count = try feed.source.read(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<usable]))
                } catch {
                    emit(.failed(feed.entry, String(describing: error)))
                }
                count = min(max(count - count % frameSize, 0), usable)
                guard count > 0 else {
                    stream.cancelWrite()
                    exhausted = feed
                    break
                }
                try stream.commitWrite(buffer, count: count)
                bytesSinceFlush += Int64(count)
            }
        } catch {
            // The stream or context is failing; their state callbacks clean up.
            return
        }
        if let exhausted { sourceExhausted(exhausted) }
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
            emit(.needsNext(after: feed.entry))
        }
    }

    /// Plays out what is buffered, then reports `.finished` and corks (lets the sink suspend).
    func startDrain(after entry: EntryID) {
        guard let stream, !draining else { return }
        waitingAfter = nil
        draining = true
        let generation = self.generation
        do throws(PulseError) {
            try stream.drain { [weak self] _ in
                guard let self, self.generation == generation, self.stream === stream else { return }
                self.draining = false
                // Whatever was still waiting to be announced has been played by now.
                self.checkStarts(force: true)
                self.emit(.finished(entry))
                // Corked while idle, so the sink can suspend; the next play uncorks.
                _ = try? stream.cork(true)
            }
        } catch {
            draining = false
        }
    }

    /// Announces every pending entry whose first byte has become audible and schedules the
    /// timer for the next one. `force` announces them all (after a drain).
    func checkStarts(force: Bool = false) {
        guard let stream, stream.state == .ready, !pendingStarts.isEmpty else {
            startTimer?.cancel()
            return
        }
        if force {
            while !pendingStarts.isEmpty { announce(pendingStarts.removeFirst()) }
            return
        }
        if indexBase == nil, let timing = stream.timingInfo, !timing.writeIndexCorrupt {
            indexBase = timing.writeIndex - bytesSinceFlush
        }
        guard let base = indexBase, let now = try? stream.time() else {
            // No timing yet (fresh stream or just flushed): the update's reply will arrive soon.
            if !corked { startTimer?.schedule(after: Self.timingRetryDelay) }
            return
        }
        while let first = pendingStarts.first {
            // Stream time is the audible position of the absolute read index (sink latency
            // already subtracted), so the boundary is crossed once time passes its byte index.
            let boundary = stream.sampleSpec.microseconds(forBytes: Int(base + first.offset))
            guard now > boundary else {
                if !corked {
                    let wait = boundary - now + 1_000  // +1 ms: land just after the boundary
                    startTimer?.schedule(after: min(wait, Self.maximumStartCheckDelay))
                }
                return
            }
            pendingStarts.removeFirst()
            announce(first)
        }
        startTimer?.cancel()
    }

    private func announce(_ start: PendingStart) {
        lastStarted = start.entry
        updateTrackProperties(title: start.title, artist: start.artist)
        emit(.started(start.entry))
    }
}
