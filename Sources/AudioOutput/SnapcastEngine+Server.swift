/// Finding the snapserver, and noticing it go: its reader on the pipe is the sign of life.
extension SnapcastEngine {
    func connectLazily() {
        guard !isShutDown else { return }
        wantsConnection = true
        kickSoon()
    }

    func checkServer(at now: Int64) {
        guard wantsConnection else { return }
        if pipe == nil {
            guard now >= nextAttempt else { return }
            do throws(SnapcastPipe.Failure) {
                pipe = try SnapcastPipe.open(path: settings.fifoPath)
                probingSince = now
            } catch {
                nextAttempt = now + Self.retryInterval
                reportOutage(error.description)
                return
            }
        }
        guard let pipe else { return }
        if let since = probingSince {
            if pipe.hasReader {
                probingSince = nil
                connected()
            } else if now - since > Self.probeWindow {
                probingSince = nil
                self.pipe = nil
                nextAttempt = now + Self.retryInterval
                reportOutage("no snapserver reads \(settings.fifoPath)")
            }
            return
        }
        if pipe.hasReader {
            readerMissingSince = nil
        } else if let since = readerMissingSince {
            if now - since > Self.readerGrace { serverGone("the snapserver stopped reading \(settings.fifoPath)") }
        } else {
            readerMissingSince = now
        }
    }

    private func connected() {
        isConnected = true
        outageReported = false
        readerMissingSince = nil
        // A new reader: nothing of ours waits in the pipe, and offsets start afresh.
        physicalWritten = 0
        delta = 0
        emit(.serverConnected)
        if let pending = pendingPlay {
            pendingPlay = nil
            start(pending.feed, playing: pending.playing)
        }
    }

    /// The server went away: everything it held is gone (the app plays again from where the
    /// rooms were when it is back); looked for again twice a second.
    func serverGone(_ reason: String) {
        let wasConnected = isConnected
        isConnected = false
        readerMissingSince = nil
        pipe = nil
        flushStream()
        paused = false
        nextAttempt = HeardTimeline.now() + Self.retryInterval
        if wasConnected { outageReported = false }
        reportOutage(reason)
    }

    private func reportOutage(_ reason: String) {
        guard !outageReported else { return }
        outageReported = true
        emit(.serverLost(reason))
    }
}
