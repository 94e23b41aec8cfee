import Dispatch
import PlayerCore

/// The tick: the server's presence, the pipe topped up to the lead, and the announcements
/// scheduled at the moment the rooms hear them.
extension SnapcastEngine {
    func work() {
        guard !isShutDown else { return }
        let now = HeardTimeline.now()
        checkServer(at: now)
        if isConnected, let pipe, !paused {
            let read = physicalWritten - Int64(pipe.unread) + delta
            timeline.note(read: read, at: now)
            scheduleHeard(read: read, at: now)
            fill(pipe, unread: pipe.unread)
            askForNextEarly()
        }
        adjustTick()
    }

    /// Announcements whose byte the server has read get their time: when the rooms hear it.
    private func scheduleHeard(read: Int64, at now: Int64) {
        var changed = false
        for index in announcements.indices where announcements[index].due == nil && announcements[index].offset <= read {
            let offset = announcements[index].offset
            announcements[index].due = timeline.heardTime(of: offset, read: read, at: now) - Self.observationLag
            changed = true
        }
        if changed { rescheduleAnnouncements() }
    }

    /// Converts and writes until the pipe holds the lead.
    private func fill(_ pipe: SnapcastPipe, unread: Int) {
        var unread = unread
        while unread < leadBytes {
            let wanted = leadBytes - unread
            if out.count < wanted, !produce(atLeast: wanted - out.count) && out.isEmpty { return }
            let count = min(out.count, wanted)
            guard count > 0 else { return }
            let result = out.withUnsafeBytes { pipe.write(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            switch result {
            case .written(let written):
                out.withUnsafeBytes { history.append(UnsafeRawBufferPointer(rebasing: $0[0..<written])) }
                out.removeFirst(written)
                physicalWritten += Int64(written)
                unread += written
                if written < count { return }
            case .full:
                return
            case .noReader:
                // The server is between two opens, or gone: `checkServer` tells which.
                readerMissingSince = readerMissingSince ?? HeardTimeline.now()
                return
            case .failed(let code):
                serverGone("write to \(settings.fifoPath) failed (errno \(code))")
                return
            }
        }
    }

    /// Converts at least `bytes` more output from the current tracks; false when nothing came
    /// (the decoder is behind, or nothing plays).
    private func produce(atLeast bytes: Int) -> Bool {
        var made = 0
        while made < bytes, var feed = current {
            guard let sourceFormat = feed.source.format else {
                if case .unplayable(let reason) = feed.source.status { sourceUnplayable(feed, reason: reason) }
                else { _ = feed.source.read(into: UnsafeMutableRawBufferPointer(start: nil, count: 0)) }  // marks it starved: it wakes us
                return made > 0
            }
            if feed.converter == nil { feed.converter = PCMConverter(from: sourceFormat, to: format) }
            let ratio = Double(sourceFormat.sampleRate * sourceFormat.bytesPerFrame) / Double(format.sampleRate * format.bytesPerFrame)
            var want = Int(Double(bytes - made) * ratio) + sourceFormat.bytesPerFrame
            want = min(max(want - want % sourceFormat.bytesPerFrame, sourceFormat.bytesPerFrame), Self.readChunkBytes)
            if scratch.count < want { scratch = [UInt8](repeating: 0, count: Self.readChunkBytes) }
            let result = scratch.withUnsafeMutableBytes { feed.source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<want])) }
            switch result {
            case .bytes(let count) where count > 0:
                let before = out.count
                scratch.withUnsafeBytes { feed.converter!.convert(UnsafeRawBufferPointer(rebasing: $0[0..<count]), gain: gain, into: &out) }
                produced += Int64(out.count - before)
                made += out.count - before
                for (mark, bytesAfter) in feed.source.takeReadMarks() {
                    let offset = produced - (feed.converter?.outputBytes(forInputBytes: bytesAfter) ?? bytesAfter)
                    announcements.append(Announcement(entry: feed.entry, offset: max(offset, 0), kind: .mark(mark.title)))
                }
                current = feed
            case .pending, .bytes:
                current = feed
                return made > 0
            case .end:
                current = feed
                sourceExhausted(feed)
            case .failed(let reason):
                current = feed
                emit(.failed(feed.entry, reason))
                sourceExhausted(feed)
            case .unplayable(let reason):
                sourceUnplayable(feed, reason: reason)
            }
        }
        return made > 0
    }

    /// The current source ended: its converter's tail, then the early-enqueued one, the end,
    /// or a question for the next.
    private func sourceExhausted(_ feed: Feed) {
        if var converter = feed.converter {
            let before = out.count
            converter.finish(gain: gain, into: &out)
            produced += Int64(out.count - before)
        }
        current = nil
        if let following = next {
            next = nil
            enqueue(following)
        } else if endRequested {
            endRequested = false
            finish(after: feed.entry)
        } else {
            waitingAfter = feed.entry
            emit(.needsNext(after: feed.entry))
        }
    }

    /// Nothing of `feed` was converted: its start is forgotten; the output waits as after its
    /// predecessor for the app to say what follows.
    private func sourceUnplayable(_ feed: Feed, reason: String) {
        current = nil
        announcements.removeAll { $0.entry == feed.entry && $0.offset == produced && $0.due == nil }
        emit(.unplayable(feed.entry, reason))
        if var following = next {
            next = nil
            following.predecessor = feed.predecessor
            enqueue(following)
        } else if endRequested, let predecessor = feed.predecessor {
            endRequested = false
            finish(after: predecessor)
        } else {
            waitingAfter = feed.predecessor
        }
    }

    /// As soon as the decoder has reached the end of the track, while its last seconds still
    /// wait in its buffer: the next file opens meanwhile (gapless).
    private func askForNextEarly() {
        guard let feed = current, next == nil, !endRequested, askedNext != feed.entry,
              feed.source.hasDecodedEverything else { return }
        askedNext = feed.entry
        emit(.needsNext(after: feed.entry))
    }

    // MARK: Announcements

    func rescheduleAnnouncements() {
        guard let timer = announceTimer else { return }
        guard let first = announcements.compactMap(\.due).min() else {
            timer.schedule(deadline: .distantFuture)
            return
        }
        let delay = max(0, first - HeardTimeline.now())
        timer.schedule(deadline: .now() + .microseconds(Int(min(delay, 60_000_000))), leeway: .milliseconds(1))
    }

    /// Announces what is heard by now, in order.
    func announceDue(upTo now: Int64 = HeardTimeline.now()) {
        while let index = announcements.indices.filter({ announcements[$0].due.map { $0 <= now } ?? false })
                .min(by: { announcements[$0].offset < announcements[$1].offset }) {
            let announcement = announcements.remove(at: index)
            switch announcement.kind {
            case .started: emit(.started(announcement.entry))
            case .mark(let title): emit(.markHeard(announcement.entry, title))
            case .finished: emit(.finished(announcement.entry))
            }
        }
        rescheduleAnnouncements()
    }

    /// Ticks fast while there is something to write or to find out, slowly otherwise.
    private func adjustTick() {
        let busy = probingSince != nil
            || (isConnected && !paused && (current != nil || !out.isEmpty || announcements.contains { $0.due == nil }))
        guard busy != tickIsFast, let tick else { return }
        tickIsFast = busy
        let interval = busy ? Self.playingTick : Self.idleTick
        tick.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(busy ? 1 : 10))
    }
}
