internal import DBusKit
internal import PlayerCore

/// The properties of `org.aubade.AudioSession1`, read from a `PlayerSnapshot`, and the
/// writable policy switches turned into events.
enum AudioSessionProperties {
    static let names = ["CurrentRoute", "PauseReason", "PauseOnRouteLoss", "PauseOnInterruption",
                        "ResumeOnReconnect", "ReconnectWindow", "Category", "Stream", "ReplayGain"]

    static func value(named name: String, of snapshot: PlayerSnapshot) -> DBusValue? {
        switch name {
        case "CurrentRoute": return routeValue(snapshot.route)
        case "PauseReason": return .string(snapshot.pauseReason.rawValue)
        case "PauseOnRouteLoss": return .boolean(snapshot.policy.pauseOnRouteLoss)
        case "PauseOnInterruption": return .boolean(snapshot.policy.pauseOnInterruption)
        case "ResumeOnReconnect": return .boolean(snapshot.policy.resumeOnReconnect)
        case "ReconnectWindow": return .double(Double(snapshot.policy.reconnectWindow) / 1_000_000)
        case "Category": return .string(snapshot.policy.category.rawValue)
        case "Stream": return streamValue(snapshot.current)
        case "ReplayGain": return replayGainValue(snapshot)
        default: return nil
        }
    }

    static func all(of snapshot: PlayerSnapshot) -> [(String, DBusValue)] {
        names.compactMap { name in value(named: name, of: snapshot).map { (name, $0) } }
    }

    static func changes(from old: PlayerSnapshot, to new: PlayerSnapshot) -> [(String, DBusValue)] {
        names.compactMap { name in
            let value = value(named: name, of: new)
            return value == self.value(named: name, of: old) ? nil : value.map { (name, $0) }
        }
    }

    /// The current track's leveling as a{sv}: `mode` (off|track|album|auto, the setting),
    /// `applied` (dB on the samples, 0 when none), `source` (track|album|none: which tag),
    /// `limitedByPeak` (lowered so the tagged peak does not clip).
    static func replayGainValue(_ snapshot: PlayerSnapshot) -> DBusValue {
        let decision = snapshot.replayGain
        return .vardict([("mode", .string(snapshot.policy.replayGain.rawValue)),
                         ("applied", .double(decision.appliedGain)),
                         ("source", .string(decision.source?.rawValue ?? "none")),
                         ("limitedByPeak", .boolean(decision.limitedByPeak))])
    }

    /// A route as a{sv}; keys that are unknown are left out.
    static func routeValue(_ route: AudioRoute?) -> DBusValue {
        guard let route else { return .vardict([]) }
        var fields: [(String, DBusValue)] = [
            ("portType", .string(route.portType.rawValue)),
            ("sinkName", .string(route.sinkName)),
            ("description", .string(route.description)),
        ]
        if let port = route.portName { fields.append(("portName", .string(port))) }
        if let bus = route.bus { fields.append(("bus", .string(bus))) }
        if let profile = route.bluetoothProfile { fields.append(("bluetoothProfile", .string(profile))) }
        return .vardict(fields)
    }

    /// The current stream's connection as a{sv} (empty when a file or nothing is current):
    /// `state` connecting | connected | reconnecting, `summary` (one line, as `aubade status`
    /// shows it), `station`, `attempt` and `retryIn` (seconds) while reconnecting, `live`.
    static func streamValue(_ entry: QueueEntry?) -> DBusValue {
        guard let entry, entry.track.isStream, let live = entry.live else { return .vardict([]) }
        var fields: [(String, DBusValue)] = [("summary", .string(live.status.summary)), ("live", .boolean(live.isLive))]
        switch live.status {
        case .connecting: fields.append(("state", .string("connecting")))
        case .connected, .measured: fields.append(("state", .string("connected")))
        case .reconnecting(let attempt, let delay, let reason):
            fields += [("state", .string("reconnecting")), ("attempt", .int32(Int32(clamping: attempt))),
                       ("retryIn", .double(Double(delay) / 1_000_000)), ("reason", .string(reason))]
        }
        if let station = live.station { fields.append(("station", .string(station))) }
        return .vardict(fields)
    }

    /// The policy after a `Set`; a wrong type or value is InvalidArgs.
    static func policy(setting name: String, to value: DBusValue,
                       in policy: AudioSessionPolicy) throws(DBusError) -> AudioSessionPolicy {
        var policy = policy
        switch name {
        case "PauseOnRouteLoss", "PauseOnInterruption", "ResumeOnReconnect":
            guard let on = value.asBool else { throw .invalidArgs("\(name) must be a boolean (b)") }
            switch name {
            case "PauseOnRouteLoss": policy.pauseOnRouteLoss = on
            case "PauseOnInterruption": policy.pauseOnInterruption = on
            default: policy.resumeOnReconnect = on
            }
        case "ReconnectWindow":
            guard let seconds = value.asDouble, seconds.isFinite, seconds >= 0, seconds <= 86_400 else {
                throw .invalidArgs("ReconnectWindow must be a number of seconds from 0 to 86400")
            }
            policy.reconnectWindow = Microseconds.microseconds(saturatingSeconds: seconds)
        case "Category":
            guard let raw = value.asString, let category = SessionCategory(rawValue: raw) else {
                throw .invalidArgs("Category must be \"playback\" or \"mixWithOthers\"")
            }
            policy.category = category
        case "CurrentRoute", "PauseReason", "Stream":
            throw .propertyReadOnly("\(name) is read-only")
        default:
            throw .unknownProperty("no property \(name) on \(MPRISNames.audioSessionInterface)")
        }
        return policy
    }
}
