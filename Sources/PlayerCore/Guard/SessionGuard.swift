/// The audio session for the other MPRIS players: what Aubade does for itself on an unplug, a
/// call and sleep, done to every player whose stream it can tie to it (`StreamOwner`).
///
/// Pure, like `PlayerState`: events and time come in, effects go out. Its rules:
/// - **Strict Pause, only to a player that plays** (its PlaybackStatus is Playing), never
///   PlayPause: a player that is already paused is never touched, so a player that treats
///   Pause as a toggle cannot be started by it. Each Pause is checked after
///   `pauseCheckDelay`: one still playing is reported (`ignoredPause`) and never handed back.
/// - **Unplug**: a stream whose private listening device went away (the route rules of
///   `RouteChange`, read from that stream's sink) pauses its owner; players on other devices
///   play on. With resume-on-reconnect, the same device back within the window plays again
///   those still paused on the same track.
/// - **Calls**: the first phone-role stream pauses every playing player (not one that owns a
///   phone stream: that is the call); when the last ends, those it paused that are still
///   paused on the same track get Play. A player whose status or track changes meanwhile was
///   touched by its user and is theirs again: it is never handed back.
/// - **Sleep** pauses every playing player and forgets every hand-back: nothing starts by
///   itself on wake.
public struct SessionGuard: Sendable {
    public private(set) var policy = GuardPolicy()
    public private(set) var players: [String: OtherPlayer] = [:]
    public private(set) var facts: SoundServerFacts?
    /// Players paused for a lost device: the track they were on and the device.
    var pausedForDevice: [String: DevicePause] = [:]
    /// Players paused for the call in progress, with their track.
    var pausedForCall: [String: String?] = [:]
    /// Players sent Pause whose check is pending.
    var awaitingPause: Set<String> = []

    struct DevicePause: Sendable, Equatable {
        var track: String?
        var route: AudioRoute
        var at: Instant
    }

    public init() {}

    public var callInProgress: Bool { (facts?.phoneStreamCount ?? 0) > 0 }

    /// Every other playback stream with its owner, for `aubade route --all`.
    public var streamOwners: [(stream: PlaybackStreamFacts, owner: StreamOwner?)] {
        (facts?.otherStreams ?? []).map { ($0, StreamOwner.find(for: $0, among: players)) }
    }

    public mutating func handle(_ event: GuardEvent, at now: Instant) -> [GuardEffect] {
        switch event {
        case .soundServerChanged(let new):
            let old = facts
            facts = new
            guard let old else { return [] }
            return deviceEffects(from: old, to: new, at: now) + callEffects(from: old, to: new)
        case .soundServerLost:
            facts = nil
            return []
        case .playerChanged(let player):
            return playerChanged(player)
        case .playerGone(let name):
            players[name] = nil
            forget(name)
            return []
        case .sleepImminent:
            return prepareForSleep()
        case .pauseCheckDue(let name):
            return checkPause(of: name)
        case .setPolicy(let policy):
            self.policy = policy
            return []
        }
    }

    // MARK: Players

    private mutating func playerChanged(_ player: OtherPlayer) -> [GuardEffect] {
        players[player.name] = player
        if let paused = pausedForCall[player.name], player.status != .paused || player.trackID != paused {
            // Its user resumed it, stopped it or moved it on: theirs again.
            if player.status != .playing || !awaitingPause.contains(player.name) { pausedForCall[player.name] = nil }
        }
        if let paused = pausedForDevice[player.name], player.status != .paused || player.trackID != paused.track {
            if player.status != .playing || !awaitingPause.contains(player.name) { pausedForDevice[player.name] = nil }
        }
        if player.status != .playing { awaitingPause.remove(player.name) }
        return []
    }

    private mutating func forget(_ name: String) {
        pausedForCall[name] = nil
        pausedForDevice[name] = nil
        awaitingPause.remove(name)
    }

    /// Pause to `name` if it plays, checked later; nil when it does not play.
    mutating func pause(_ name: String, _ reason: GuardDecision.Reason, stream: PlaybackStreamFacts? = nil,
                                device: String? = nil) -> [GuardEffect]? {
        guard policy.isOn, let player = players[name], player.status == .playing else { return nil }
        awaitingPause.insert(name)
        return [.command(name, .pause),
                .decision(GuardDecision(action: .pause, player: name, reason: reason, stream: stream ?? self.stream(of: name),
                                        device: device)),
                .schedulePauseCheck(name, after: policy.pauseCheckDelay)]
    }

    private mutating func checkPause(of name: String) -> [GuardEffect] {
        guard awaitingPause.remove(name) != nil, let player = players[name], player.status == .playing else { return [] }
        pausedForCall[name] = nil
        pausedForDevice[name] = nil
        return [.decision(GuardDecision(action: .none, player: name, reason: .ignoredPause))]
    }

    /// Play to `name` if it is still paused on `track`.
    func handBack(_ name: String, track: String?, _ reason: GuardDecision.Reason,
                          device: String? = nil) -> [GuardEffect] {
        guard policy.isOn, let player = players[name], player.status == .paused, player.trackID == track else { return [] }
        return [.command(name, .play),
                .decision(GuardDecision(action: .play, player: name, reason: reason, stream: stream(of: name), device: device))]
    }

    /// The player's stream, for a decision that is not about one stream (a call, sleep): which
    /// stream is whose is what a reader of the log wants to see.
    func stream(of name: String) -> PlaybackStreamFacts? {
        facts?.otherStreams.first { StreamOwner.find(for: $0, among: players)?.player == name }
    }

    // MARK: Sleep

    private mutating func prepareForSleep() -> [GuardEffect] {
        pausedForCall.removeAll()
        pausedForDevice.removeAll()
        guard policy.pauseBeforeSleep else { return [] }
        var effects: [GuardEffect] = []
        for name in players.keys.sorted() { effects += pause(name, .sleep) ?? [] }
        return effects
    }
}
