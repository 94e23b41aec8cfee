/// The whole state of the player, and the reducer that changes it.
///
/// `handle(_:at:)` is the only way in: it takes an event and the moment it happened, updates
/// the state and returns the effects to carry out. No clocks, files or sockets in here.
public struct PlayerState: Sendable, Equatable {
    public static let minimumVolume = 0.0
    /// PulseAudio can amplify past 100 %; beyond 150 % music mostly distorts.
    public static let maximumVolume = 1.5

    public internal(set) var queue = PlayQueue()
    public internal(set) var status = PlaybackStatus.stopped
    public internal(set) var loopStatus = LoopStatus.none
    public internal(set) var shuffle = false
    /// MPD's single (with the LoopStatus: see `SingleMode`).
    public internal(set) var single = SingleMode.off
    /// MPD's consume: each entry leaves the queue once it has played.
    public internal(set) var consume = false
    /// The output is switched on (MPD's `outputenabled`); off, its stream is muted.
    public internal(set) var outputEnabled = true
    public internal(set) var volume = 1.0
    /// The entry playing, paused, or selected while stopped.
    public internal(set) var currentID: EntryID?
    /// Entries handed to the output after the current one (gapless) that are not audible yet,
    /// in the order they will play. Usually empty or one; more only for very short tracks.
    var upcoming: [EntryID] = []
    var clock = PlaybackClock()
    public internal(set) var pauseReason = PauseReason.none
    public internal(set) var policy = AudioSessionPolicy()
    /// The last reading of the sound server.
    public internal(set) var soundServer: SoundServerFacts?
    /// Where the output plays (the local sound server's devices, or a Snapcast server).
    public internal(set) var output = OutputPlacement.soundServer
    var interruption = Interruption()
    /// The private device whose loss paused us, and when: for resume-on-reconnect.
    var lostRoute: LostRoute?
    var others = OtherPlayers()
    /// The card we last asked to switch to A2DP, so the request is made once.
    var requestedProfileSwitch: String?
    var random: RandomSource
    /// The sound server is gone (see `PauseReason.noSoundServer`); nothing can be heard.
    public internal(set) var soundServerMissing = false
    /// When the server last dropped our stream, to give up on a stream that keeps failing.
    var lastStreamLoss: Instant?
    /// Where the last `play` handed to the output starts, until the output says it is audible:
    /// opening a file on a slow disk can take seconds, and the clock must not run ahead of it.
    var startedFrom: Microseconds?
    /// When playback was last paused: a live stream paused for long is fetched afresh.
    var pausedAt: Instant?
    /// The one entry whose `live` facts are set (the current stream), so they are cleared in O(1).
    var liveEntryID: EntryID?

    public init(randomSeed: UInt64 = 0x5EED) {
        random = RandomSource(seed: randomSeed)
    }

    public var current: QueueEntry? { currentID.flatMap { queue.entry($0) } }

    /// Where in the current track playback is at `now` (never past the track's end).
    public func position(at now: Instant) -> Microseconds {
        let position = clock.position(at: now)
        if let length = current?.track.length { return min(position, length) }
        return position
    }

    public var snapshot: PlayerSnapshot {
        let hasCurrent = current != nil
        var snapshot = PlayerSnapshot(
            status: status, loopStatus: loopStatus, shuffle: shuffle, volume: volume,
            current: current,
            canGoNext: currentID.map { queue.entry(after: $0, wrapping: loopStatus != .none) != nil } ?? false,
            canGoPrevious: currentID.map { queue.entry(before: $0, wrapping: loopStatus != .none) != nil } ?? false,
            canPlay: hasCurrent, canPause: hasCurrent, canSeek: hasCurrent && (current?.track.isStream != true || current?.live?.isSeekable == true),
            route: output.route ?? soundServer.flatMap(AudioRoute.init(facts:)), pauseReason: pauseReason, policy: policy)
        snapshot.replayGain = current.map(replayGainDecision(for:)) ?? .unity
        snapshot.queueRevision = queue.revision
        snapshot.single = single
        snapshot.consume = consume
        snapshot.outputEnabled = outputEnabled
        return snapshot
    }

    /// Applies one event and returns what must be done about it.
    public mutating func handle(_ event: Event, at now: Instant) -> [Effect] {
        let statusBefore = status
        // What clients extrapolate at this moment (they learn of a jump only from Seeked).
        let before = (entry: currentID, position: position(at: now))
        var effects: [Effect]
        if event.isTransportCommand {
            // A person acted: nothing resumes by itself any more, and a pause left standing is theirs.
            interruption.userActed = interruption.isActive
            lostRoute = nil
            others.interrupter = nil
            effects = apply(event, at: now)
            // Play (or a skip after it) while there is no sound server means "play when it is
            // back"; any other pause left standing is the person's.
            if status == .paused, !(soundServerMissing && pauseReason == .noSoundServer) { pauseReason = .user }
        } else {
            effects = apply(event, at: now)
        }
        effects += categoryEffects(statusBefore: statusBefore, at: now) + bluetoothProfileEffects()
        return effects + unannouncedJump(from: before, effects: effects, at: now)
    }

