import JSON
import MusicDatabase
import PlayerCore

/// What the page shows of the player: taken from each turn on the player's queue, turned into
/// the state document (docs/web.md) on the web front-end's.
struct PlayerFacts: Sendable, Equatable {
    var snapshot: PlayerSnapshot
    var position: Microseconds
    var queueLength: Int
    /// The current entry's index in the queue.
    var currentIndex: Int?

    init(snapshot: PlayerSnapshot, position: Microseconds, queue: PlayQueue) {
        self.snapshot = snapshot
        self.position = position
        queueLength = queue.count
        currentIndex = snapshot.current.flatMap { current in queue.entries.firstIndex { $0.id == current.id } }
    }

    /// Whether a page must hear of the change from `old`: the position moving as the clock
    /// says is not a change (the page moves its bar itself), a jump is.
    func differs(from old: PlayerFacts, seeked: Bool) -> Bool {
        var same = self
        same.position = old.position
        return same != old || seeked
    }
}

enum StateDocument {
    static func make(_ facts: PlayerFacts, version: UInt64, queueVersion: UInt64, output: String,
                     library: LibrarySnapshot?) -> JSONValue {
        let snapshot = facts.snapshot
        var members: [(key: String, value: JSONValue)] = [
            ("version", .integer(Int64(clamping: version))),
            ("status", .string(snapshot.status.rawValue.lowercased())),
            ("position", TrackDocument.seconds(facts.position)),
            ("volume", .number(snapshot.volume)),
            ("loop", .string(snapshot.loopStatus.rawValue)),
            ("shuffle", .bool(snapshot.shuffle)),
            ("canSeek", .bool(snapshot.canSeek)),
            ("route", snapshot.route.map { .string($0.description) } ?? .null),
            ("pausedBecause", pauseText(snapshot.pauseReason).map { .string($0) } ?? .null),
        ]
        members.append(("current", snapshot.current.map { TrackDocument.entry($0, library: library) } ?? .null))
        members.append(("queue", [
            "version": .integer(Int64(clamping: queueVersion)),
            "length": .integer(Int64(facts.queueLength)),
            "current": facts.currentIndex.map { .integer(Int64($0)) } ?? .null,
        ]))
        members.append(("output", .string(output)))
        return .object(members)
    }

    /// Why the player paused, in a few words after "paused: " — nil for a person's pause.
    static func pauseText(_ reason: PauseReason) -> String? {
        switch reason {
        case .none, .user: nil
        case .routeChange: "headphones unplugged"
        case .interruption: "a call (resumes after it)"
        case .sleep: "the system went to sleep"
        case .otherPlayer: "another player is playing"
        case .noSoundServer: "no sound server"
        case .streamLost: "the sound server dropped the stream"
        }
    }
}
