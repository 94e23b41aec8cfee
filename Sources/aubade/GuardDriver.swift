import AudioOutput
import DBusKit
import Dispatch
import Handoff
import MPRIS
import PlayerCore

/// Runs `SessionGuard` (the audio session for the other players) against the real world: the
/// sound server's facts with each stream's parent processes filled in, the other players as
/// `OtherPlayersWatcher` follows them, sleep, and its timers; sends the Pause and Play it
/// decides and says each decision (log, `announce`). Shared by `aubade serve` and
/// `aubade guard`.
///
/// Core queue only (the queue of the connection the watcher uses), but for the /proc reads,
/// which hop to a queue of their own and back, in order. `@unchecked Sendable` for that reason:
/// other threads only enqueue work onto the core queue.
final class GuardDriver: @unchecked Sendable {
    private let queue: DispatchQueue
    private let processQueue = DispatchQueue(label: "aubade.processes", qos: .userInitiated)
    private var state = SessionGuard()
    /// Sends the players' commands; set once the watcher exists.
    var players: OtherPlayersWatcher?
    private let announce: (GuardDecision) -> Void
    /// The Pause calls sent for the current sleep, and who waits for them.
    private var sleepRounds = SleepRounds()
    private var whenSleepPausesAnswered: (() -> Void)?
    /// How long a sleep waits for the players' answers, in seconds.
    static let sleepWait = 1.0
    /// The clock the guard's rules see and its timers (the sleep wait, the pause check) run
    /// on: the core queue's, or virtual time in tests. Its work runs on the core queue.
    private let timers: any Scheduler

    init(queue: DispatchQueue, timers: (any Scheduler)? = nil, announce: @escaping (GuardDecision) -> Void) {
        self.queue = queue
        self.timers = timers ?? QueueScheduler(queue: queue)
        self.announce = announce
    }

    /// Now, for SessionGuard, on the timers' clock.
    private var now: Instant { Instant(microseconds: Int64(timers.now * 1_000_000)) }

    var policy: GuardPolicy { state.policy }

    /// What `OtherStreams` answers.
    var streamsValue: DBusValue { GuardWire.streams(state.streamOwners) }

    /// New facts from the sound server (any thread): parents are read off the core queue.
    func soundServerChanged(_ facts: SoundServerFacts) {
        let queue = self.queue
        processQueue.async { [weak self] in
            let filled = ProcessAncestry.filling(facts)
            queue.async { [weak self] in self?.handle(.soundServerChanged(filled)) }
        }
    }

    /// The sound server went away (any thread); in order with the facts.
    func soundServerLost() {
        let queue = self.queue
        processQueue.async { [weak self] in
            guard self != nil else { return }
            queue.async { [weak self] in self?.handle(.soundServerLost) }
        }
    }

    /// What the watcher reports about the other players.
    func otherPlayerEvent(_ event: Event) {
        switch event {
        case .otherPlayerChanged(let player): handle(.playerChanged(player))
        case .otherPlayerGone(let name): handle(.playerGone(name))
        default: break
        }
    }

    /// Pauses every playing player for sleep; `ready` runs once every Pause is answered (or
    /// failed, or timed out), and at most a second later: the machine must not wait on a
    /// player that hangs.
    func prepareForSleep(ready: @escaping () -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        whenSleepPausesAnswered = ready
        let round = sleepRounds.begin()
        perform(state.handle(.sleepImminent, at: now), forSleep: round)
        if sleepRounds.sendingDone(in: round) { return sleepPausesDone() }
        timers.after(Self.sleepWait) { [weak self] in
            guard let self, sleepRounds.waitOver(in: round) else { return }
            sleepPausesDone()
        }
    }

    private func sleepPausesDone() {
        let ready = whenSleepPausesAnswered
        whenSleepPausesAnswered = nil
        ready?()
    }

    func handle(_ event: GuardEvent) {
        dispatchPrecondition(condition: .onQueue(queue))
        perform(state.handle(event, at: now), forSleep: nil)
    }

    private func perform(_ effects: [GuardEffect], forSleep round: SleepRounds.Round?) {
        for effect in effects { perform(effect, forSleep: round) }
    }

    private func perform(_ effect: GuardEffect, forSleep round: SleepRounds.Round?) {
        switch effect {
        case .command(let name, let command):
            guard let round else {
                players?.command(name, command)
                return
            }
            sleepRounds.sent(in: round)
            players?.command(name, command) { [weak self] in
                guard let self, sleepRounds.answered(in: round) else { return }
                sleepPausesDone()
            }
        case .decision(let decision):
            Log.info("guard: \(decision.summary)")
            announce(decision)
        case .schedulePauseCheck(let name, let delay):
            timers.after(Double(delay) / 1_000_000) { [weak self] in
                self?.handle(.pauseCheckDue(name))
            }
        }
    }
}
