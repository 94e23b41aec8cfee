/// The sound server going away and coming back.
///
/// Nothing is heard without a server, so MPRIS must not say Playing and the position must not
/// run on: the player pauses (reason `noSoundServer`) with the clock frozen where the audio
/// stopped, which also releases the sleep inhibitor, and resumes there by itself when the
/// server is back — unless a person paused or stopped meanwhile.
extension PlayerState {
    /// Within this time a second loss of our stream means the server keeps dropping it.
    static let streamLossWindow: Microseconds = 5_000_000

    mutating func soundServerLost(_ reason: String, at now: Instant) -> [Effect] {
        guard !soundServerMissing else { return [] }
        soundServerMissing = true
        // The stream and the gapless follow-up it held are gone with the connection.
        upcoming = []
        // The last facts stay: what the server reports when it is back is compared with them
        // (headphones gone meanwhile is a route change, a call ended meanwhile ends the
        // interruption).
        var effects: [Effect] = [.log(.warning, "sound server lost (\(reason))")]
        guard status == .playing else { return effects }
        status = .paused
        pauseReason = .noSoundServer
        clock.freeze(at: now)
        effects.append(.log(.notice, "paused at \(Self.describe(position(at: now))) until the sound server is back"))
        return effects
    }

    mutating func soundServerReturned(at now: Instant) -> [Effect] {
        let wasMissing = soundServerMissing
        soundServerMissing = false
        guard let current, status != .stopped else { return [] }
        if wasMissing, status == .paused, pauseReason == .noSoundServer {
            var effects = start(current, from: position(at: now), playing: true, at: now)
            effects.append(.log(.info, "sound server back: resuming at \(Self.describe(position(at: now)))"))
            return effects
        }
        // Whatever the output held is gone: load the current entry again where it is.
        return start(current, from: position(at: now), playing: status == .playing, at: now)
    }

    mutating func outputStreamLost(_ reason: String, at now: Instant) -> [Effect] {
        guard !soundServerMissing, let current, status != .stopped else { return [] }
        clock.freeze(at: now)
        let position = position(at: now)
        defer { lastStreamLoss = now }
        if status == .playing, let last = lastStreamLoss, now - last < Self.streamLossWindow {
            status = .paused
            pauseReason = .streamLost
            upcoming = []
            return [.log(.error, "the sound server dropped our stream again (\(reason)); paused")]
        }
        var effects = start(current, from: position, playing: status == .playing, at: now)
        effects.append(.log(.warning, "the sound server dropped our stream (\(reason)); playing on from \(Self.describe(position))"))
        return effects
    }

    static func describe(_ position: Microseconds) -> String {
        let tenths = position / 100_000
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
