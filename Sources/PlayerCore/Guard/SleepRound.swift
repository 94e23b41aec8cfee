/// The other players' Pause calls before one sleep, and when the machine may go: once every
/// call is answered (or failed), or when the wait is over, whichever comes first — once.
///
/// Each sleep is a round of its own. Answers and timeouts of an earlier round count for
/// nothing: a player that answers late, or the timer of a sleep the machine woke from a moment
/// ago, must not let the next sleep go before its own Pauses are answered.
public struct SleepRounds: Sendable {
    public struct Round: Equatable, Sendable {
        fileprivate let number: UInt64
    }

    private var current: UInt64 = 0
    private var unanswered = 0
    /// The current round's Pauses are all sent (no more will be counted).
    private var allSent = false
    /// The current round told the machine it may go.
    private var isOver = true

    public init() {}

    /// A new sleep; any earlier round is over.
    public mutating func begin() -> Round {
        current &+= 1
        unanswered = 0
        allSent = false
        isOver = false
        return Round(number: current)
    }

    /// A Pause was sent for `round`.
    public mutating func sent(in round: Round) {
        guard round.number == current, !allSent, !isOver else { return }
        unanswered += 1
    }

    /// Every Pause of `round` is sent. True when the machine may go now (none was sent, or all
    /// are already answered).
    public mutating func sendingDone(in round: Round) -> Bool {
        guard round.number == current, !isOver else { return false }
        allSent = true
        return endIfAnswered()
    }

    /// One of `round`'s Pauses was answered. True when the machine may go now.
    public mutating func answered(in round: Round) -> Bool {
        guard round.number == current, !isOver, unanswered > 0 else { return false }
        unanswered -= 1
        return allSent && endIfAnswered()
    }

    /// The wait for `round` is over. True when the machine may go now (it had not yet).
    public mutating func waitOver(in round: Round) -> Bool {
        guard round.number == current, !isOver else { return false }
        isOver = true
        return true
    }

    private mutating func endIfAnswered() -> Bool {
        guard unanswered == 0 else { return false }
        isOver = true
        return true
    }
}
