import Testing
import PlayerCore

/// When the machine may sleep after the guard paused the other players: once every Pause is
/// answered or the wait is over, once per sleep, and never because of an earlier sleep's answer
/// or timer (before, one counter was shared by every sleep, and the timer of a sleep the
/// machine had just woken from let the next one go at once).
@Suite struct SleepRoundsTests {
    @Test func noPauseSentMeansReadyAtOnce() {
        let rounds = Rounds()
        let round = rounds.begin()
        #expect(rounds.sendingDone(in: round))
        #expect(!rounds.waitOver(in: round), "the timer after it says nothing more")
    }

    @Test func readyWhenTheLastPauseIsAnswered() {
        let rounds = Rounds()
        let round = rounds.begin()
        rounds.sent(in: round)
        rounds.sent(in: round)
        #expect(!rounds.sendingDone(in: round))
        #expect(!rounds.answered(in: round))
        #expect(rounds.answered(in: round))
        #expect(!rounds.waitOver(in: round))
        #expect(!rounds.answered(in: round), "an extra answer says nothing more")
    }

    /// A call that fails at once is answered before every Pause is sent.
    @Test func anAnswerBeforeSendingIsDoneCounts() {
        let rounds = Rounds()
        let round = rounds.begin()
        rounds.sent(in: round)
        #expect(!rounds.answered(in: round), "more Pauses may follow")
        #expect(rounds.sendingDone(in: round))
    }

    @Test func theWaitEndsARoundWithAPlayerThatNeverAnswers() {
        let rounds = Rounds()
        let round = rounds.begin()
        rounds.sent(in: round)
        #expect(!rounds.sendingDone(in: round))
        #expect(rounds.waitOver(in: round))
        #expect(!rounds.answered(in: round), "its late answer says nothing more")
    }

    @Test func aLateAnswerOfTheLastSleepDoesNotLetTheNextOneGo() {
        let rounds = Rounds()
        let first = rounds.begin()
        rounds.sent(in: first)
        _ = rounds.sendingDone(in: first)
        #expect(rounds.waitOver(in: first))
        let second = rounds.begin()
        rounds.sent(in: second)
        #expect(!rounds.sendingDone(in: second))
        #expect(!rounds.answered(in: first), "the first sleep's player answering now")
        #expect(rounds.answered(in: second))
    }

    @Test func theLastSleepsTimerDoesNotLetTheNextOneGo() {
        let rounds = Rounds()
        let first = rounds.begin()
        rounds.sent(in: first)
        _ = rounds.sendingDone(in: first)
        #expect(rounds.answered(in: first))
        let second = rounds.begin()  // within a second: woken and asleep again
        rounds.sent(in: second)
        #expect(!rounds.sendingDone(in: second))
        #expect(!rounds.waitOver(in: first), "the first sleep's timer firing now")
        #expect(rounds.waitOver(in: second))
    }
}

/// `SleepRounds` behind a reference, so each step can sit in an `#expect`.
private final class Rounds {
    private var rounds = SleepRounds()
    func begin() -> SleepRounds.Round { rounds.begin() }
    func sent(in round: SleepRounds.Round) { rounds.sent(in: round) }
    func sendingDone(in round: SleepRounds.Round) -> Bool { rounds.sendingDone(in: round) }
    func answered(in round: SleepRounds.Round) -> Bool { rounds.answered(in: round) }
    func waitOver(in round: SleepRounds.Round) -> Bool { rounds.waitOver(in: round) }
}
