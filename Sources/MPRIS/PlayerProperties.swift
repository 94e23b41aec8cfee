internal import DBusKit
internal import PlayerCore

/// The properties of `org.mpris.MediaPlayer2.Player`, read from a `PlayerSnapshot`, and the
/// writable ones turned into events.
enum PlayerProperties {
    /// Every property, in the order GetAll lists them.
    static let names = ["PlaybackStatus", "LoopStatus", "Rate", "Shuffle", "Metadata", "Volume", "Position",
                        "MinimumRate", "MaximumRate", "CanGoNext", "CanGoPrevious", "CanPlay", "CanPause",
                        "CanSeek", "CanControl"]
    static let writable: Set = ["LoopStatus", "Rate", "Shuffle", "Volume"]

    /// Rate is fixed: playing faster or slower is not what a background music service is for.
    static let rate = 1.0

    static func value(named name: String, of snapshot: PlayerSnapshot,
                      position: @autoclosure () -> Microseconds) -> DBusValue? {
        switch name {
        case "PlaybackStatus": return .string(snapshot.status.rawValue)
        case "LoopStatus": return .string(snapshot.loopStatus.rawValue)
        case "Rate", "MinimumRate", "MaximumRate": return .double(rate)
        case "Shuffle": return .boolean(snapshot.shuffle)
        case "Metadata": return Metadata.value(for: snapshot.current)
        case "Volume": return .double(snapshot.volume)
        case "Position": return .int64(position())
        case "CanGoNext": return .boolean(snapshot.canGoNext)
        case "CanGoPrevious": return .boolean(snapshot.canGoPrevious)
        case "CanPlay": return .boolean(snapshot.canPlay)
        case "CanPause": return .boolean(snapshot.canPause)
        case "CanSeek": return .boolean(snapshot.canSeek)
        case "CanControl": return .boolean(true)
        default: return nil
        }
    }

    /// The properties whose values differ between two snapshots, with their new values.
    /// Position is never announced (clients extrapolate it; jumps go out as Seeked).
    static func changes(from old: PlayerSnapshot, to new: PlayerSnapshot) -> [(String, DBusValue)] {
        var changed: [(String, DBusValue)] = []
        func note(_ name: String, _ differs: Bool) {
            if differs, let value = value(named: name, of: new, position: 0) { changed.append((name, value)) }
        }
        note("PlaybackStatus", old.status != new.status)
        note("LoopStatus", old.loopStatus != new.loopStatus)
        note("Shuffle", old.shuffle != new.shuffle)
        note("Metadata", old.current != new.current)
        note("Volume", old.volume != new.volume)
        note("CanGoNext", old.canGoNext != new.canGoNext)
        note("CanGoPrevious", old.canGoPrevious != new.canGoPrevious)
        note("CanPlay", old.canPlay != new.canPlay)
        note("CanPause", old.canPause != new.canPause)
        note("CanSeek", old.canSeek != new.canSeek)
        return changed
    }

    /// The event a `Set` of a writable property stands for; a wrong type or value is InvalidArgs.
    static func event(setting name: String, to value: DBusValue) throws(DBusError) -> Event {
        switch name {
        case "LoopStatus":
            guard case .string(let raw) = value else { throw .invalidArgs("LoopStatus must be a string (s)") }
            guard let loop = LoopStatus(rawValue: raw) else {
                throw .invalidArgs("LoopStatus must be None, Track or Playlist, not \"\(raw)\"")
            }
            return .setLoopStatus(loop)
        case "Shuffle":
            guard case .boolean(let on) = value else { throw .invalidArgs("Shuffle must be a boolean (b)") }
            return .setShuffle(on)
        case "Volume":
            guard let level = value.asDouble else { throw .invalidArgs("Volume must be a number (d)") }
            guard level.isFinite else { throw .invalidArgs("Volume must be a finite number") }
            return .setVolume(level)
        case "Rate":
            guard let rate = value.asDouble else { throw .invalidArgs("Rate must be a number (d)") }
            guard rate.isFinite else { throw .invalidArgs("Rate must be a finite number") }
            return .setRate(rate)
        default:
            throw .propertyReadOnly("\(name) is read-only")
        }
    }
}
