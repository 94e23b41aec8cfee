import MPDProtocol
import PlayerCore

/// Playback and its options, mapped onto the one player as mpd 0.23 behaves: repeat and single
/// are the LoopStatus, random is Shuffle, the volume is the stream's.
extension MPDServer {
    func runPlayback(_ command: MPDCommand, reply: @escaping Reply) {
        let status = mirror.snapshot.status
        switch command {
        case .play(let position):
            // -1 is "the current song" (older clients send it); any other negative is no song.
            guard let position, position != -1 else { return playCurrent(reply: reply) }
            guard let entry = entry(at: position) else { return reply(.failure(.badSongIndex)) }
            perform(.playEntry(entry.id), reply: reply)
        case .playID(let id):
            guard let id, id != -1 else { return playCurrent(reply: reply) }
            guard let entry = entry(id: id) else { return reply(.failure(.noSuchSong)) }
            perform(.playEntry(entry.id), reply: reply)
        case .pause(let on):
            switch (on, status) {
            case (nil, .playing), (true?, .playing): perform(.pause, reply: reply)
            case (nil, .paused), (false?, .paused): perform(.play, reply: reply)
            default: reply(Self.ok)  // nothing to pause or resume (mpd says nothing either)
            }
        case .stop:
            perform(.stop, reply: reply)
        case .next, .previous:
            guard status != .stopped else { return reply(.failure(.notPlaying)) }
            // mpd plays the song it goes to, paused or not (MPRIS's Next keeps a pause).
            let skip: Event = command == .next ? .next : .previous
            perform(status == .paused ? [skip, .play] : [skip], reply: reply)
        case .seek(let position, let time):
            guard let entry = entry(at: position) else { return reply(.failure(.badSongIndex)) }
            perform(.seekEntry(entry.id, to: time), reply: reply)
        case .seekID(let id, let time):
            guard let entry = entry(id: id) else { return reply(.failure(.noSuchSong)) }
            perform(.seekEntry(entry.id, to: time), reply: reply)
        case .seekCurrent(let target):
            guard status != .stopped, let current = mirror.current else { return reply(.failure(.notPlaying)) }
            switch target {
            case .to(let time): perform(.setPosition(current.id, time), reply: reply)
            case .by(let offset): perform(.seek(by: offset), reply: reply)
            }
        case .setRepeat(let on): perform(.setRepeat(on), reply: reply)
        case .setRandom(let on): perform(.setShuffle(on), reply: reply)
        case .setSingle(let mode): perform(.setSingle(mode), reply: reply)
        case .setConsume(let on): perform(.setConsume(on), reply: reply)
        case .setReplayGainMode(let mode): perform(.setReplayGainMode(mode), reply: reply)
        case .setCrossfade(let seconds):
            // Aubade joins tracks gaplessly and never overlaps them: only "no cross-fade" is true.
            guard seconds == 0 else {
                return reply(.failure(MPDError(.argument, "Aubade does not cross-fade: its tracks join without a gap")))
            }
            reply(Self.ok)
        case .setVolume(let percent):
            perform(.setVolume(Double(percent) / 100), reply: reply)
        case .changeVolume(let delta):
            let target = min(100, max(0, volumePercent + delta))
            perform(.setVolume(Double(target) / 100), reply: reply)
        default:
            reply(.failure(MPDError(.unknown, "unknown command")))
        }
    }

    /// `play` with no song: resume, or start the current song; with none (after a `clear`), the
    /// top of the queue, as mpd does — not the player's own pick (the first song added).
    private func playCurrent(reply: @escaping Reply) {
        if mirror.snapshot.status == .stopped, mirror.current == nil, let first = mirror.queue.firstInPlayOrder {
            return perform(.playEntry(first), reply: reply)
        }
        perform(.play, reply: reply)
    }

    /// The entry at a position of the queue, if there is one.
    func entry(at position: Int) -> QueueEntry? {
        let entries = mirror.queue.entries
        return entries.indices.contains(position) ? entries[position] : nil
    }

    /// The entry with an MPD song id (Aubade's entry ids: stable, never reused).
    func entry(id: Int) -> QueueEntry? {
        guard id >= 0 else { return nil }
        return mirror.queue.entry(EntryID(UInt64(id)))
    }
}
