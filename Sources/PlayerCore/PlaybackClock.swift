/// Where in the current track playback is, extrapolated from the last known point.
///
/// MPRIS clients extrapolate Position the same way (it advances at Rate while Playing and holds
/// otherwise), so any jump they could not predict must be announced with Seeked.
struct PlaybackClock: Sendable, Equatable {
    private var anchorPosition: Microseconds = 0
    private var anchorTime = Instant(microseconds: 0)
    private(set) var isRunning = false

    func position(at now: Instant) -> Microseconds {
        guard isRunning else { return anchorPosition }
        return anchorPosition.saturatingAdding(max(0, now - anchorTime))
    }

    /// Sets the position without changing whether the clock runs.
    mutating func set(_ position: Microseconds, at now: Instant) {
        anchorPosition = max(0, position)
        anchorTime = now
    }

    mutating func start(at now: Instant) {
        guard !isRunning else { return }
        anchorTime = now
        isRunning = true
    }

    /// Stops the clock, keeping the position reached at `now`.
    mutating func freeze(at now: Instant) {
        guard isRunning else { return }
        anchorPosition = position(at: now)
        anchorTime = now
        isRunning = false
    }
}
