// Test support for PlayerCore: tracks with known lengths, a player driven by (event, time)
// steps, and an output double that answers the reducer the way the real output does.
@testable import PlayerCore
import Testing

let second: Microseconds = 1_000_000

/// The moment `seconds` after the test's origin.
func at(_ seconds: Double) -> Instant {
    Instant(microseconds: Microseconds(seconds * Double(second)))
}

/// A span of `value` seconds, in microseconds (the unit MPRIS and PlayerCore speak).
func seconds(_ value: Double) -> Microseconds { Microseconds(value * Double(second)) }

/// A track `/music/<n>.mp3` of `length` (100 s unless told).
func track(_ n: Int, length: Microseconds? = 100 * second) -> Track {
    Track(path: FilePath("/music/\(n).mp3")!, title: "Track \(n)", length: length)
}

/// `count` tracks numbered from `first`, each of `length`.
func tracks(_ count: Int, from first: Int = 0, length: Microseconds? = 100 * second) -> [Track] {
    (0..<count).map { track(first + $0, length: length) }
}

extension Array where Element == Effect {
    /// The effects other than log lines, queue-change notices and the keep-awake inhibitor:
    /// what changes playback.
    var actions: [Effect] {
        filter {
            switch $0 {
            case .log, .trackList, .keepAwake: return false
            default: return true
            }
        }
    }

    /// The queue-change notices (for the MPRIS TrackList signals).
    var trackListChanges: [TrackListChange] {
        compactMap { if case .trackList(let change) = $0 { return change } else { return nil } }
    }

    /// The entry handed to the output when the actions are exactly one `enqueue`.
    var enqueued: QueueEntry? {
        let actions = self.actions
        guard actions.count == 1, case .output(.enqueue(let entry)) = actions[0] else { return nil }
        return entry
    }

    var logs: [(LogLevel, String)] {
        compactMap { if case .log(let level, let text) = $0 { return (level, text) } else { return nil } }
    }
}

/// How the player stands before the event under test.
enum Start: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case stopped, playing, paused
    var testDescription: String { rawValue }
}

/// A `PlayerState` plus the time, fed one event at a time.
struct Player {
    var state: PlayerState
    var now = Instant(microseconds: 0)

    /// An empty player.
    init(seed: UInt64 = 0x5EED) {
        state = PlayerState(randomSeed: seed)
        // The sleep inhibitor's effects would be noise in every table; CategoryTests turn it on.
        var policy = AudioSessionPolicy()
        policy.inhibitSleepWhilePlaying = false
        send(.setPolicy(policy))
    }

    /// A player with `count` tracks queued (stopped, the first selected), then `loop` and
    /// `shuffle` set, then brought to `start` at time 0 (paused at 0 when `.paused`).
    init(tracks count: Int, length: Microseconds? = 100 * second, loop: LoopStatus = .none,
         shuffle: Bool = false, start: Start = .stopped, seed: UInt64 = 0x5EED) {
        self.init(seed: seed)
        send(.enqueue(PlayerCoreTests.tracks(count, length: length), play: false))
        send(.setLoopStatus(loop))
        if shuffle { send(.setShuffle(true)) }
        switch start {
        case .stopped: break
        case .playing: send(.play)
        case .paused: send(.play); send(.pause)
        }
    }

    /// Handles `event` at `seconds` after the origin (or at the current time). Time never runs backwards.
    @discardableResult
    mutating func send(_ event: Event, at seconds: Double? = nil,
                       sourceLocation: SourceLocation = #_sourceLocation) -> [Effect] {
        if let seconds {
            let moment = PlayerCoreTests.at(seconds)
            #expect(moment >= now, "time ran backwards in the test", sourceLocation: sourceLocation)
            now = moment
        }
        return state.handle(event, at: now)
    }

    /// Feeds a table of (event, time) steps; returns each step's effects.
    @discardableResult
    mutating func run(_ steps: [(Event, Double)]) -> [[Effect]] {
        steps.map { send($0.0, at: $0.1) }
    }

    var snapshot: PlayerSnapshot { state.snapshot }
    var status: PlaybackStatus { state.status }
    var position: Microseconds { state.position(at: now) }
    func position(at seconds: Double) -> Microseconds { state.position(at: PlayerCoreTests.at(seconds)) }

    /// The queue's entries in the user's order.
    var entries: [QueueEntry] { state.queue.entries }
    var ids: [EntryID] { entries.map(\.id) }
    /// The entry at `index` of the queue (user's order).
    func entry(_ index: Int) -> QueueEntry { entries[index] }
    var currentID: EntryID? { state.currentID }
    var currentIndex: Int? { currentID.flatMap { id in ids.firstIndex(of: id) } }

    /// Drives the queue forward like the real output: asks what follows the last entry it was
    /// handed, starts it when it is enqueued, and reports finished at the end of the queue.
    /// Each track is played to its end (its length of time passes). Returns the entries that
    /// became audible, starting with the current one; stops after `limit` of them.
    @discardableResult
    mutating func playOut(limit: Int = 100, sourceLocation: SourceLocation = #_sourceLocation) -> [EntryID] {
        guard let first = currentID else { return [] }
        var order = [first]
        var last = first
        while order.count < limit {
            let length = state.queue.entry(last)?.track.length ?? 100 * second
            now = now + length
            let answer = send(.outputNeedsNext(after: last)).actions
            switch answer.count == 1 ? answer[0] : nil {
            case .output(.enqueue(let next))?:
                // The same entry again (LoopStatus Track) jumps back to 0 under the same track id:
                // clients learn of that only from Seeked.
                #expect(send(.outputStarted(next.id)) == (next.id == last ? [.seeked(0)] : []), sourceLocation: sourceLocation)
                #expect(currentID == next.id, sourceLocation: sourceLocation)
                #expect(position == 0, sourceLocation: sourceLocation)
                order.append(next.id)
                last = next.id
            case .output(.endOfQueue)?:
                #expect(send(.outputFinished(last)).actions == [.output(.stop)], sourceLocation: sourceLocation)
                return order
            default:
                Issue.record("unexpected answer to outputNeedsNext: \(answer)", sourceLocation: sourceLocation)
                return order
            }
        }
        return order
    }
}

/// Swift 6.3.1 miscompiles key paths to computed properties of a `Track` larger than 232 bytes
/// (`\Track.path` read garbage and crashed): see `Track.extras`. This keeps it from growing
/// back past that by accident.
@Suite struct TrackSizeTests {
    @Test func aTrackStaysWithinTheSizeItsKeyPathsSurvive() {
        #expect(MemoryLayout<Track>.size <= 232)
        let track = Track(path: "/a.mp3", title: "A")
        #expect(track[keyPath: \Track.path] == "/a.mp3")
        #expect([QueueEntry(id: EntryID(1), track: track)].map(\.track.path) == ["/a.mp3"])
    }
}