    /// Seeked for a jump of the current track's position that no step announced: the same
    /// entry started over (LoopStatus Track, GoTo or Previous/Next onto the current entry, a
    /// one-entry queue wrapping). Phones (KDE Connect, GSConnect) and BlueZ extrapolate the
    /// position and learn of such a jump only from Seeked; a new entry they learn of from its
    /// `mpris:trackid`, and Stopped resets the position for them.
    private func unannouncedJump(from before: (entry: EntryID?, position: Microseconds),
                                 effects: [Effect], at now: Instant) -> [Effect] {
        guard let entry = currentID, entry == before.entry, status != .stopped,
              !effects.contains(where: { if case .seeked = $0 { true } else { false } }) else { return [] }
        let position = position(at: now)
        return position == before.position ? [] : [.seeked(position)]
    }

    private mutating func apply(_ event: Event, at now: Instant) -> [Effect] {
        switch event {
        case .play: return play(at: now)
        case .pause: return pause(at: now, reason: .user)
        case .playPause: return status == .playing ? pause(at: now, reason: .user) : play(at: now)
        case .stop: return stop(at: now)
        case .next: return skip(forward: true, at: now)
        case .previous: return skip(forward: false, at: now)
        case .seek(let offset): return seek(by: offset, at: now)
        case .setPosition(let entry, let position): return setPosition(position, of: entry, at: now)
        case .setLoopStatus(let loop): return setLoopStatus(loop, at: now)
        case .setRepeat(let on): return setRepeat(on, at: now)
        case .setSingle(let mode): return setSingle(mode, at: now)
        case .setConsume(let on): consume = on; return []
        case .setReplayGainMode(let mode): policy.replayGain = mode; return []
        case .setOutputEnabled(let on):
            guard on != outputEnabled else { return [] }
            outputEnabled = on
            return [.output(.setMuted(!on))]
        case .setShuffle(let on): return setShuffle(on) + reconcileUpcoming(at: now)
        case .setVolume(let level): return setVolume(level)
        case .setRate(let rate): return rate == 0 ? pause(at: now, reason: .user) : []
        case .enqueue(let tracks, let play): return enqueue(tracks, play: play, at: now)
        case .open(let tracks): return open(tracks, at: now)
        case .addTracks(let tracks, let place, let makeCurrent):
            return addTracks(tracks, at: place, makeCurrent: makeCurrent, at: now)
        case .removeTrack(let entry): return removeTrack(entry, at: now)
        case .goTo(let entry): return goTo(entry, at: now)
        case .playEntry(let entry): return playEntry(entry, at: now)
        case .seekEntry(let entry, let position): return seekEntry(entry, to: position, at: now)
        case .moveEntries(let ids, let position): return moveEntries(ids, to: position, at: now)
        case .swapEntries(let a, let b): return swapEntries(a, b, at: now)
        case .removeEntries(let ids): return removeEntries(ids, at: now)
        case .shuffleQueue(let range): return shuffleQueue(range, at: now)
        case .setPriority(let ids, let priority): return setPriority(priority, of: ids, at: now)
        case .replaceQueue(let tracks, let play): return replaceQueue(with: tracks, play: play, at: now)
        case .restore(let memento): return restore(memento, at: now)
        case .artworkFound(let entry, let url):
            guard queue.entry(entry)?.track.artURL != url else { return [] }
            queue.update(entry) { $0.artURL = url }
            return [.trackList(.metadataChanged(entry))]
        case .trackLengthMeasured(let entry, let length):
            guard let track = queue.entry(entry)?.track, length >= 0,
                  track.lengthIsEstimate || track.length != length else { return [] }
            queue.update(entry) { $0.length = length; $0.lengthIsEstimate = false }
            return [.trackList(.metadataChanged(entry))]
        case .quit:
            // Stopping first hands the speakers back to the players we paused.
            let stopped = status == .stopped ? [Effect.output(.stop)] : stop(at: now)
            return stopped + [.quit]
        case .outputStarted(let entry): return outputStarted(entry, at: now)
        case .outputNeedsNext(let entry): return outputNeedsNext(after: entry)
        case .outputFinished(let entry): return outputFinished(entry, at: now)
        case .outputFailed(let entry, let reason): return outputFailed(entry, reason: reason)
        case .outputVolumeChanged(let level): volume = clampedVolume(level); return []
        case .outputReconnected: return soundServerReturned(at: now)
        case .soundServerLost(let reason): return soundServerLost(reason, at: now)
        case .outputStreamLost(let reason): return outputStreamLost(reason, at: now)
        case .soundServerChanged(let facts): return soundServerChanged(facts, at: now)
        case .corkRequested: return beginInterruption(.corkRequest, at: now)
        case .uncorkRequested: return endInterruption(.corkRequest, at: now)
        case .sleepImminent: return prepareForSleep(at: now)
        case .setPolicy(let newPolicy): return setPolicy(newPolicy)
        case .setOutput(let placement): output = placement; return []
        case .otherPlayerChanged(let player): return otherPlayerChanged(player, at: now)
        case .otherPlayerGone(let name): return otherPlayerGone(name, at: now)
        case .handBackDue: return handBackDue(at: now)
        case .trackUnplayable(let entry, let reason): return trackUnplayable(entry, reason: reason, at: now)
        case .streamStatus(let entry, let status): return streamStatusChanged(entry, status, at: now)
        case .liveTitleHeard(let entry, let title): return liveTitleHeard(entry, title)
        }
    }

    func clampedVolume(_ level: Double) -> Double {
        guard level.isFinite else { return volume }
        return min(max(level, Self.minimumVolume), Self.maximumVolume)
    }
}
