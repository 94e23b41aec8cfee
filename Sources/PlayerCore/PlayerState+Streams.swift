/// Streams: a station's connection and titles, and the rule for resuming a live stream.
///
/// The pause rule: a live stream paused for at most `liveResumeLimit` resumes from what was
/// buffered (the station is a few seconds behind, nothing is lost). Paused for longer, it is
/// fetched afresh and plays live: what was buffered is old news, and the server may have
/// dropped a listener that stopped reading (icecast2 does once its 512 KiB listener queue and
/// the socket buffers are full). The same holds after a call or an unplug.
extension PlayerState {
    /// See the rule above: longer than a glance at the phone, shorter than any server's patience.
    public static let liveResumeLimit: Microseconds = 10_000_000
    /// Failed attempts (about 2 s) after which a station that never answered gives way to the next entry.
    public static let attemptsBeforeNextStation = 3

    /// Whether `entry` is a stream that has shown itself to be live (or not yet said otherwise).
    func isLiveStream(_ entry: QueueEntry) -> Bool {
        entry.track.isStream && entry.live?.isLive != false
    }

    /// Files can seek; a stream only when it is a file over HTTP whose server takes ranges.
    func canSeek(_ entry: QueueEntry) -> Bool {
        !entry.track.isStream || entry.live?.isSeekable == true
    }

    /// Play after a pause of a live stream: resume from the buffer, or fetch it afresh.
    mutating func resumeLive(_ entry: QueueEntry, at now: Instant) -> [Effect]? {
        guard isLiveStream(entry), let pausedAt, now - pausedAt > Self.liveResumeLimit else { return nil }
        let seconds = (now - pausedAt) / 1_000_000
        var effects: [Effect] = [.log(.info, "\(entry.track.location.displayString): paused for \(seconds) s; joining live again")]
        // Position counts listening time: it goes on from where it stopped.
        effects += start(entry, from: position(at: now), playing: true, at: now)
        return effects
    }

    mutating func streamStatusChanged(_ entryID: EntryID, _ status: StreamStatus, at now: Instant) -> [Effect] {
        guard let entry = queue.entry(entryID), entry.track.isStream, entryID == currentID else { return [] }
        let before = entry.live ?? LiveFacts()
        var after = before
        switch status {
        case .connected(let station, let live):
            after.status = status
            after.hasConnected = true
            after.station = station ?? before.station
            after.isLive = live
        case .measured(let length, let seekable):
            after.isLive = false
            after.isSeekable = seekable
            if entry.track.length != length {
                queue.update(entryID) { $0.length = length }
                queue.updateLive(entryID) { $0 = after }
                liveEntryID = entryID
                return [.trackList(.metadataChanged(entryID))]
            }
        default:
            after.status = status
        }
        // A station that has not answered once while others wait after it (a playlist of
        // stations whose first is off the air) gives way to the next entry; it stays queued and
        // is tried again when its turn comes. Alone, or last, it is retried for as long as it takes.
        if case .reconnecting(let attempt, _, _) = status, attempt >= Self.attemptsBeforeNextStation,
           !before.hasConnected, status != before.status, queue.entry(after: entryID, wrapping: loopStatus != .none) != nil {
            return [.log(.warning, "\(entry.track.location.displayString): not answering (\(status.summary)); playing the next entry")]
                + skip(forward: true, at: now)
        }
        guard after != before || entry.live == nil else { return [] }
        queue.updateLive(entryID) { $0 = after }
        liveEntryID = entryID
        var effects: [Effect] = []
        if status != before.status || entry.live == nil {
            let level: LogLevel = if case .reconnecting = status { .warning } else { .info }
            effects.append(.log(level, "\(entry.track.location.displayString): \(status.summary)"))
        }
        if after.station != before.station || after.isLive != before.isLive {
            effects.append(.trackList(.metadataChanged(entryID)))
        }
        return effects
    }

    mutating func liveTitleHeard(_ entryID: EntryID, _ title: LiveTitle) -> [Effect] {
        guard let entry = queue.entry(entryID), entry.track.isStream, entryID == currentID,
              entry.live?.title != title else { return [] }
        queue.updateLive(entryID) { live in
            var facts = live ?? LiveFacts()
            facts.title = title
            live = facts
        }
        liveEntryID = entryID
        return [.trackList(.metadataChanged(entryID)),
                .log(.info, "\(entry.live?.station ?? entry.track.displayTitle): now playing \(title.text)")]
    }

    /// A stream that stops being current forgets its titles and connection: they were of then.
    mutating func forgetLiveFacts(except entryID: EntryID?) {
        guard let live = liveEntryID, live != entryID else { return }
        queue.updateLive(live) { $0 = nil }
        liveEntryID = nil
    }
}
