import PlayerCore

/// The transport commands: play (a flush), enqueue, pause and resume, stop, the end of the queue.
extension SnapcastEngine {
    func start(_ feed: Feed, playing: Bool) {
        guard !isShutDown else { return }
        guard isConnected, pipe != nil else {
            pendingPlay = (feed, playing)
            connectLazily()
            return
        }
        pendingPlay = nil
        flushStream()
        current = feed
        paused = !playing
        announcements = [Announcement(entry: feed.entry, offset: 0, kind: .started)]
        if case .unplayable(let reason) = feed.source.status {
            current = nil
            announcements = []
            emit(.unplayable(feed.entry, reason))
            return
        }
        kickSoon()
    }

    /// The gapless follow-up, converted right after the previous source's last byte.
    func enqueue(_ feed: Feed) {
        guard !isShutDown, isConnected else { return }
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
        announcements.append(Announcement(entry: feed.entry, offset: produced, kind: .started))
        current = feed
        kickSoon()
    }

    func endOfQueue() {
        guard !isShutDown else { return }
        if let entry = waitingAfter {
            finish(after: entry)
        } else if current != nil {
            endRequested = true
            next = nil
        }
    }

    /// Everything converted so far is the end: `.finished` when the rooms hear its last byte.
    func finish(after entry: EntryID) {
        waitingAfter = nil
        announcements.append(Announcement(entry: entry, offset: produced, kind: .finished))
        kickSoon()
    }

    /// Stops writing. The rooms still play the server's buffer; what they had heard when
    /// paused is where `resume` writes from again, so nothing is lost and the position holds.
    func pause() {
        guard !isShutDown, !paused else { return }
        paused = true
        if let pendingPlay { self.pendingPlay = (pendingPlay.feed, false) }
        guard let pipe else { return }
        physicalWritten -= Int64(pipe.takeBackUnread())
        let now = HeardTimeline.now()
        announceDue(upTo: now)
        let heard = timeline.heard(at: now)
        rewind(to: heard)
    }

    func resume() {
        guard !isShutDown, paused else { return }
        paused = false
        if let pendingPlay { self.pendingPlay = (pendingPlay.feed, true) }
        kickSoon()
    }

    /// Drops every track and what waits in the pipe; the server connection stays.
    func stop() {
        pendingPlay = nil
        flushStream()
        paused = false
    }

    /// Puts the stream back to `offset`: what the pipe and the history hold from there is
    /// written again (before anything newly converted), and what was to be announced from
    /// there is announced when heard anew.
    private func rewind(to offset: Int64) {
        // A frame boundary: the heard offset is interpolated in time, and the stream's frames
        // start at multiples of the frame size (every logical offset counts from a flush).
        let frame = Int64(format.bytesPerFrame)
        let again = history.bytes(from: offset - offset % frame)
        let from = history.end - Int64(again.count)
        history.truncate(to: from)
        out = again + out
        delta = from - physicalWritten
        timeline.restart(at: from)
        for index in announcements.indices where announcements[index].offset >= from {
            announcements[index].due = nil
        }
        rescheduleAnnouncements()
    }

    /// A new logical stream from offset 0: the pipe emptied, every track and announcement gone.
    func flushStream() {
        if let pipe { physicalWritten -= Int64(pipe.takeBackUnread()) }
        current = nil
        next = nil
        waitingAfter = nil
        askedNext = nil
        endRequested = false
        produced = 0
        out.removeAll(keepingCapacity: true)
        history.reset(at: 0)
        delta = -physicalWritten
        timeline.restart(at: 0)
        announcements = []
        rescheduleAnnouncements()
    }
}
