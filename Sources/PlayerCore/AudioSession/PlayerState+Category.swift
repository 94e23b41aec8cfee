/// Sharing the speakers with other MPRIS players, as iOS's audio-session categories do.
///
/// Why two players in category playback cannot ping-pong: Aubade pauses others only on its
/// own transition to Playing; it pauses itself only on another player's transition to Playing
/// while it plays; it resumes itself only when that same player stops; and it hands back only
/// to players still Paused on the track it paused them on. None of these reacts to the other
/// player's reaction (a Pause that we caused is not a transition to Playing, and a player we
/// resume while we are paused does not interrupt anything), so every chain ends after one step.
extension PlayerState {
    /// Runs after every turn with the status before it: claims the speakers when playing
    /// starts, and arranges the hand-back when it ends.
    mutating func categoryEffects(statusBefore: PlaybackStatus, at now: Instant) -> [Effect] {
        var effects: [Effect] = []
        let wasPlaying = statusBefore == .playing, isPlaying = status == .playing
        if wasPlaying != isPlaying, policy.inhibitSleepWhilePlaying { effects.append(.keepAwake(isPlaying)) }
        guard policy.category == .playback else { return effects }
        if isPlaying, !wasPlaying {
            others.handBackAt = nil
            for player in others.known.values.sorted(by: { $0.name < $1.name }) where player.status == .playing {
                others.pausedByUs[player.name] = player.trackID
                effects.append(.commandOtherPlayer(player.name, .pause))
                effects.append(.categoryDecision("paused \(player.name)"))
            }
        } else if wasPlaying, !isPlaying {
            switch (status, pauseReason) {
            case (.stopped, _):
                effects += handBack()
            case (.paused, .user):
                guard !others.pausedByUs.isEmpty else { break }
                others.handBackAt = now + policy.handBackDelay
                effects.append(.scheduleHandBack(after: policy.handBackDelay))
            default:
                // The headphones are gone, a call came, the machine sleeps, another player
                // took over: nothing is handed back.
                others.pausedByUs.removeAll()
            }
        }
        return effects
    }

    mutating func handBackDue(at now: Instant) -> [Effect] {
        guard let due = others.handBackAt, now >= due, status == .paused, pauseReason == .user else { return [] }
        return handBack()
    }

    /// Play again for the players Aubade paused that are still Paused on the same track, or
    /// still Playing as far as Aubade knows: its Pause was not reported back yet (Aubade quit
    /// or stopped just after it started, as a busy machine showed), and Play is then right, or
    /// nothing to a player that ignored the Pause. A player the user resumed, stopped or moved
    /// on left `pausedByUs` when that was reported (`otherPlayerChanged`).
    mutating func handBack() -> [Effect] {
        others.handBackAt = nil
        var effects: [Effect] = []
        for (name, track) in others.pausedByUs.sorted(by: { $0.key < $1.key }) {
            guard let player = others.known[name], player.status != .stopped, player.trackID == track else { continue }
            effects.append(.commandOtherPlayer(name, .play))
            effects.append(.categoryDecision("handed back to \(name)"))
        }
        others.pausedByUs.removeAll()
        return effects
    }

    mutating func otherPlayerChanged(_ player: OtherPlayer, at now: Instant) -> [Effect] {
        let before = others.known[player.name]
        others.known[player.name] = player
        if let track = others.pausedByUs[player.name], player.status != .paused || player.trackID != track {
            // The user resumed it or moved it on: it is theirs again, never handed back.
            if before?.status != .playing || player.status != .playing { others.pausedByUs[player.name] = nil }
        }
        guard policy.category == .playback else { return [] }
        if before == nil, player.status == .playing, status == .playing {
            // First seen already playing while we play (we started before we knew of it):
            // our start claims the speakers, as if we had known.
            others.pausedByUs[player.name] = player.trackID
            return [.commandOtherPlayer(player.name, .pause), .categoryDecision("paused \(player.name)")]
        }
        if player.status == .playing, before?.status != .playing, status == .playing {
            others.interrupter = player.name
            return [.categoryDecision("\(player.name) started playing: pausing")] + pause(at: now, reason: .otherPlayer)
        }
        if player.status != .playing, others.interrupter == player.name {
            return interrupterStopped(at: now)
        }
        return []
    }

    mutating func otherPlayerGone(_ name: String, at now: Instant) -> [Effect] {
        others.known[name] = nil
        others.pausedByUs[name] = nil
        return others.interrupter == name ? interrupterStopped(at: now) : []
    }

    private mutating func interrupterStopped(at now: Instant) -> [Effect] {
        others.interrupter = nil
        guard status == .paused, pauseReason == .otherPlayer else { return [] }
        return [.categoryDecision("the other player stopped: resuming")] + play(at: now)
    }
}
