/// Unplugs and calls, read from two consecutive readings of the sound server.
extension SessionGuard {
    /// Each stream of the old reading whose private device went away pauses its owner; a lost
    /// device that is back resumes (with resume-on-reconnect) the players it paused.
    mutating func deviceEffects(from old: SoundServerFacts, to new: SoundServerFacts, at now: Instant) -> [GuardEffect] {
        var effects: [GuardEffect] = []
        var decided: Set<String> = []
        if policy.pauseOnRouteLoss {
            for stream in old.otherStreams {
                guard let moved = new.otherStreams.first(where: { $0.index == stream.index }),
                      let owner = StreamOwner.find(for: stream, among: players), !decided.contains(owner.player),
                      let change = RouteChange.between(old.seen(fromSink: stream.sinkName), new.seen(fromSink: moved.sinkName)),
                      change.reason == .oldDeviceUnavailable || change.reason == .noSuitableRoute,
                      let previous = change.previous, previous.portType.isPrivateListening
                else { continue }
                let track = players[owner.player]?.trackID
                guard let pause = pause(owner.player, .deviceLost, stream: stream, device: previous.description) else { continue }
                decided.insert(owner.player)
                pausedForCall[owner.player] = nil
                pausedForDevice[owner.player] = DevicePause(track: track, route: previous, at: now)
                effects += pause
            }
        }
        effects += devicesBack(from: old, to: new, at: now)
        return effects
    }

    /// A device is back when a sink appears, or a port turns available, whose route is the
    /// same device as one that was lost.
    private mutating func devicesBack(from old: SoundServerFacts, to new: SoundServerFacts, at now: Instant) -> [GuardEffect] {
        guard !pausedForDevice.isEmpty else { return [] }
        let arrived = new.sinks.compactMap { sink -> AudioRoute? in
            let before = old.sink(named: sink.name)
            let portCameBack = before.map { before in
                before.activePortName != sink.activePortName
                    || before.activePort?.availability == .no && sink.activePort?.availability != .no
            } ?? true
            return portCameBack ? AudioRoute(facts: new.seen(fromSink: sink.name)) : nil
        }
        guard !arrived.isEmpty else { return [] }
        var effects: [GuardEffect] = []
        for (name, lost) in pausedForDevice.sorted(by: { $0.key < $1.key }) {
            guard let route = arrived.first(where: { $0.isSameDevice(as: lost.route) }) else { continue }
            pausedForDevice[name] = nil
            guard policy.resumeOnReconnect, now - lost.at <= policy.reconnectWindow else { continue }
            effects += handBack(name, track: lost.track, .deviceBack, device: route.description)
        }
        return effects
    }

    /// The first phone stream pauses every playing player but the call's own; the last one
    /// ending hands back to the untouched.
    mutating func callEffects(from old: SoundServerFacts, to new: SoundServerFacts) -> [GuardEffect] {
        if old.phoneStreamCount == 0, new.phoneStreamCount > 0 {
            guard policy.pauseOnInterruption else { return [] }
            let callers = Set(new.otherStreams.filter { $0.role == "phone" }
                .compactMap { StreamOwner.find(for: $0, among: players)?.player })
            var effects: [GuardEffect] = []
            for name in players.keys.sorted() where !callers.contains(name) {
                let track = players[name]?.trackID
                guard let pause = pause(name, .callBegan) else { continue }
                pausedForCall[name] = .some(track)
                effects += pause
            }
            return effects
        }
        if old.phoneStreamCount > 0, new.phoneStreamCount == 0 {
            let paused = pausedForCall
            pausedForCall.removeAll()
            return paused.sorted { $0.key < $1.key }.flatMap { handBack($0.key, track: $0.value, .callEnded) }
        }
        return []
    }
}
