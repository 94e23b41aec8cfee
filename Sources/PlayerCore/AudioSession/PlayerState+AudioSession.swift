/// The audio-session policy: route changes and interruptions, decided here, reported by the
/// PulseAudio adapter as plain facts.
extension PlayerState {
    mutating func soundServerChanged(_ facts: SoundServerFacts, at now: Instant) -> [Effect] {
        let old = soundServer
        soundServer = facts
        var effects: [Effect] = []
        // A Snapcast output plays in other rooms: this machine's devices coming and going do
        // not move it. Calls on this machine still interrupt it (below).
        if output == .soundServer, let old, let change = RouteChange.between(old, facts) {
            effects.append(.routeChanged(change))
            effects += apply(change, at: now)
        }
        let phoneCallsBefore = old?.phoneStreamCount ?? 0
        if phoneCallsBefore == 0, facts.phoneStreamCount > 0 {
            effects += beginInterruption(.phoneStream, at: now)
        } else if phoneCallsBefore > 0, facts.phoneStreamCount == 0 {
            effects += endInterruption(.phoneStream, at: now)
        }
        return effects
    }

    /// iOS's rule: losing a private listening device pauses at once, so the music does not
    /// come out of the loudspeaker; a route the user chose never pauses.
    private mutating func apply(_ change: RouteChange, at now: Instant) -> [Effect] {
        switch change.reason {
        case .oldDeviceUnavailable, .noSuitableRoute:
            guard policy.pauseOnRouteLoss,
                  change.reason == .noSuitableRoute || change.previous?.portType.isPrivateListening == true
            else { return [] }
            if status == .paused, pauseReason == .interruption {
                // The headphones went during a call: the call's resume would now play to the
                // loudspeaker. The device's loss is what keeps us paused.
                interruption.pausedUs = false
                pauseReason = .routeChange
                if let previous = change.previous { lostRoute = LostRoute(route: previous, at: now) }
                return []
            }
            guard status == .playing else { return [] }
            if let previous = change.previous { lostRoute = LostRoute(route: previous, at: now) }
            return pause(at: now, reason: .routeChange)
        case .newDeviceAvailable:
            guard policy.resumeOnReconnect, status == .paused, pauseReason == .routeChange,
                  let lost = lostRoute, now - lost.at <= policy.reconnectWindow,
                  let current = change.current, current.isSameDevice(as: lost.route)
            else { return [] }
            lostRoute = nil
            return [.log(.info, "\(current.description) is back: resuming")] + play(at: now)
        case .override:
            return []
        }
    }

    mutating func beginInterruption(_ source: Interruption.Source, at now: Instant) -> [Effect] {
        let wasActive = interruption.isActive
        interruption.sources.insert(source)
        guard !wasActive else { return [] }
        interruption.userActed = false
        interruption.pausedUs = false
        var effects: [Effect] = [.interruptionBegan]
        if policy.pauseOnInterruption, status == .playing {
            interruption.pausedUs = true
            effects += pause(at: now, reason: .interruption)
        }
        return effects
    }

    /// The first source to say the call is over ends it (the other may never say so:
    /// PulseAudio sends no uncork to a stream that was not corked).
    mutating func endInterruption(_ source: Interruption.Source, at now: Instant) -> [Effect] {
        guard interruption.sources.contains(source) else { return [] }
        let shouldResume = interruption.pausedUs && !interruption.userActed
            && status == .paused && pauseReason == .interruption
        interruption = Interruption()
        var effects: [Effect] = [.interruptionEnded(shouldResume: shouldResume)]
        if shouldResume { effects += play(at: now) }
        return effects
    }
}

/// The private device whose loss paused us, and when: for resume-on-reconnect.
struct LostRoute: Sendable, Equatable {
    var route: AudioRoute
    var at: Instant
}

extension PlayerState {
    /// Before sleep: pause, and forget any resume that was pending (a call's end or a
    /// device's return after waking must not start the music: sleep never resumes by itself).
    mutating func prepareForSleep(at now: Instant) -> [Effect] {
        interruption.pausedUs = false
        lostRoute = nil
        // An automatic pause becomes sleep's (so nothing resumes it); a person's stays theirs.
        if status == .paused, pauseReason != .user { pauseReason = .sleep }
        return pause(at: now, reason: .sleep) + [.readyForSleep]
    }
}

extension PlayerState {
    /// Playing to a Bluetooth headset stuck in its call profile (phone quality): switch it to
    /// A2DP — unless a call is using its microphone. The switch replaces the sink, which
    /// RouteChange reads as an override, so it never pauses.
    mutating func bluetoothProfileEffects() -> [Effect] {
        guard policy.preferA2DP, status == .playing, output == .soundServer, let facts = soundServer,
              let sink = facts.sink(named: facts.ourSinkName), let card = sink.cardName,
              let bluetooth = sink.bluetooth, bluetooth.isCallProfile, !bluetooth.microphoneInUse,
              let a2dp = bluetooth.musicProfile,
              requestedProfileSwitch != card
        else { return [] }
        requestedProfileSwitch = card
        return [.output(.switchCardProfile(card: card, profile: a2dp)),
                .log(.info, "\(sink.description) is in its call profile with no call: switching it to \(a2dp)")]
    }
}

extension PlayerState {
    /// A new policy (at start, and on SIGHUP): applied at once. Turning the sleep inhibitor
    /// on or off while playing takes or releases it now, not at the next play or pause.
    mutating func setPolicy(_ newPolicy: AudioSessionPolicy) -> [Effect] {
        let inhibitedBefore = policy.inhibitSleepWhilePlaying
        policy = newPolicy
        guard status == .playing, inhibitedBefore != newPolicy.inhibitSleepWhilePlaying else { return [] }
        return [.keepAwake(newPolicy.inhibitSleepWhilePlaying)]
    }
}
